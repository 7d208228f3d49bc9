/**
 * Fleche's HTTP/1.1 server on Java NIO, JDK only: {@code HttpServer}, {@code HttpHandler}, {@code HttpExchange},
 * {@code ServerOptions} and the types they name. Everything else ({@code internal}, {@code http1}) is the
 * transport's own and is not exported; nothing is opened, since the transport reflects on nothing and nothing
 * reflects on it.
 */
module dev.fleche.transport {
    exports dev.fleche.transport;
}
