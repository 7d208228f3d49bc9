package dev.fleche.transport.internal.files;

import dev.fleche.transport.internal.rules.StaticRule;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The part of a request path below a static prefix, taken apart into file-name segments, or refused: the only place
 * where a path from a client becomes names. Each segment is percent-decoded once, as strict UTF-8 (overlong forms,
 * surrogates and truncated sequences are malformed), and must then be a plain name: not empty, not {@code .} or
 * {@code ..}, without {@code /}, {@code \}, NUL or another control character. Names starting with {@code .} are
 * {@link StaticRule#STATIC_HIDDEN} unless dot-files are served. Nothing here touches the file system.
 *
 * @param segments  the decoded names, root first; empty for the root itself
 * @param directory whether the path ends with {@code /} (or is the root): it names a directory
 * @param refusal   why the path cannot name a file, or null
 */
public record RequestPath(List<String> segments, boolean directory, StaticRule refusal) {
    /** Longest path below a prefix taken apart (the request line is bounded anyway; this bounds the work). */
    static final int MAX_SEGMENTS = 64;

    private static final RequestPath BAD = new RequestPath(List.of(), false, StaticRule.STATIC_BAD_PATH);
    private static final RequestPath HIDDEN = new RequestPath(List.of(), false, StaticRule.STATIC_HIDDEN);

    /** {@code raw} is the path after the prefix, not decoded ({@code css/app.css}, {@code docs/}, empty). */
    public static RequestPath parse(String raw, boolean hiddenServed) {
        List<String> names = new ArrayList<>(4);
        int start = 0;
        int n = raw.length();
        while (start < n) {
            int slash = raw.indexOf('/', start);
            int end = slash < 0 ? n : slash;
            if (end == start || names.size() == MAX_SEGMENTS) {
                return BAD; // an empty segment: "a//b", or a path beginning with "/"
            }
            String name = decode(raw, start, end);
            if (name == null || name.equals(".") || name.equals("..")) {
                return BAD;
            }
            if (name.charAt(0) == '.' && !hiddenServed) {
                return HIDDEN;
            }
            names.add(name);
            if (slash < 0) {
                return new RequestPath(names, false, null);
            }
            start = slash + 1;
        }
        return new RequestPath(names, true, null);
    }

    /** The segment {@code raw[from, to)} decoded, or null when it is not a plain name. */
    static String decode(String raw, int from, int to) {
        boolean encoded = false;
        for (int i = from; i < to; i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                encoded = true;
            } else if (c < 0x20 || c == 0x7F || c == '\\' || c > 0x7E) {
                return null; // the transport admits no such byte raw; refused here too, whoever calls
            }
        }
        if (!encoded) {
            return raw.substring(from, to);
        }
        ByteBuffer bytes = ByteBuffer.allocate(to - from);
        for (int i = from; i < to; i++) {
            char c = raw.charAt(i);
            if (c != '%') {
                bytes.put((byte) c);
                continue;
            }
            int high = i + 2 < to ? Character.digit(raw.charAt(i + 1), 16) : -1;
            int low = high < 0 ? -1 : Character.digit(raw.charAt(i + 2), 16);
            if (low < 0) {
                return null;
            }
            int b = high << 4 | low;
            if (b < 0x20 || b == 0x7F || b == '/' || b == '\\') {
                return null;
            }
            bytes.put((byte) b);
            i += 2;
        }
        bytes.flip();
        CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            CharBuffer text = utf8.decode(bytes);
            return text.length() == 0 ? null : text.toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
