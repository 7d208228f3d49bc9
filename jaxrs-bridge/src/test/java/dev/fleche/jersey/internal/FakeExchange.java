package dev.fleche.jersey.internal;

import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.Timeout;
import dev.fleche.transport.TlsInfo;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** An {@link HttpExchange} that records what the container does with it; timers fire only when told to. */
final class FakeExchange implements HttpExchange {
    /** A scheduled task and whether it was cancelled. */
    static final class FakeTimeout implements Timeout {
        final Runnable task;
        final long nanos;
        boolean cancelled;
        boolean fired;

        FakeTimeout(Runnable task, long nanos) {
            this.task = task;
            this.nanos = nanos;
        }

        @Override
        public boolean cancel() {
            boolean was = !cancelled;
            cancelled = true;
            return was;
        }

        void fire() {
            if (!cancelled) {
                fired = true;
                task.run();
            }
        }
    }

    String method = "GET";
    String path = "/x";
    String query;
    String host = "example.com";
    final HttpFields headers = new HttpFields();
    final List<FakeTimeout> timers = new ArrayList<>();
    int responds;
    int status;
    HttpFields responseFields;
    byte[] body;
    long streamedLength = -2;
    final ByteArrayOutputStream streamed = new ByteArrayOutputStream();
    boolean streamClosed;
    boolean aborted;

    @Override public String method() { return method; }
    @Override public String target() { return query == null ? path : path + "?" + query; }
    @Override public String path() { return path; }
    @Override public String query() { return query; }
    @Override public String version() { return "HTTP/1.1"; }
    @Override public HttpFields headers() { return headers; }
    @Override public String host() { return host; }
    @Override public boolean hasBody() { return false; }
    @Override public long contentLength() { return -1; }
    @Override public boolean isBodyReceived() { return true; }
    @Override public long expectBufferedBody() { return Long.MAX_VALUE; }
    @Override public InputStream requestBody() { return InputStream.nullInputStream(); }
    @Override public HttpFields trailers() { return new HttpFields(); }
    @Override public InetSocketAddress remoteAddress() { return new InetSocketAddress("127.0.0.2", 5555); }
    @Override public InetSocketAddress localAddress() { return new InetSocketAddress("127.0.0.1", 8080); }
    /** The TLS the fake connection settled, or null for plain HTTP. */
    TlsInfo tls;

    @Override public boolean isSecure() { return tls != null; }
    @Override public TlsInfo tls() { return tls; }
    @Override public long connectionId() { return 1; }

    @Override
    public void respond(int status, String reason, HttpFields headers, byte[] body) {
        if (isResponseStarted()) {
            throw new IllegalStateException("response already started");
        }
        responds++;
        this.status = status;
        this.responseFields = headers;
        this.body = body;
    }

    @Override
    public OutputStream startResponse(int status, String reason, HttpFields headers, long contentLength) {
        if (isResponseStarted()) {
            throw new IllegalStateException("response already started");
        }
        this.status = status;
        this.responseFields = headers;
        this.streamedLength = contentLength;
        return new OutputStream() {
            @Override
            public void write(int b) {
                streamed.write(b);
            }

            @Override
            public void close() {
                streamClosed = true;
            }
        };
    }

    @Override
    public boolean isResponseStarted() {
        return responds > 0 || streamedLength != -2;
    }

    @Override public void abort() { aborted = true; }
    @Override public boolean isOpen() { return !aborted; }
    @Override public void onDisconnect(Runnable callback) { }

    /** Timers scheduled and neither fired nor cancelled. */
    int armedTimers() {
        return (int) timers.stream().filter(t -> !t.cancelled && !t.fired).count();
    }

    @Override
    public Timeout schedule(Runnable task, long delay, TimeUnit unit) {
        FakeTimeout timeout = new FakeTimeout(task, unit.toNanos(delay));
        timers.add(timeout);
        return timeout;
    }

    @Override public void execute(Runnable task) { task.run(); }
    @Override public boolean inReactor() { return false; }

    String bodyText() {
        return new String(body, java.nio.charset.StandardCharsets.UTF_8);
    }
}
