package dev.fleche.perf.soak;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * What a checked request expects of its answer: status, the request id echoed in {@code X-Request-Id}, and the
 * body (exact bytes, or a text prefix). {@link #problem} names the first thing wrong, or is null.
 */
record ResponseCheck(long id, int status, byte[] body, String textPrefix) {

    static ResponseCheck exact(long id, byte[] body) {
        return new ResponseCheck(id, 200, body, null);
    }

    static ResponseCheck text(long id, String text) {
        return new ResponseCheck(id, 200, null, text);
    }

    /** The response is for this request and as expected: null; otherwise what is wrong. */
    String problem(Response response) {
        String echoed = response.field(RequestIdFilter.HEADER);
        if (echoed == null) {
            return "request " + id + ": no " + RequestIdFilter.HEADER + " in the response";
        }
        if (!echoed.equals(Long.toString(id))) {
            return "request " + id + ": got the response of request " + echoed;
        }
        if (response.status() != status) {
            return "request " + id + ": status " + response.status() + ", expected " + status;
        }
        if (body != null && !Arrays.equals(body, response.body())) {
            return "request " + id + ": body of " + response.body().length + " bytes differs from the "
                    + body.length + " expected";
        }
        if (textPrefix != null && !response.text().startsWith(textPrefix)) {
            return "request " + id + ": body '" + abbreviate(response.text()) + "', expected '" + textPrefix + "'";
        }
        return null;
    }

    /**
     * After the last response on a connection the request asked to close: the stream must end there; a byte more
     * is a second (or stray) response. Null when clean, else the problem.
     */
    static String nothingMore(InputStream in) throws IOException {
        int next = in.read();
        return next < 0 ? null : "bytes after the last response on a closed connection (a second response?)";
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "...";
    }
}
