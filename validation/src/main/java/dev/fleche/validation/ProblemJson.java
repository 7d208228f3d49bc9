package dev.fleche.validation;

import dev.fleche.validation.internal.JsonText;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Renders RFC 9457 problem documents ({@value #MEDIA_TYPE}) without any JSON library, so that layers below Jersey
 * can answer in the same shape as the application. For the Fleche transport's own rejections (a request line too
 * long, headers too large, a bad chunk, ...):
 *
 * <pre>{@code
 * ServerOptions options = ServerOptions.builder()
 *         .errorRenderer((status, reason) -> new ErrorRenderer.Body(ProblemJson.MEDIA_TYPE,
 *                 ProblemJson.render(status, ProblemJson.title(status), reason)))
 *         .build();
 * }</pre>
 *
 * <p>The members are written in the order {@code type}, {@code title}, {@code status}, {@code detail}, then the
 * extension members. Strings are escaped for JSON; the output is UTF-8.
 */
public final class ProblemJson {
    /** {@code application/problem+json} (RFC 9457, section 3). */
    public static final String MEDIA_TYPE = "application/problem+json";
    /** The problem type of a problem that means no more than its HTTP status (RFC 9457, section 4.2.1). */
    public static final String ABOUT_BLANK = "about:blank";
    /**
     * The request property holding the request's id, when a container or filter sets one (Fleche's
     * {@code FlecheRequestIds} does, under this same name, {@code FlecheProperties.REQUEST_ID}): a String there
     * becomes the {@value #REQUEST_ID_MEMBER} member of the problem documents this module writes, and is logged with
     * incidents. This module reads the name only, so it works on any container.
     */
    public static final String REQUEST_ID_PROPERTY = "dev.fleche.requestId";
    /** The extension member carrying the request id. */
    public static final String REQUEST_ID_MEMBER = "requestId";

    private ProblemJson() {
    }

    /**
     * {@code {"type":"about:blank","title":title,"status":status,"detail":detail}} as UTF-8 bytes; a null
     * {@code title} becomes {@link #title(int)}, a null {@code detail} is left out. Fast, allocation-light and
     * never throws for a status in 100..599: suitable for a transport's event loop.
     *
     * @throws IllegalArgumentException when {@code status} is not in 100..599
     */
    public static byte[] render(int status, String title, String detail) {
        if (status < 100 || status > 599) {
            throw new IllegalArgumentException("status must be 100..599: " + status);
        }
        Map<String, Object> problem = new LinkedHashMap<>(8);
        problem.put("type", ABOUT_BLANK);
        problem.put("title", title != null ? title : title(status));
        problem.put("status", status);
        if (detail != null) {
            problem.put("detail", detail);
        }
        return render(problem);
    }

    /**
     * A problem given as a map (members in the map's iteration order) as UTF-8 JSON bytes. Values may be strings,
     * numbers, booleans, null, maps, iterables and arrays of those; anything else is written as its
     * {@code toString()}.
     */
    public static byte[] render(Map<String, ?> problem) {
        return JsonText.write(problem).getBytes(StandardCharsets.UTF_8);
    }

    /** The standard reason phrase of {@code status} (RFC 9110, section 15), or {@code "HTTP <status>"}. */
    public static String title(int status) {
        return switch (status) {
            case 400 -> "Bad Request";
            case 401 -> "Unauthorized";
            case 402 -> "Payment Required";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 406 -> "Not Acceptable";
            case 407 -> "Proxy Authentication Required";
            case 408 -> "Request Timeout";
            case 409 -> "Conflict";
            case 410 -> "Gone";
            case 411 -> "Length Required";
            case 412 -> "Precondition Failed";
            case 413 -> "Content Too Large";
            case 414 -> "URI Too Long";
            case 415 -> "Unsupported Media Type";
            case 416 -> "Range Not Satisfiable";
            case 417 -> "Expectation Failed";
            case 421 -> "Misdirected Request";
            case 422 -> "Unprocessable Content";
            case 426 -> "Upgrade Required";
            case 428 -> "Precondition Required";
            case 429 -> "Too Many Requests";
            case 431 -> "Request Header Fields Too Large";
            case 451 -> "Unavailable For Legal Reasons";
            case 500 -> "Internal Server Error";
            case 501 -> "Not Implemented";
            case 502 -> "Bad Gateway";
            case 503 -> "Service Unavailable";
            case 504 -> "Gateway Timeout";
            case 505 -> "HTTP Version Not Supported";
            default -> "HTTP " + status;
        };
    }
}
