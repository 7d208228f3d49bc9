package dev.fleche.transport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * One request and its response.
 *
 * <p>The request side is a read-only view filled by the transport before {@link HttpHandler#handle} is called.
 * The response is sent either whole with {@link #respond} or as a stream with {@link #startResponse}; exactly one
 * of them may be called, once, from any thread. The transport owns the framing: it writes {@code Content-Length}
 * or {@code Transfer-Encoding: chunked}, {@code Date}, and {@code Connection} itself; such fields in the handler's
 * headers are ignored, except that a {@code Content-Length} given on a response to {@code HEAD} is kept.
 *
 * <p>Thread-safety: every method may be called from any thread. Methods that may block ({@link #requestBody()}
 * reads, writes to the response stream) throw {@link IllegalStateException} or {@link IOException} rather than
 * block a reactor thread.
 */
public interface HttpExchange {

    // ---- request ----

    /** The request method, e.g. {@code GET}. */
    String method();

    /** The raw request-target as received, e.g. {@code /a%20b?x=1}. */
    String target();

    /** The raw path of the target (not decoded): {@code /a%20b}; {@code *} for {@code OPTIONS *}. */
    String path();

    /** The raw query of the target without {@code ?}, or {@code null} when there is none. */
    String query();

    /** {@code "HTTP/1.1"} or {@code "HTTP/1.0"}. */
    String version();

    /** The request header fields, names as received. Do not modify. */
    HttpFields headers();

    /** The authority the client asked for: the absolute-form target's, else the {@code Host} header; may be null on HTTP/1.0. */
    String host();

    /** Whether the request has a body ({@code Content-Length > 0} or chunked). */
    boolean hasBody();

    /** The declared {@code Content-Length}, or {@code -1} when chunked or absent. */
    long contentLength();

    /** Whether the whole request body has already been received, so that reading it never blocks. */
    boolean isBodyReceived();

    /**
     * The request body as a stream (empty when there is none); the same instance on every call. Reading blocks
     * until bytes arrive (up to the body-read timeout); the first read of a request that carried
     * {@code Expect: 100-continue} sends {@code 100 Continue}. Reading on a reactor thread before
     * {@link #isBodyReceived()} throws {@link IllegalStateException}. Backpressure: while the handler does not
     * read, the transport stops reading the socket once its inbound window is full. A body the transport refuses
     * (bad framing, a limit, too slow) or one cut short by the client makes reads fail with a
     * {@link RequestBodyException}: the client's mistake, answered by the transport.
     */
    InputStream requestBody();

    /**
     * Says that the handler will hold this request's body in memory whole (parse it into an object or a tree, read
     * it into a {@code String} or a {@code byte[]}), so that the body gets the smaller limit for such bodies,
     * {@link ServerOptions#bufferedBodyLimit()}, instead of {@code maxBodyBytes}. Call it before reading the body;
     * later calls do nothing more.
     *
     * <p>When the declared {@code Content-Length} (or what has already arrived) exceeds that limit, the transport
     * answers {@code 413} at once — before any {@code 100 Continue} — and closes the connection once it is sent, and
     * this method throws. A chunked body is refused as soon as a chunk's size line or the bytes received go beyond
     * the limit; reads of {@link #requestBody()} then fail with a {@link RequestBodyException} of status
     * {@code 413}. Nothing beyond the limit is kept.
     *
     * @return the limit that now applies to the body, in bytes ({@link Long#MAX_VALUE}: none); a handler that
     *         inflates the body (a {@code Content-Encoding}) can hold the decoded bytes to it too
     * @throws RequestBodyException (status {@code 413}) when the body is already known to exceed the limit; the
     *                              transport has claimed the response and answers it
     */
    long expectBufferedBody() throws RequestBodyException;

    /** The trailer fields of a chunked request body, available once the body has been read to its end. */
    HttpFields trailers();

    /**
     * The client's address: the socket's peer, or on a PROXY protocol listener the source its header carried
     * ({@link #proxy()}). {@code null} on a Unix domain socket without such a header: its peer has no IP address.
     */
    InetSocketAddress remoteAddress();

    /**
     * The local address the connection was accepted on (on a PROXY protocol listener: the one the client connected to
     * on the proxy); {@code null} on a Unix domain socket without a PROXY header.
     */
    InetSocketAddress localAddress();

    /**
     * What the connection's PROXY protocol header said ({@link ServerOptions#proxyProtocol()}), or {@code null} on a
     * listener that takes none. {@link #remoteAddress()} and {@link #localAddress()} already are the addresses it
     * carried.
     */
    default ProxyInfo proxy() {
        return null;
    }

    /** Whether the connection is encrypted (TLS): the same as {@code tls() != null}. */
    boolean isSecure();

    /**
     * What the connection's TLS handshake settled — protocol, cipher suite, ALPN protocol, SNI host name and the
     * client's verified certificate chain (empty unless client authentication is on and the client sent one) — or
     * {@code null} on a plain connection.
     */
    TlsInfo tls();

    /** A number unique to the connection within this server, as used in its events. */
    long connectionId();

    /**
     * Values of this request for its access-log line, known to a layer above the transport: the client address
     * (for a layer that trusts forwarded headers; the transport logs the connection's peer otherwise), the request
     * id and the trace id. A null argument leaves that value to the transport, which takes a well-formed
     * {@code X-Request-Id} and the trace id of a well-formed {@code traceparent} from the request. Call it before
     * the response completes; without an access log it does nothing. The values are sanitised when written.
     */
    default void accessLogFields(String clientAddress, String requestId, String traceId) {
    }

    // ---- response ----

    /**
     * Sends a complete response with {@code body} (may be empty) and {@code Content-Length}, with the standard
     * reason phrase. Same as {@link #respond(int, String, HttpFields, byte[])} with a null reason.
     */
    default void respond(int status, HttpFields headers, byte[] body) {
        respond(status, null, headers, body);
    }

    /**
     * Sends a complete response with {@code body} (may be empty) and {@code Content-Length}. Never blocks: the
     * bytes are queued and written by the reactor. For {@code HEAD} requests the body is not sent.
     *
     * <p>Any three-digit {@code status} is sent as given (a client treats an unknown one by its class).
     * {@code reason} goes on the status line when it is a valid reason-phrase (tab, space, visible ASCII and bytes
     * 0x80-0xFF, RFC 9112 4); when it is null, empty or invalid the standard phrase is sent (an empty one for a
     * status without a standard phrase).
     *
     * @throws IllegalArgumentException when {@code status} is not within 100..999
     * @throws IllegalStateException when a response was already started
     */
    void respond(int status, String reason, HttpFields headers, byte[] body);

    /**
     * Starts a streamed response and returns its body stream. {@code contentLength >= 0} sends that length and
     * requires exactly that many bytes; {@code -1} sends the body chunked. {@code flush()} hands buffered bytes to
     * the reactor, which writes them at once; {@code close()} ends the response. When the client reads slowly,
     * writes block once the connection's outbound buffer is above its high watermark, up to the write-stall
     * timeout, then fail with {@link IOException}. Writes on a reactor thread never block: they fail instead.
     *
     * @throws IllegalStateException when a response was already started
     */
    default OutputStream startResponse(int status, HttpFields headers, long contentLength) {
        return startResponse(status, null, headers, contentLength);
    }

    /**
     * {@link #startResponse(int, HttpFields, long)} with a reason phrase, which goes on the status line as
     * {@link #respond(int, String, HttpFields, byte[])} describes.
     *
     * @throws IllegalArgumentException when {@code status} is not within 100..999, or {@code contentLength < -1}
     * @throws IllegalStateException when a response was already started
     */
    OutputStream startResponse(int status, String reason, HttpFields headers, long contentLength);

    /** Whether a response has been started (by {@link #respond}, {@link #startResponse}, or the transport itself). */
    boolean isResponseStarted();

    /**
     * Abandons the exchange: the connection is closed at once, without completing any response in progress.
     * Use it when a response cannot be finished (e.g. a failure after the head was sent).
     */
    void abort();

    // ---- connection and timers ----

    /** Whether the client is still connected (an EOF or reset seen by the reactor turns this false). */
    boolean isOpen();

    /**
     * Registers a callback run (on the reactor thread) when the client disconnects before this exchange's
     * response is complete. If the client is already gone it runs at once. Callbacks must not block.
     *
     * <p>Registering also decides what a client's FIN after the whole request means. Without a callback it is a
     * half-close: the client still gets this response (and any pipelined after it). With one — the exchange waits
     * for something (a long-poll, a suspended request) and wants to know if the client leaves — a FIN counts as the
     * client leaving, as on Jersey's other containers: the callbacks run, and nothing waits for a client that will
     * most likely never read the answer.
     */
    void onDisconnect(Runnable callback);

    /**
     * Runs {@code task} on this connection's reactor after {@code delay}. The returned handle cancels it. The task
     * must not block. Timer slots are released when they run or are cancelled; none are kept after that.
     */
    Timeout schedule(Runnable task, long delay, TimeUnit unit);

    /** Queues {@code task} to run on this connection's reactor thread (after the current work when called on it). */
    void execute(Runnable task);

    /** Whether the caller is this connection's reactor thread. */
    boolean inReactor();
}
