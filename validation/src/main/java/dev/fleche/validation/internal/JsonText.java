package dev.fleche.validation.internal;

import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;

/**
 * A small JSON writer for problem documents: maps (in their iteration order), lists and arrays, strings, numbers,
 * booleans and null. Anything else is written as its {@code toString()} string. Nesting is capped at
 * {@value #MAX_DEPTH} levels (deeper values are written as {@code null}) so a cyclic map added by a customizer
 * cannot overflow the stack. No dependency: it also renders the transport's error bodies.
 */
public final class JsonText {
    static final int MAX_DEPTH = 32;

    private JsonText() {
    }

    /** {@code value} as compact JSON text. */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder(256);
        write(out, value, 0);
        return out.toString();
    }

    private static void write(StringBuilder out, Object value, int depth) {
        if (value == null || depth > MAX_DEPTH) {
            out.append("null");
        } else if (value instanceof CharSequence || value instanceof Character || value instanceof Enum) {
            string(out, value.toString());
        } else if (value instanceof Boolean) {
            out.append(value);
        } else if (value instanceof Number) {
            number(out, (Number) value);
        } else if (value instanceof Map) {
            object(out, (Map<?, ?>) value, depth);
        } else if (value instanceof Iterable) {
            array(out, (Iterable<?>) value, depth);
        } else if (value.getClass().isArray()) {
            out.append('[');
            for (int i = 0, n = Array.getLength(value); i < n; i++) {
                if (i > 0) {
                    out.append(',');
                }
                write(out, Array.get(value, i), depth + 1);
            }
            out.append(']');
        } else {
            string(out, value.toString());
        }
    }

    private static void object(StringBuilder out, Map<?, ?> map, int depth) {
        out.append('{');
        boolean first = true;
        for (Map.Entry<?, ?> e : map.entrySet()) {
            if (!first) {
                out.append(',');
            }
            first = false;
            string(out, String.valueOf(e.getKey()));
            out.append(':');
            write(out, e.getValue(), depth + 1);
        }
        out.append('}');
    }

    private static void array(StringBuilder out, Iterable<?> values, int depth) {
        out.append('[');
        boolean first = true;
        for (Object v : values) {
            if (!first) {
                out.append(',');
            }
            first = false;
            write(out, v, depth + 1);
        }
        out.append(']');
    }

    private static void number(StringBuilder out, Number n) {
        if (n instanceof Double || n instanceof Float) {
            double d = n.doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                string(out, n.toString()); // JSON has no NaN or infinity
            } else {
                out.append(n);
            }
        } else if (n instanceof BigDecimal) {
            out.append(((BigDecimal) n).toString());
        } else if (n instanceof BigInteger || n instanceof Long || n instanceof Integer || n instanceof Short
                || n instanceof Byte) {
            out.append(n);
        } else {
            string(out, n.toString()); // AtomicLong, LongAdder, ...: their text, quoted
        }
    }

    /** Appends {@code s} as a JSON string; escapes quotes, backslashes, controls, and U+2028/9 for old parsers. */
    static void string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20 || c == 0x7F || c == '\u2028' || c == '\u2029'
                            || Character.isSurrogate(c) && !validSurrogate(s, i)) {
                        out.append(String.format("\\u%04x", (int) (Character.isSurrogate(c) ? 0xFFFD : c)));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    private static boolean validSurrogate(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }
}
