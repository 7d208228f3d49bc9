package dev.fleche.jersey.internal;

import jakarta.ws.rs.core.Configuration;
import jakarta.ws.rs.core.MediaType;
import org.glassfish.jersey.message.internal.HeaderUtils;

/**
 * Response header values as text, converted as Jersey's {@code getStringHeaders()} does (through the application's
 * header delegates), but without its per-response views, and with the text of recent media types remembered: nearly
 * every response carries a {@code Content-Type} from a handful of values, and converting one costs more than the
 * rest of the header section.
 *
 * <p>The memory is a direct-mapped table of {@value #SLOTS} immutable entries keyed by configuration and media type
 * (racy by design: a lost update costs a conversion), so it never grows.
 */
final class HeaderText {
    private static final int SLOTS = 16;
    private static final Entry[] MEDIA_TYPES = new Entry[SLOTS];

    private record Entry(Configuration configuration, MediaType type, String text) {
    }

    private HeaderText() {
    }

    /** The text of a header value that is not a {@code String}; null for null. */
    static String of(Object value, Configuration configuration) {
        if (!(value instanceof MediaType)) {
            return HeaderUtils.asString(value, configuration);
        }
        MediaType type = (MediaType) value;
        int slot = (System.identityHashCode(configuration) * 31 + type.getType().hashCode() * 7
                + type.getSubtype().hashCode()) & (SLOTS - 1);
        Entry cached = MEDIA_TYPES[slot];
        if (cached != null && cached.configuration == configuration
                && (cached.type == type || cached.type.equals(type))) {
            return cached.text;
        }
        String text = HeaderUtils.asString(type, configuration);
        MEDIA_TYPES[slot] = new Entry(configuration, type, text);
        return text;
    }
}
