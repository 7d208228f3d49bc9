package dev.fleche.transport.internal.http2.hpack;

import java.util.HashMap;
import java.util.Map;

/**
 * The 61 entries of RFC 7541 Appendix A, indexed from 1. The strings are constants, so a decoder hands the same
 * {@code String} for every field whose name (or name and value) it takes from here.
 */
final class StaticTable {
    /** Entries in the static table; dynamic entries are numbered from {@code LENGTH + 1}. */
    static final int LENGTH = 61;

    private static final String[] NAMES = new String[LENGTH + 1];
    private static final String[] VALUES = new String[LENGTH + 1];
    /** A name's lowest index, for a literal with an indexed name. */
    private static final Map<String, Integer> FIRST_INDEX = new HashMap<>();

    static {
        String[] table = {
            ":authority", "",
            ":method", "GET",
            ":method", "POST",
            ":path", "/",
            ":path", "/index.html",
            ":scheme", "http",
            ":scheme", "https",
            ":status", "200",
            ":status", "204",
            ":status", "206",
            ":status", "304",
            ":status", "400",
            ":status", "404",
            ":status", "500",
            "accept-charset", "",
            "accept-encoding", "gzip, deflate",
            "accept-language", "",
            "accept-ranges", "",
            "accept", "",
            "access-control-allow-origin", "",
            "age", "",
            "allow", "",
            "authorization", "",
            "cache-control", "",
            "content-disposition", "",
            "content-encoding", "",
            "content-language", "",
            "content-length", "",
            "content-location", "",
            "content-range", "",
            "content-type", "",
            "cookie", "",
            "date", "",
            "etag", "",
            "expect", "",
            "expires", "",
            "from", "",
            "host", "",
            "if-match", "",
            "if-modified-since", "",
            "if-none-match", "",
            "if-range", "",
            "if-unmodified-since", "",
            "last-modified", "",
            "link", "",
            "location", "",
            "max-forwards", "",
            "proxy-authenticate", "",
            "proxy-authorization", "",
            "range", "",
            "referer", "",
            "refresh", "",
            "retry-after", "",
            "server", "",
            "set-cookie", "",
            "strict-transport-security", "",
            "transfer-encoding", "",
            "user-agent", "",
            "vary", "",
            "via", "",
            "www-authenticate", "",
        };
        for (int i = 1; i <= LENGTH; i++) {
            NAMES[i] = table[2 * (i - 1)];
            VALUES[i] = table[2 * (i - 1) + 1];
            FIRST_INDEX.putIfAbsent(NAMES[i], i);
        }
    }

    private StaticTable() {
    }

    static String name(int index) {
        return NAMES[index];
    }

    static String value(int index) {
        return VALUES[index];
    }

    /** The lowest index whose name is {@code name}, or 0. */
    static int nameIndex(String name) {
        Integer index = FIRST_INDEX.get(name);
        return index == null ? 0 : index;
    }

    /** The index of the entry {@code name: value}, or 0; {@code nameIndex} is {@link #nameIndex(String)}'s answer. */
    static int fieldIndex(int nameIndex, String name, String value) {
        if (nameIndex == 0) {
            return 0;
        }
        for (int i = nameIndex; i <= LENGTH && NAMES[i].equals(name); i++) {
            if (VALUES[i].equals(value)) {
                return i;
            }
        }
        return 0;
    }
}
