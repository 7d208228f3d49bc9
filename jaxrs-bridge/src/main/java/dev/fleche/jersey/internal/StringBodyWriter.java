package dev.fleche.jersey.internal;

import jakarta.annotation.Priority;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.MessageBodyWriter;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * Writes a {@code String} entity, in an application the Fleche container serves, as Jersey's own string provider
 * does (the same media types; the {@code charset} parameter, UTF-8 without one; unmappable characters as the
 * charset's replacement), without the per-response encoder that provider makes: Jersey wraps the entity stream in
 * a new {@code OutputStreamWriter} for every response, and on Java 17 its encoder allocates and zeroes an 8 KiB
 * buffer each time, a tenth of the CPU of a small text response. A string of up to {@value #WHOLE_LIMIT}
 * characters is encoded in one {@link String#getBytes(Charset)}; a longer one goes through a writer as before, so
 * that it is not held twice in memory.
 *
 * <p>It is registered as an application provider at the lowest priority ({@value #PRIORITY}): it takes the place
 * of Jersey's provider, which is not an application provider, and an application's own {@code String} writer
 * (default priority {@code 5000}) still comes before it.
 */
@Produces({MediaType.TEXT_PLAIN, MediaType.WILDCARD})
@Priority(StringBodyWriter.PRIORITY)
final class StringBodyWriter implements MessageBodyWriter<String> {
    /** Its priority among application providers: the last. */
    static final int PRIORITY = Integer.MAX_VALUE;
    /** The longest string encoded whole; a longer one is encoded through a writer's buffer. */
    static final int WHOLE_LIMIT = 16_384;

    @Override
    public boolean isWriteable(Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType) {
        return type == String.class;
    }

    @Override
    public void writeTo(String text, Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType,
                        MultivaluedMap<String, Object> httpHeaders, OutputStream entityStream) throws IOException {
        write(text, charset(mediaType), entityStream);
    }

    /** Writes {@code text} in {@code charset}: whole when short, else through a writer. */
    static void write(String text, Charset charset, OutputStream out) throws IOException {
        if (text.length() <= WHOLE_LIMIT) {
            out.write(text.getBytes(charset));
            return;
        }
        Writer writer = new OutputStreamWriter(out, charset);
        writer.write(text);
        writer.flush();
    }

    /** The media type's {@code charset} parameter, UTF-8 without one; an unknown name throws as Jersey's does. */
    static Charset charset(MediaType mediaType) {
        String name = mediaType == null ? null : mediaType.getParameters().get(MediaType.CHARSET_PARAMETER);
        return name == null ? StandardCharsets.UTF_8 : Charset.forName(name);
    }
}
