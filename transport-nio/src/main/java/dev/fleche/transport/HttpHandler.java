package dev.fleche.transport;

/**
 * Handles one request exchange.
 *
 * <p><b>Called on a reactor thread.</b> A handler must not block: it either answers at once
 * ({@link HttpExchange#respond}) or hands the exchange to another thread (an executor, a virtual thread) and
 * returns. Everything on {@link HttpExchange} may be used from any thread; reading a request body that has not
 * fully arrived and writing past the outbound buffer are the only operations that block, and they refuse to do
 * so on a reactor thread (they throw instead).
 *
 * <p>Once {@code handle} returns the exchange stays open until its response is complete; the next pipelined
 * request on the same connection is not dispatched before that. An exception thrown by {@code handle} answers
 * {@code 500} when no response was started, and aborts the connection otherwise.
 */
@FunctionalInterface
public interface HttpHandler {

    /** Handles {@code exchange}; see the class description for the threading contract. */
    void handle(HttpExchange exchange) throws Exception;
}
