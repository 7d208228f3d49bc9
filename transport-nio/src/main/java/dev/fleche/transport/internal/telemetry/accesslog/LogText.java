package dev.fleche.transport.internal.telemetry.accesslog;

/**
 * Sanitised text for the log: values from the request are escaped so that a line is one line of printable ASCII
 * whatever the client sent, and cut at a bound with {@link #CUT_MARK}. Two escapings: the text formats' (Apache
 * style: {@code \"}, {@code \\}, {@code \xHH}) and JSON's ({@code \"}, {@code \\}, {@code \n} and the like,
 * {@code \\u} and four hex digits).
 */
final class LogText {
    /** Appended to a value cut at its bound. */
    static final String CUT_MARK = "[...]";
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private LogText() {
    }

    /** Appends {@code value} (at most {@code max} characters of it) escaped for the text formats. */
    static void text(StringBuilder out, String value, int max) {
        int end = Math.min(value.length(), max);
        int plain = plainPrefix(value, end);
        out.append(value, 0, plain);
        for (int i = plain; i < end; i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || c >= 0x7f) {
                if (c > 0xff) {
                    unicode(out, c);
                } else {
                    out.append("\\x").append(HEX[c >> 4]).append(HEX[c & 0xf]);
                }
            } else {
                out.append(c);
            }
        }
        if (value.length() > max) {
            out.append(CUT_MARK);
        }
    }

    /** Appends {@code value} (at most {@code max} characters of it) as a JSON string, quotes included. */
    static void json(StringBuilder out, String value, int max) {
        out.append('"');
        int end = Math.min(value.length(), max);
        int plain = plainPrefix(value, end);
        out.append(value, 0, plain);
        for (int i = plain; i < end; i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20 || c >= 0x7f) {
                        unicode(out, c);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        if (value.length() > max) {
            out.append(CUT_MARK);
        }
        out.append('"');
    }

    /** How many characters {@code value} begins with, up to {@code end}, that both escapings leave as they are. */
    private static int plainPrefix(String value, int end) {
        for (int i = 0; i < end; i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') {
                return i;
            }
        }
        return end;
    }

    private static void unicode(StringBuilder out, char c) {
        out.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 0xf]).append(HEX[(c >> 4) & 0xf])
                .append(HEX[c & 0xf]);
    }
}
