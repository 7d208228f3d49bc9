package dev.fleche.jersey.internal;

import dev.fleche.transport.HttpExchange;
import jakarta.annotation.Priority;
import jakarta.ws.rs.RuntimeType;
import jakarta.ws.rs.core.Configuration;
import jakarta.ws.rs.ext.WriterInterceptor;
import jakarta.ws.rs.ext.WriterInterceptorContext;
import org.glassfish.jersey.CommonProperties;
import org.glassfish.jersey.internal.PropertiesDelegate;
import org.glassfish.jersey.message.internal.CommittingOutputStream;
import org.glassfish.jersey.server.ChunkedOutput;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Objects;

/**
 * Learns the length of a small entity in place of Jersey's own buffer, for applications the Fleche container
 * serves (their {@link ResponseWriter} turns Jersey's buffer off).
 *
 * <p>Jersey buffers every entity up to {@code jersey.config.server.contentLength.buffer} bytes (8 KiB) to learn its
 * length, in an 8 KiB {@code ByteArrayOutputStream} made for every response whatever its size; the writer then
 * copied the bytes once more. This interceptor, the outermost of the entity's writer interceptors, does the same
 * work without that array, in one of two ways, decided per response by the stream Jersey hands it:
 * <ul>
 *   <li><b>Jersey's own entity stream</b> (its {@code CommittingOutputStream}, not committed: no response filter
 *       called {@code setEntityStream} and no interceptor before this one replaced it) — the fast path. The entity
 *       is collected in a buffer that grows with it, up to the same limit; one complete within the limit is taken
 *       whole by the writer ({@link #take}) when Jersey commits its stream — on closing it, whichever stream of
 *       the interceptor chain Jersey closes — and sent with its {@code Content-Length} in one hand-off to the
 *       transport, without another copy; a longer one is passed on once it outgrows the limit, and streamed
 *       ({@code chunked}). Nothing reaches Jersey's stream before then, so an entity provider that fails within
 *       the limit leaves the response uncommitted and Jersey maps the failure to a proper response rather than
 *       sending half an entity; {@code flush()} does nothing within the limit (Jersey has not decided the length
 *       yet either).</li>
 *   <li><b>A stream someone installed</b> (a filter's {@code ContainerResponseContext.setEntityStream} — Jersey's
 *       {@code LoggingFeature} with payload logging does it — or an earlier interceptor's
 *       {@code setOutputStream}): every byte goes through that stream as it is written, so whatever it does
 *       (transform, sign, count, log — Jersey's logging interceptor reads what went through as soon as the entity
 *       is written) it sees the entity as on Jersey's other containers. The length is learnt below it instead, as
 *       Jersey's buffer does there: by Jersey's own buffer when a response filter installed it and the container
 *       saw that ({@link EntityStreamProbe}: then an entity failing within the buffer is still mapped), else by the
 *       writer, which holds what reaches it up to the same limit ({@link HeldBody}; the request carries a
 *       {@link Relayed}).</li>
 * </ul>
 * An entity that fails after bytes went on is marked broken ({@value #BROKEN}, or {@link Relayed#broken()}) and not
 * closed: Jersey, which can only log that failure, would otherwise end the streamed response normally and the client
 * would take half an entity for a whole one; the writer aborts the connection instead (or answers {@code 500} when
 * nothing was sent yet).
 * A {@link ChunkedOutput} (SSE included) and the chunks written to it after the head are passed straight through,
 * and so is everything in an application another container serves (its request has no Fleche exchange), should
 * its configuration have been copied from one Fleche built.
 * Registered at priority {@value #PRIORITY}, so that it runs first and the stream it wraps is Jersey's own.
 */
@Priority(LengthBuffer.PRIORITY)
final class LengthBuffer implements WriterInterceptor {
    /**
     * The request property telling {@link ResponseWriter} that the entity failed after its head was sent: the
     * response must be cut (the connection aborted), not ended as if it were whole.
     */
    static final String BROKEN = "dev.fleche.jersey.internal.LengthBuffer.broken";
    /** Jersey's default buffer size ({@code CommittingOutputStream.DEFAULT_BUFFER_SIZE}). */
    static final int DEFAULT_LIMIT = 8192;
    /** Its priority among writer interceptors: the first to run (the lowest value runs first). */
    static final int PRIORITY = Integer.MIN_VALUE;
    private static final int FIRST_CAPACITY = 512;

    private final int limit;

    LengthBuffer(int limit) {
        this.limit = limit;
    }

    /** The buffer size {@code configuration} asks Jersey for (its property names and fallbacks); 0 or less: none. */
    static int limit(Configuration configuration) {
        Integer size = CommonProperties.getValue(configuration.getProperties(), RuntimeType.SERVER,
                CommonProperties.OUTBOUND_CONTENT_LENGTH_BUFFER, Integer.class);
        return size == null ? DEFAULT_LIMIT : size;
    }

    @Override
    public void aroundWriteTo(WriterInterceptorContext context) throws IOException {
        OutputStream jerseys = context.getOutputStream();
        if (context.getEntity() instanceof ChunkedOutput
                || jerseys instanceof CommittingOutputStream && ((CommittingOutputStream) jerseys).isCommitted()
                || !(context.getProperty(ExchangeProperties.EXCHANGE) instanceof HttpExchange)) {
            context.proceed();
            return;
        }
        if (!(jerseys instanceof CommittingOutputStream)) {
            relay(context);
            return;
        }
        Collector collector = new Collector(jerseys, limit);
        context.setProperty(ExchangeProperties.HELD, collector);
        context.setOutputStream(collector);
        try {
            context.proceed();
        } catch (IOException | RuntimeException | Error e) {
            collector.failed(context);
            throw e;
        }
    }

    /** Through a stream someone installed: every byte goes on at once; the writer learns the length below it. */
    private void relay(WriterInterceptorContext context) throws IOException {
        Relayed relayed = new Relayed(limit);
        context.setProperty(ExchangeProperties.HELD, relayed);
        try {
            context.proceed();
        } catch (IOException | RuntimeException | Error e) {
            relayed.markBroken(); // what went through is not the whole entity (unused when nothing reached the writer)
            throw e;
        }
    }

    /**
     * The entity of the response being committed, when it is held whole (its bytes, exactly as long as it is);
     * null when there is none, or it was passed on (streamed) or failed. What is written to the collector after
     * this goes straight to Jersey's stream.
     */
    static byte[] take(PropertiesDelegate request) {
        return request.getProperty(ExchangeProperties.HELD) instanceof Collector collector ? collector.take() : null;
    }

    /** The {@link Relayed} of the response being committed, or null when it was not written through another stream. */
    static Relayed relayed(PropertiesDelegate request) {
        return request.getProperty(ExchangeProperties.HELD) instanceof Relayed relayed ? relayed : null;
    }

    /**
     * An entity written through a stream that a filter or an earlier interceptor installed in place of Jersey's:
     * nothing is held here; the writer holds what reaches it, up to {@link #limit()} bytes, to learn the length.
     */
    static final class Relayed {
        private final int limit;
        private volatile boolean broken;

        Relayed(int limit) {
            this.limit = limit;
        }

        /** Jersey's buffer size: the most the writer holds to learn the length. */
        int limit() {
            return limit;
        }

        /** The entity's writer threw. */
        void markBroken() {
            broken = true;
        }

        /** Whether the entity's writer threw: what reached the writer is not the whole entity. */
        boolean broken() {
            return broken;
        }
    }

    /** The entity's first bytes, held until it ends or outgrows the limit. */
    private static final class Collector extends OutputStream {
        private final OutputStream jerseys;
        private final int limit;
        private byte[] bytes;
        private int count;
        /** Past the limit: the collected bytes went on and everything else goes straight through. */
        private boolean passing;
        private boolean closed;
        /** The entity's writer failed: nothing more goes on, and a streamed response is not ended. */
        private boolean broken;

        Collector(OutputStream jerseys, int limit) {
            this.jerseys = jerseys;
            this.limit = limit;
            this.bytes = new byte[Math.min(FIRST_CAPACITY, limit)];
        }

        @Override
        public void write(int b) throws IOException {
            if (passing || !fits(1)) {
                jerseys.write(b);
            } else {
                bytes[count++] = (byte) b;
            }
        }

        @Override
        public void write(byte[] source, int offset, int length) throws IOException {
            Objects.checkFromIndexSize(offset, length, source.length);
            if (passing || !fits(length)) {
                jerseys.write(source, offset, length);
            } else {
                System.arraycopy(source, offset, bytes, count, length);
                count += length;
            }
        }

        /** Whether {@code length} more bytes stay within the limit (room made); else the collected ones go on. */
        private boolean fits(int length) throws IOException {
            long needed = (long) count + length;
            if (needed <= bytes.length) {
                return true;
            }
            if (needed <= limit) {
                bytes = Arrays.copyOf(bytes, (int) Math.min(limit, Math.max(needed, 2L * bytes.length)));
                return true;
            }
            passing = true;
            byte[] collected = bytes;
            int n = count;
            bytes = null;
            count = 0;
            jerseys.write(collected, 0, n); // Jersey commits here: the response is streamed
            return false;
        }

        /** The bytes held, exactly; from now on writes go straight through. Null once passed on or failed. */
        byte[] take() {
            if (passing || broken) {
                return null;
            }
            passing = true;
            byte[] held = count == bytes.length ? bytes : Arrays.copyOf(bytes, count);
            bytes = null;
            return held;
        }

        /**
         * The entity's writer threw: nothing held goes on (Jersey, uncommitted, maps the failure), and a response
         * already streamed is marked {@value #BROKEN} for the writer to cut.
         */
        void failed(WriterInterceptorContext context) {
            broken = true;
            bytes = null;
            if (passing) {
                context.setProperty(BROKEN, Boolean.TRUE);
            }
        }

        @Override
        public void flush() throws IOException {
            if (passing && !broken) {
                jerseys.flush();
            }
        }

        @Override
        public void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            if (broken) {
                return; // uncommitted: Jersey maps the failure; streamed: the writer cuts the response
            }
            jerseys.close(); // Jersey commits: the writer takes what is held
        }
    }
}
