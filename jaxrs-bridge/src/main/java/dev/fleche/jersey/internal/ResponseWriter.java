package dev.fleche.jersey.internal;

import dev.fleche.jersey.ClientConnection;
import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.HttpFields;
import jakarta.ws.rs.container.ContainerResponseContext;
import org.glassfish.jersey.internal.PropertiesDelegate;
import org.glassfish.jersey.message.internal.CommittingOutputStream;
import org.glassfish.jersey.server.ChunkedOutput;
import org.glassfish.jersey.server.ContainerException;
import org.glassfish.jersey.server.ContainerResponse;
import org.glassfish.jersey.server.spi.ContainerResponseWriter;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

/**
 * Writes one Jersey response to one {@link HttpExchange}.
 *
 * <p>Output: a known length up to {@value #BUFFERED_LIMIT} bytes ({@link LengthBuffer} holds entities up to Jersey's
 * buffer size and passes their exact length) is collected and sent with one {@link HttpExchange#respond} at {@link #commit()}; an
 * entity written through a stream a filter or interceptor installed is held here instead, up to the same size
 * ({@link HeldBody}), to learn its length below that stream; any other response is streamed with {@link HttpExchange#startResponse} ({@code -1}: chunked), where {@code flush()} hands
 * bytes to the reactor at once and a slow client blocks the writing thread (the transport's backpressure). A
 * {@code @NonBlocking} response is always collected, up to its limit, so that the reactor never blocks.
 *
 * <p>Completion: {@link #commit()}, {@link #failure}, a container-side failure or a direct answer each claim the
 * exchange once (an atomic flag) and cancel the suspend timer and the request's {@link ClientConnection} timers;
 * whoever comes later does nothing. {@code failure} answers {@code 500} when nothing reached the transport yet,
 * else aborts the connection, then rethrows as the SPI requires.
 *
 * <p>One response per exchange, even when Jersey races with itself: its {@code AsyncResponse.resume} checks and
 * sets its state in two steps, so a resume and a timeout (or two resumes) may both produce a response. The first
 * thread to call {@link #writeResponseStatusAndHeaders} owns the output; the others get a stream that discards,
 * and their {@code commit()} is ignored until the owner's body is complete (closed), so that a loser never sends
 * the owner's half-written response.
 *
 * <p>Suspended responses: their timeout, drain registration and disconnect relay are a {@link Suspension}, made on
 * the first suspend and closed when the response completes. Disconnects: once suspended, the writer listens for
 * the transport's disconnect signal. When the client
 * leaves, a worker completes the exchange (timers cancelled), closes a plain {@link ChunkedOutput} entity (its
 * {@code isClosed()} turns true and the next {@code write} fails with an {@code IOException}), and resumes a
 * still-suspended {@code AsyncResponse} with {@link ClientGone#response()}, which makes Jersey run its
 * {@code ConnectionCallback}s — no write needed. An SSE sink is left to close itself on its next {@code send}, as on
 * Jersey's other containers: that send's stage completes exceptionally, whereas a send on a sink the container had
 * closed would throw {@code IllegalStateException} (the Jakarta REST contract of a closed sink) at the application.
 */
public final class ResponseWriter implements ContainerResponseWriter, ExchangeProperties.Connections {
    static final int BUFFERED_LIMIT = 64 * 1024;
    private static final System.Logger LOG = System.getLogger(ResponseWriter.class.getName());
    private static final AtomicIntegerFieldUpdater<ResponseWriter> DONE =
            AtomicIntegerFieldUpdater.newUpdater(ResponseWriter.class, "done");
    private static final AtomicReferenceFieldUpdater<ResponseWriter, Suspension> SUSPENSION =
            AtomicReferenceFieldUpdater.newUpdater(ResponseWriter.class, Suspension.class, "suspension");
    private static final AtomicReferenceFieldUpdater<ResponseWriter, Thread> CLAIM =
            AtomicReferenceFieldUpdater.newUpdater(ResponseWriter.class, Thread.class, "owner");
    private static final AtomicReferenceFieldUpdater<ResponseWriter, ExchangeConnection> CONNECTION =
            AtomicReferenceFieldUpdater.newUpdater(ResponseWriter.class, ExchangeConnection.class, "connection");

    private final HttpExchange exchange;
    private final Settings settings;
    private final Workers workers;
    private final boolean nonBlocking;
    private final Deployment deployment;
    /** Where the writer registers while suspended, so that a drain can end it. */
    private final SuspendedWriters suspendedWriters;
    /** Its timeout, drain registration and disconnect relay, made on the first suspend: most responses never do. */
    private volatile Suspension suspension;
    /** Created when the request asks for it (request property {@code dev.fleche.connection}). */
    private volatile ExchangeConnection connection;
    private volatile int done;
    /** The thread whose {@link #writeResponseStatusAndHeaders} call was accepted. */
    private volatile Thread owner;
    private volatile OutputStream output;
    /** The output will get no bytes (no entity, or HEAD): it is complete as soon as it exists. */
    private volatile boolean emptyBody;
    /** The response's request properties, where {@link LengthBuffer} marks a broken entity. */
    private volatile PropertiesDelegate properties;
    /** The entity when it is a {@link ChunkedOutput} (SSE sinks are): closed when the client leaves. */
    private volatile ChunkedOutput<?> chunked;
    /**
     * The thread running {@code ApplicationHandler.handle} for this request, from {@link #handleStarted()} until
     * {@link #afterHandle}; null otherwise. A commit on it is handed to the transport only then: see {@link #commit()}.
     */
    private volatile Thread handling;
    /** A commit made while {@link #handling}: its response goes out in {@link #afterHandle}. */
    private boolean deferred; // the handling thread only
    /**
     * The response as the application's response filters left it, when an {@link EntityStreamProbe} saw it. Like
     * {@link #jerseyBuffers}, written and read by the thread running Jersey's response processing (filters, then
     * writing), one at a time.
     */
    private ContainerResponseContext filtered;
    /** Jersey buffers this response's entity below a stream a filter installed ({@link #enableResponseBuffering}). */
    private boolean jerseyBuffers;

    /** The writer of {@code exchange}'s response; {@code nonBlocking} when it runs on the reactor. */
    public ResponseWriter(HttpExchange exchange, Deployment deployment, Workers workers,
                          SuspendedWriters suspendedWriters, boolean nonBlocking) {
        this.exchange = exchange;
        this.suspendedWriters = suspendedWriters;
        this.settings = deployment.settings();
        this.workers = workers;
        this.nonBlocking = nonBlocking;
        this.deployment = deployment;
    }

    @Override
    public OutputStream writeResponseStatusAndHeaders(long contentLength, ContainerResponse response) {
        if (done != 0 || !CLAIM.compareAndSet(this, null, Thread.currentThread())) {
            // Jersey's default mapper after failure(), or the losing side of a resume race
            return OutputStream.nullOutputStream();
        }
        int status = response.getStatus();
        String reason = response.getStatusInfo().getReasonPhrase(); // the application's, when it set one
        HttpFields fields = fields(response, deployment.headerText());
        if (deployment.requestIds() != null) {
            TraceFilter.echo(fields, response.getRequestContext());
        }
        boolean head = "HEAD".equals(exchange.method());
        properties = response.getRequestContext().getPropertiesDelegate();
        byte[] held = LengthBuffer.take(properties); // an entity held whole: its length is known now
        if (held != null) {
            contentLength = held.length;
        }
        // written through a stream a filter or an interceptor installed: the length is learnt here, below it
        LengthBuffer.Relayed relayed = held == null && contentLength < 0 && !head && !nonBlocking && !jerseyBuffers
                && !response.isChunked() ? LengthBuffer.relayed(properties) : null;
        OutputStream out;
        if (head && contentLength >= 0) {
            fields.set("Content-Length", Long.toString(contentLength)); // kept by the transport for HEAD
            out = new BufferedBody(status, reason, fields, 0, 0, false);
            held = null;
        } else if (held != null && !nonBlocking && held.length <= BUFFERED_LIMIT) {
            out = BufferedBody.of(status, reason, fields, held); // the usual case: no copy
            held = null;
        } else if (nonBlocking && !head) {
            int limit = settings.nonBlockingLimit();
            out = new BufferedBody(status, reason, fields, contentLength >= 0 ? (int) Math.min(contentLength, limit) : 512,
                    limit, true);
        } else if (relayed != null) {
            out = new HeldBody(exchange, status, reason, fields, relayed, BUFFERED_LIMIT);
        } else if (contentLength >= 0 && contentLength <= BUFFERED_LIMIT) {
            out = new BufferedBody(status, reason, fields, (int) contentLength, (int) contentLength, false);
        } else {
            out = stream(status, reason, fields, head ? -1 : contentLength);
        }
        if (held != null) {
            try {
                out.write(held);
            } catch (IOException e) {
                // over a @NonBlocking limit (answered 500 at commit), or the client left (the next write says so)
            }
        }
        emptyBody = head || contentLength == 0;
        output = out;
        if (response.isChunked()) {
            chunked = (ChunkedOutput<?>) response.getEntity();
            sendHead(out); // an SSE client waits for the head; Jersey sends nothing before the first chunk
        }
        return out;
    }

    private OutputStream stream(int status, String reason, HttpFields fields, long contentLength) {
        try {
            PropertiesDelegate request = properties;
            LengthBuffer.Relayed through = LengthBuffer.relayed(request); // this entity's, when it went through one
            return new StreamedBody(exchange, exchange.startResponse(status, reason, fields, contentLength),
                    () -> request.getProperty(LengthBuffer.BROKEN) != null || through != null && through.broken());
        } catch (IllegalStateException alreadyAnswered) {
            finish(); // the transport answered (413, 408...): the rest of Jersey's output goes nowhere
            return OutputStream.nullOutputStream();
        }
    }

    private static void sendHead(OutputStream out) {
        try {
            out.flush();
        } catch (IOException clientGone) {
            // the next write fails the same way, and tells Jersey
        }
    }

    /** The response headers as text: what {@code getStringHeaders()} gives, without building its views. */
    private static HttpFields fields(ContainerResponse response, HeaderText headerText) {
        Map<String, List<Object>> headers = response.getHeaders();
        HttpFields fields = new HttpFields(headers.size() + 2);
        for (Map.Entry<String, List<Object>> header : headers.entrySet()) {
            String name = header.getKey();
            for (Object value : header.getValue()) {
                if (value instanceof String) {
                    fields.add(name, (String) value);
                } else if (value != null) {
                    String text = headerText.of(value);
                    if (text != null) {
                        fields.add(name, text);
                    }
                }
            }
        }
        return fields;
    }

    @Override
    public boolean suspend(long timeOut, TimeUnit timeUnit, TimeoutHandler timeoutHandler) {
        Suspension current = suspension;
        if (current == null) {
            Suspension created = new Suspension(exchange, workers, suspendedWriters, new Door());
            current = SUSPENSION.compareAndSet(this, null, created) ? created : suspension;
        }
        return current.suspend(timeOut, timeUnit, timeoutHandler);
    }

    @Override
    public void setSuspendTimeout(long timeOut, TimeUnit timeUnit) throws IllegalStateException {
        Suspension current = suspension;
        if (current == null || done != 0) {
            throw new IllegalStateException(current == null ? "the response is not suspended"
                    : "the response is complete");
        }
        current.reset(timeOut, timeUnit);
    }

    /**
     * Completes the response. Called by Jersey on the thread that wrote it; when that is the thread still inside
     * {@code handle()} for this request (every synchronous response, worker or reactor, and a resume made before
     * the resource method returned), the response is handed to the transport after {@code handle()} returns.
     */
    @Override
    public void commit() {
        Thread writing = owner;
        if (writing != null && writing != Thread.currentThread() && !outputComplete()) {
            return; // a racing resume's commit: the owner commits its own response
        }
        if (!finish()) {
            return;
        }
        if (Thread.currentThread() == handling) {
            // Jersey commits inside handle(), before it releases the request scope (request-scoped dispose,
            // @PreDestroy) and runs what follows commit: the client gets the response once that is done, as on
            // Grizzly, so that it never sees success before, say, a transaction committed in a dispose.
            deferred = true;
            return;
        }
        handOff();
    }

    /** Hands the committed response to the transport: the collected body whole, or the end of a streamed one. */
    private void handOff() {
        OutputStream out = output;
        try {
            if (out instanceof BufferedBody) {
                ((BufferedBody) out).respond(exchange);
            } else if (out instanceof HeldBody held && !held.isStreamed()) {
                if (held.isBroken()) {
                    answerFailure(); // the entity failed before anything was sent: a whole 500, not half an entity
                } else {
                    held.respond();
                }
            } else if (out != null) {
                out.close();
            } else {
                Responses.text(exchange, 500, new HttpFields(1), "no response was written");
            }
        } catch (IllegalStateException alreadyAnswered) {
            // the transport answered first
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "response not completed; connection aborted", e);
            exchange.abort();
        }
    }

    @Override
    public void failure(Throwable error) {
        try {
            fail();
        } finally {
            rethrow(error);
        }
    }

    /**
     * No where the container's {@link LengthBuffer} is registered (every application it builds, unless the
     * application turned Jersey's buffer off): Jersey's buffer (a fresh 8 KiB array per response, copied again here)
     * is replaced by it. Yes, as on Jersey's other containers, when a response filter replaced Jersey's entity stream
     * ({@link EntityStreamProbe}): the entity is then buffered below that stream, so that one failing within the
     * buffer is still mapped to a whole response; and where there is no {@code LengthBuffer}. Jersey buffers the
     * entity of a {@code HEAD} request itself.
     */
    @Override
    public boolean enableResponseBuffering() {
        if (!deployment.lengthBuffered()) {
            return true;
        }
        ContainerResponseContext response = filtered;
        if (response != null && !(response.getEntityStream() instanceof CommittingOutputStream)) {
            jerseyBuffers = true;
        }
        return jerseyBuffers;
    }

    /** The response after the application's response filters ({@link EntityStreamProbe}). */
    void filtered(ContainerResponseContext response) {
        filtered = response;
    }

    /** The calling thread is about to run {@code ApplicationHandler.handle} for this request. */
    public void handleStarted() {
        handling = Thread.currentThread();
    }

    /**
     * After {@code ApplicationHandler.handle} returned or threw: hands over a response committed inside it, and
     * completes a response Jersey left open.
     */
    public void afterHandle(Throwable escaped) {
        handling = null;
        if (deferred) {
            deferred = false;
            handOff();
        }
        if (escaped != null) {
            // after failure() the error was Jersey's to log (it did); otherwise it is news
            LOG.log(done != 0 ? System.Logger.Level.DEBUG : System.Logger.Level.WARNING,
                    "request processing failed: " + exchange.method() + " " + exchange.target(), escaped);
        }
        Suspension current = suspension;
        if (done == 0 && (current == null || !current.isSuspended())) {
            fail();
        }
    }

    /** Answers {@code status} at once, unless the response is already complete. */
    public void answer(int status, HttpFields fields, String message) {
        if (finish()) {
            Responses.text(exchange, status, fields, message);
        }
    }

    /** The request's connection handle, created on first use; its timers end with the response. */
    @Override
    public ClientConnection connection() {
        ExchangeConnection current = connection;
        if (current == null) {
            ExchangeConnection created = new ExchangeConnection(exchange, workers);
            current = CONNECTION.compareAndSet(this, null, created) ? created : connection;
            if (done != 0) {
                current.end(); // completed meanwhile: arm nothing
            }
        }
        return current;
    }

    private boolean outputComplete() {
        OutputStream out = output;
        if (out == null) {
            return false;
        }
        if (emptyBody) {
            return true;
        }
        if (out instanceof BufferedBody) {
            return ((BufferedBody) out).isClosed();
        }
        if (out instanceof HeldBody) {
            return ((HeldBody) out).isClosed();
        }
        return !(out instanceof StreamedBody) || ((StreamedBody) out).isClosed();
    }

    /** Claims completion and cancels the timers; false when someone else completed first. */
    private boolean finish() {
        if (!DONE.compareAndSet(this, 0, 1)) {
            return false;
        }
        Suspension current = suspension;
        if (current != null) { // only a writer that suspended has a timer, or is registered
            current.close();
        }
        ExchangeConnection handle = connection;
        if (handle != null) {
            handle.end();
        }
        return true;
    }

    /** 500 when nothing reached the transport yet, else abort the connection. */
    private void fail() {
        if (finish()) {
            answerFailure();
        }
    }

    /** The failure's answer, the exchange already claimed: see {@link #fail()}. */
    private void answerFailure() {
        OutputStream out = output;
        if (out instanceof BufferedBody && ((BufferedBody) out).overflowed()) {
            ((BufferedBody) out).respond(exchange); // its 500 names the limit
        } else if (exchange.isResponseStarted()) {
            exchange.abort();
        } else if (settings.setStatusOverSendError()) {
            try {
                exchange.respond(500, new HttpFields(0), new byte[0]);
            } catch (IllegalStateException alreadyAnswered) {
                // raced with the transport
            }
        } else {
            Responses.text(exchange, 500, new HttpFields(1), "Request failed.");
        }
    }

    private static void rethrow(Throwable error) {
        if (error instanceof RuntimeException) {
            throw (RuntimeException) error;
        }
        if (error instanceof Error) {
            throw (Error) error;
        }
        throw new ContainerException(error);
    }

    /** The writer as its {@link Suspension} sees it. */
    private final class Door implements Suspension.Owner {
        @Override
        public boolean complete() {
            return finish();
        }

        @Override
        public boolean isComplete() {
            return done != 0;
        }

        @Override
        public ChunkedOutput<?> chunkedEntity() {
            return chunked;
        }

        @Override
        public void timedOut() {
            HttpFields fields = new HttpFields(1).add("Retry-After", Integer.toString(settings.retryAfterSeconds()));
            answer(503, fields, "request timed out");
        }

        @Override
        public void onTimeout(TimeoutHandler handler) {
            Throwable escaped = null;
            try {
                handler.onTimeout(ResponseWriter.this);
            } catch (Throwable t) {
                escaped = t;
            }
            if (escaped != null) {
                afterHandle(escaped);
            }
        }
    }

    @Override
    public String toString() {
        return "ResponseWriter[" + exchange + (nonBlocking ? ", non-blocking" : "") + "]";
    }
}
