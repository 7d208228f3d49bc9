package dev.fleche.jersey.internal;

import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.RequestBodyException;
import jakarta.annotation.Priority;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.EntityPart;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;

import java.io.File;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.file.Path;
import java.util.Collection;

/**
 * Which request entities get the buffered-entity limit. Jersey reads every entity through its reader interceptors;
 * this one runs last, next to the {@code MessageBodyReader}, where the target type is final. An entity read into
 * memory whole — a {@code String}, {@code byte[]}, a JSON or XML object, a {@code Form}, anything not listed
 * below — is <em>buffered</em>: the transport is told ({@link HttpExchange#expectBufferedBody()}), which answers
 * {@code 413} at once when the declared length is over the limit (before any {@code 100 Continue}), and as soon as
 * a chunk or the bytes received go beyond it. An entity the application <em>streams</em> keeps the body limit of
 * every request (none by default): {@link InputStream}, {@link Reader}, {@link File}, {@link Path},
 * {@code StreamSource}, {@link EntityPart} (and collections of them), Jersey's multipart types (their parts go to
 * temporary files past a threshold).
 *
 * <p>A body with a {@code Content-Encoding} that a reader interceptor decodes (Jersey's {@code GZipEncoder}) is
 * also held to the limit after decoding, so that a small compressed body cannot inflate without bound: past it,
 * {@code 413}.
 *
 * <p>When the transport refuses a body (bad framing, a limit, too slow) or the client leaves while it is read, the
 * reader sees a {@link RequestBodyException} however the provider wrapped it: this interceptor unwraps it, and
 * {@link Mapper} maps it quietly — the transport has answered already, and a client's mistake is not logged as the
 * server's failure.
 */
@Priority(Integer.MAX_VALUE)
public final class EntityLimit implements ReaderInterceptor {
    /** Causes followed when looking for a {@link RequestBodyException}. */
    private static final int MAX_CAUSES = 16;

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        Object exchange = context.getProperty(ExchangeProperties.EXCHANGE);
        if (!(exchange instanceof HttpExchange ex) || streamed(context.getType(), context.getGenericType())) {
            return proceed(context);
        }
        long limit = ex.expectBufferedBody();
        if (limit != Long.MAX_VALUE && context.getHeaders().containsKey(HttpHeaders.CONTENT_ENCODING)) {
            context.setInputStream(new Decoded(context.getInputStream(), limit));
        }
        return proceed(context);
    }

    private static Object proceed(ReaderInterceptorContext context) throws IOException {
        try {
            return context.proceed();
        } catch (RuntimeException | IOException e) {
            RequestBodyException refused = find(e);
            if (refused != null && refused != e) {
                throw refused;
            }
            throw e;
        }
    }

    /** The {@link RequestBodyException} in {@code error}'s causes, or null. */
    public static RequestBodyException find(Throwable error) {
        Throwable at = error;
        for (int i = 0; at != null && i < MAX_CAUSES; i++, at = at.getCause()) {
            if (at instanceof RequestBodyException refused) {
                return refused;
            }
        }
        return null;
    }

    /** Whether an entity of {@code type} is streamed by the application rather than held in memory whole. */
    static boolean streamed(Class<?> type, Type generic) {
        if (InputStream.class.isAssignableFrom(type) || Reader.class.isAssignableFrom(type)
                || File.class.isAssignableFrom(type) || Path.class.isAssignableFrom(type)
                || EntityPart.class.isAssignableFrom(type)
                || type.getName().equals("javax.xml.transform.stream.StreamSource")
                || type.getName().startsWith("org.glassfish.jersey.media.multipart.")) {
            return true;
        }
        if (Collection.class.isAssignableFrom(type) && generic instanceof ParameterizedType p) {
            Type[] arguments = p.getActualTypeArguments();
            return arguments.length == 1 && arguments[0] instanceof Class<?> element
                    && EntityPart.class.isAssignableFrom(element);
        }
        return false;
    }

    /** The decoded body, held to the buffered limit. */
    private static final class Decoded extends FilterInputStream {
        private final long limit;
        private long count;

        Decoded(InputStream in, long limit) {
            super(in);
            this.limit = limit;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                counted(1);
            }
            return b;
        }

        @Override
        public int read(byte[] bytes, int offset, int length) throws IOException {
            int n = super.read(bytes, offset, length);
            if (n > 0) {
                counted(n);
            }
            return n;
        }

        private void counted(int n) {
            count += n;
            if (count > limit) {
                throw new WebApplicationException("The decoded request body is larger than " + limit + " bytes.",
                        Response.Status.REQUEST_ENTITY_TOO_LARGE);
            }
        }
    }

    /**
     * Maps a {@link RequestBodyException} quietly (no log) to its status: the transport answered already (or the
     * client is gone), so the response goes nowhere.
     */
    public static final class Mapper implements ExceptionMapper<RequestBodyException> {
        @Override
        public Response toResponse(RequestBodyException exception) {
            return Response.status(exception.status()).build();
        }
    }
}
