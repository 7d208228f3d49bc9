/**
 * Fleche's HTTP/1.1 and HTTP/2 server on Java NIO, JDK only (TLS included): {@code HttpServer},
 * {@code HttpHandler}, {@code HttpExchange}, {@code ServerOptions} and the types they name. Everything else
 * ({@code http1}, {@code internal} and its {@code http2}, {@code hpack}, {@code accesslog} and {@code pem}) is the transport's own
 * and is not exported; nothing is opened, since the transport reflects on nothing and nothing reflects on it.
 */
module dev.fleche.transport {
    exports dev.fleche.transport;
}
