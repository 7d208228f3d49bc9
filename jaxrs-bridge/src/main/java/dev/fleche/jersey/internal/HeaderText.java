package dev.fleche.jersey.internal;

import jakarta.ws.rs.core.Configuration;
import jakarta.ws.rs.core.MediaType;
import org.glassfish.jersey.message.internal.HeaderUtils;

/**
 * Response header values of one application as text, converted as Jersey's {@code getStringHeaders()} does
 * (through the application's header delegates), but without its per-response views, and with the text of recent
 * media types remembered: nearly every response carries a {@code Content-Type} from a handful of values, and
 * converting one costs more than the rest of the header section.
 *
 * <p>One per {@link Deployment}, so that it lives and dies with its application. The memory is a direct-mapped
 * table of {@value #SLOTS} immutable entries (racy by design: a lost update costs a conversion); it never grows.
 */
final class HeaderText {
    private static final int SLOTS = 16;

    private final Configuration configuration;
    private final Entry[] mediaTypes = new Entry[SLOTS];

    private record Entry(MediaType type, String text) {
    }

    /** For the application of {@code configuration} (the one its requests carry). */
    HeaderText(Configuration configuration) {
        this.configuration = configuration;
    }

    /** The text of a header value that is not a {@code String}; null for null. */
    String of(Object value) {
        if (!(value instanceof MediaType)) {
            return HeaderUtils.asString(value, configuration);
        }
        MediaType type = (MediaType) value;
        int slot = (type.getType().hashCode() * 31 + type.getSubtype().hashCode()) & (SLOTS - 1);
        Entry cached = mediaTypes[slot];
        if (cached != null && (cached.type == type || cached.type.equals(type))) {
            return cached.text;
        }
        String text = HeaderUtils.asString(type, configuration);
        mediaTypes[slot] = new Entry(type, text);
        return text;
    }
}
