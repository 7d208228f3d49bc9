package dev.fleche.jersey;

/**
 * Names of the configuration properties the Fleche container reads from the application's configuration
 * ({@code ResourceConfig.property(name, value)}), and of the request properties it sets. Values may be given as
 * their type or as a string.
 *
 * <table>
 *   <caption>Container properties</caption>
 *   <tr><th>property</th><th>type</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@value #TRUST_FORWARDED_HEADERS}</td><td>Boolean</td><td>false</td><td>build the base and request URIs
 *       from {@code Forwarded} (RFC 7239: {@code proto}, {@code host}) or {@code X-Forwarded-Proto}/
 *       {@code -Host}/{@code -Port}. Turn on only behind a proxy that sets or strips them.</td></tr>
 *   <tr><td>{@value #MAX_CONCURRENT_REQUESTS}</td><td>Integer</td><td>10,000</td><td>requests handled at once when
 *       each gets its own thread (virtual threads): beyond it {@code 503}</td></tr>
 *   <tr><td>{@value #WORKER_THREADS}</td><td>Integer</td><td>max(16, 4 &times; cores)</td><td>threads of the bounded
 *       pool used without virtual threads</td></tr>
 *   <tr><td>{@value #WORKER_QUEUE}</td><td>Integer</td><td>10,000</td><td>requests waiting for a pool thread; beyond it
 *       {@code 503}; 0 for none</td></tr>
 *   <tr><td>{@value #EXECUTOR}</td><td>{@link java.util.concurrent.Executor}</td><td>none</td><td>runs requests
 *       instead of the container's own threads; it signals saturation with
 *       {@link java.util.concurrent.RejectedExecutionException} ({@code 503}); the container never shuts it
 *       down</td></tr>
 *   <tr><td>{@value #RETRY_AFTER_SECONDS}</td><td>Integer</td><td>1</td><td>the {@code Retry-After} of a {@code 503}
 *       sent on saturation</td></tr>
 *   <tr><td>{@value #NON_BLOCKING_MAX_RESPONSE_BYTES}</td><td>Integer</td><td>1 MiB</td><td>the largest response of
 *       a {@link NonBlocking @NonBlocking} method</td></tr>
 *   <tr><td>{@value #MAX_BUFFERED_ENTITY_BYTES}</td><td>Long</td><td>10 MiB</td><td>the largest request entity
 *       that Jersey reads into memory whole — a {@code String}, {@code byte[]}, JSON or XML object, {@code Form}:
 *       beyond it {@code 413} as {@code application/problem+json} with the validation module, the connection
 *       closed; at once, before any {@code 100 Continue}, when {@code Content-Length} says so, and on the size line
 *       of a chunk that alone goes beyond it. Entities the application streams ({@code InputStream},
 *       {@code Reader}, {@code File}, {@code EntityPart}, multipart) are not held to it. {@code -1}: no limit.
 *       Overrides {@code ServerOptions.maxBufferedBodyBytes}</td></tr>
 *   <tr><td>{@value #MAX_REQUEST_BODY_BYTES}</td><td>Long</td><td>{@code -1}: none</td><td>the largest request
 *       body of any request, streamed entities included: beyond it {@code 413}, at once when
 *       {@code Content-Length} says so. By default a body the application streams (a multi-GiB upload) has no
 *       limit; what Fleche itself buffers is bounded by the transport's own settings. Overrides
 *       {@code ServerOptions.maxBodyBytes}</td></tr>
 *   <tr><td>{@value #FAST_START}</td><td>Boolean</td><td>false</td><td>the closed-world preset: Jersey's
 *       auto-discovery and {@code META-INF/services} lookup, WADL and the start-up validation of the resource model
 *       off (each only where the application does not set that Jersey property itself), for a faster start. The
 *       application must then register what it uses: features that auto-discovery would add, entity providers
 *       that jars list as services. Read from the {@code Application} instance's properties.</td></tr>
 *   <tr><td>{@value #STATIC_CONTENT}</td><td>{@link dev.fleche.transport.StaticContent}, or a collection of
 *       them</td><td>none</td><td>static files (a directory, a class-path prefix) served at their path prefixes
 *       beside the application, by the transport before Jersey: a static request costs no Jersey work, and every
 *       path no prefix claims stays the application's. Read from the application's properties and from a
 *       {@code SeBootstrap} configuration; added to those of {@code ServerOptions.staticContent}</td></tr>
 *   <tr><td>{@value #SERVER_OPTIONS}</td><td>{@link dev.fleche.transport.ServerOptions}</td><td>defaults</td><td>the
 *       transport settings where no other way to pass them exists (test container, {@code SeBootstrap}); the
 *       address still comes from the URI or bootstrap configuration</td></tr>
 * </table>
 *
 * <table>
 *   <caption>{@code SeBootstrap} configuration properties (the edges of a deployment; module README, "Operating
 *   it")</caption>
 *   <tr><th>property</th><th>type</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@value #UNIX_SOCKET}</td><td>String or {@link java.nio.file.Path}</td><td>none: TCP</td><td>listen on a
 *       Unix domain socket at this path instead of the host and port (file mode {@code rw-rw----}, deleted at
 *       stop); also in a server URI as {@code http+unix://%2Fpath%2Fto%2Fsocket/root/}</td></tr>
 *   <tr><td>{@value #TLS_CERTIFICATE_FILE}, {@value #TLS_PRIVATE_KEY_FILE}</td><td>String or Path</td><td>none</td>
 *       <td>with protocol {@code HTTPS}: serve the PEM certificate chain and private key of these files
 *       ({@link dev.fleche.transport.PemFiles}) instead of an {@code SSLContext}, and rotate them when they change,
 *       without a restart</td></tr>
 *   <tr><td>{@value #TLS_TRUST_FILE}</td><td>String or Path</td><td>none</td><td>PEM CA certificates that verify
 *       client certificates (with {@code SSL_CLIENT_AUTHENTICATION} {@code OPTIONAL} or {@code MANDATORY})</td></tr>
 *   <tr><td>{@value #TLS_RELOAD_SECONDS}</td><td>Integer</td><td>10</td><td>how often the PEM files are read again;
 *       0: never</td></tr>
 *   <tr><td>{@value #PROXY_PROTOCOL}</td><td>String (comma-separated CIDR ranges) or
 *       {@link dev.fleche.transport.ProxyProtocol}</td><td>none: off</td><td>every connection begins with a PROXY
 *       protocol header (v1 or v2) from one of these trusted proxies; the client address it carries is the
 *       request's {@value #REMOTE_ADDRESS}</td></tr>
 * </table>
 *
 * <p>Jersey's own {@code jersey.config.threads.use.virtual} ({@code false} forces the bounded pool) and
 * {@code jersey.config.threads.factory} (a {@link java.util.concurrent.ThreadFactory} making the worker threads)
 * are honoured as described in the module README.
 *
 * <p>Request properties ({@code ContainerRequestContext.getProperty(name)}, in resources and filters):
 * {@value #REMOTE_ADDRESS} and {@value #LOCAL_ADDRESS}, both {@link java.net.InetSocketAddress}, and
 * {@value #CONNECTION}, the request's {@link ClientConnection} (disconnect callbacks, reactor timers tied to the
 * request), and over HTTPS with a verified client certificate {@value #CLIENT_CERTIFICATES}, the client's chain as
 * a {@code java.security.cert.X509Certificate[]} (its own certificate first) under the name the Servlet
 * specification uses, so that code written for servlet containers finds it. The certificate's subject is also the
 * request's {@code SecurityContext.getUserPrincipal()} (scheme {@code CLIENT_CERT}). On a PROXY protocol listener,
 * {@value #PROXY} is what the header said ({@link dev.fleche.transport.ProxyInfo}: version, TLVs), and the two
 * addresses are the ones it carried; on a Unix domain socket without one, both addresses are {@code null}.
 *
 * <p>With {@link FlecheRequestIds} registered, also: {@value #REQUEST_ID} (String, always set),
 * {@value #TRACE_ID}, {@value #PARENT_ID}, {@value #TRACE_FLAGS} and {@value #TRACE_STATE} (Strings, set only
 * when the request carries a valid W3C {@code traceparent}); the whole as a {@link RequestTrace} under
 * {@value #TRACE} ({@link RequestTrace#of}).
 */
public final class FlecheProperties {
    /** Whether {@code Forwarded} / {@code X-Forwarded-*} decide the scheme and host of the request URIs. */
    public static final String TRUST_FORWARDED_HEADERS = "fleche.jersey.trustForwardedHeaders";
    /** Concurrency limit when each request gets its own (virtual) thread. */
    public static final String MAX_CONCURRENT_REQUESTS = "fleche.jersey.maxConcurrentRequests";
    /** Size of the bounded worker pool used when virtual threads are not used. */
    public static final String WORKER_THREADS = "fleche.jersey.workerThreads";
    /** Capacity of the bounded worker pool's queue. */
    public static final String WORKER_QUEUE = "fleche.jersey.workerQueue";
    /** A user-supplied {@link java.util.concurrent.Executor} for requests. */
    public static final String EXECUTOR = "fleche.jersey.executor";
    /** {@code Retry-After} seconds of the {@code 503} answered on saturation. */
    public static final String RETRY_AFTER_SECONDS = "fleche.jersey.retryAfterSeconds";
    /** The in-memory limit of a {@link NonBlocking} method's response. */
    public static final String NON_BLOCKING_MAX_RESPONSE_BYTES = "fleche.jersey.nonBlocking.maxResponseBytes";
    /** The request body limit in bytes, for every request ({@code -1}, none, by default). */
    public static final String MAX_REQUEST_BODY_BYTES = "fleche.jersey.maxRequestBodyBytes";
    /** The limit in bytes of a request entity Jersey reads into memory whole (10 MiB by default; {@code -1}: none). */
    public static final String MAX_BUFFERED_ENTITY_BYTES = "fleche.jersey.maxBufferedEntityBytes";
    /** The closed-world start-up preset (see the table; {@code internal.FastStart} lists what it sets). */
    public static final String FAST_START = "fleche.jersey.fastStart";
    /** Static files served beside the application: a {@code StaticContent} or a collection of them. */
    public static final String STATIC_CONTENT = "fleche.jersey.staticContent";
    /** Transport settings for the test container and {@code SeBootstrap}. */
    public static final String SERVER_OPTIONS = "fleche.jersey.serverOptions";
    /** {@code SeBootstrap}: listen on a Unix domain socket at this path instead of TCP. */
    public static final String UNIX_SOCKET = "fleche.jersey.unixSocket";
    /** {@code SeBootstrap} with {@code HTTPS}: the PEM certificate chain file (reloaded when it changes). */
    public static final String TLS_CERTIFICATE_FILE = "fleche.jersey.tls.certificateFile";
    /** {@code SeBootstrap} with {@code HTTPS}: the PEM private key file (PKCS#8, PKCS#1 RSA or SEC1 EC). */
    public static final String TLS_PRIVATE_KEY_FILE = "fleche.jersey.tls.privateKeyFile";
    /** {@code SeBootstrap} with {@code HTTPS}: the PEM CA certificates that verify client certificates. */
    public static final String TLS_TRUST_FILE = "fleche.jersey.tls.trustFile";
    /** {@code SeBootstrap}: seconds between reads of the PEM files (10 by default; 0: never). */
    public static final String TLS_RELOAD_SECONDS = "fleche.jersey.tls.reloadSeconds";
    /** {@code SeBootstrap}: the PROXY protocol's trusted sources (comma-separated CIDR ranges), or a ProxyProtocol. */
    public static final String PROXY_PROTOCOL = "fleche.jersey.proxyProtocol";

    /** Request property: the client's {@link java.net.InetSocketAddress}. */
    public static final String REMOTE_ADDRESS = "dev.fleche.remoteAddress";
    /** Request property: the local {@link java.net.InetSocketAddress} the connection was accepted on. */
    public static final String LOCAL_ADDRESS = "dev.fleche.localAddress";
    /** Request property: the request's {@link ClientConnection}. */
    public static final String CONNECTION = "dev.fleche.connection";
    /**
     * Request property: the verified client certificate chain ({@code java.security.cert.X509Certificate[]}, the
     * client's own first) of an HTTPS request with client authentication; absent otherwise. The Servlet name.
     */
    public static final String CLIENT_CERTIFICATES = "jakarta.servlet.request.X509Certificate";
    /**
     * Request property: what the connection's PROXY protocol header said ({@link dev.fleche.transport.ProxyInfo});
     * absent on a listener without the PROXY protocol.
     */
    public static final String PROXY = "dev.fleche.proxy";

    /**
     * Request property: the request id (the valid incoming {@code X-Request-Id}, else a generated one). The
     * validation module reads the same name to put {@code requestId} into {@code problem+json} bodies.
     */
    public static final String REQUEST_ID = "dev.fleche.requestId";
    /** Request property: the 32 lowercase hex digits of the W3C trace id of a valid {@code traceparent}. */
    public static final String TRACE_ID = "dev.fleche.traceId";
    /** Request property: the 16 lowercase hex digits of the caller's span ({@code parent-id} of {@code traceparent}). */
    public static final String PARENT_ID = "dev.fleche.parentId";
    /** Request property: the 2 lowercase hex digits of the {@code trace-flags} of {@code traceparent}. */
    public static final String TRACE_FLAGS = "dev.fleche.traceFlags";
    /** Request property: the {@code tracestate} list, when valid and accompanying a valid {@code traceparent}. */
    public static final String TRACE_STATE = "dev.fleche.traceState";
    /** Request property: the {@link RequestTrace} of the request. */
    public static final String TRACE = "dev.fleche.trace";

    private FlecheProperties() {
    }
}
