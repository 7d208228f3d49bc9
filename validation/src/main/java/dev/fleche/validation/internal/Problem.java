package dev.fleche.validation.internal;

import dev.fleche.validation.ProblemJson;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A problem document being built: the members of RFC 9457 in their order, then extension members. The
 * {@code instance} member is filled in by {@link ProblemResponder} from the request.
 */
final class Problem {
    /** Problem types of this module (URNs: stable names, not links to follow). */
    static final String TYPE_CONSTRAINT_VIOLATION = "urn:fleche:problem:constraint-violation";
    static final String TYPE_MALFORMED_JSON = "urn:fleche:problem:malformed-json";
    static final String TYPE_INVALID_JSON = "urn:fleche:problem:invalid-json";
    static final String TYPE_JSON_TOO_LARGE = "urn:fleche:problem:json-too-large";
    static final String TYPE_INVALID_PARAMETER = "urn:fleche:problem:invalid-parameter";

    private final Map<String, Object> extensions = new LinkedHashMap<>();
    private final String type;
    private final String title;
    private final int status;
    private final String detail;

    private Problem(String type, String title, int status, String detail) {
        this.type = type;
        this.title = title;
        this.status = status;
        this.detail = detail;
    }

    /** A problem that means no more than its status: {@code about:blank} and the standard reason phrase. */
    static Problem ofStatus(int status, String detail) {
        return new Problem(ProblemJson.ABOUT_BLANK, ProblemJson.title(status), status, detail);
    }

    static Problem of(String type, String title, int status, String detail) {
        return new Problem(type, title, status, detail);
    }

    Problem errors(List<Map<String, Object>> errors) {
        extensions.put("errors", errors);
        return this;
    }

    Problem with(String name, Object value) {
        extensions.put(name, value);
        return this;
    }

    int status() {
        return status;
    }

    /** The document as a mutable map, with {@code detail} when there is one and {@code instance} when known. */
    Map<String, Object> toMap(String instance) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("type", type);
        map.put("title", title);
        map.put("status", status);
        if (detail != null) {
            map.put("detail", detail);
        }
        if (instance != null) {
            map.put("instance", instance);
        }
        map.putAll(extensions);
        return map;
    }
}
