package dev.fleche.transport;

/**
 * A snapshot of a server's counters ({@link HttpServer#metrics()}); totals since start.
 *
 * @param openConnections   connections open now
 * @param acceptedConnections connections accepted
 * @param refusedConnections connections refused because {@code maxConnections} was reached
 * @param closedConnections connections closed
 * @param requests          request heads dispatched to the handler
 * @param bytesRead         bytes read from sockets
 * @param bytesWritten      bytes written to sockets
 * @param protocolErrors    requests rejected by the parser or a limit (4xx/5xx from the transport)
 * @param timeouts          connections closed by a timeout (idle, header, body, write stall)
 * @param handlerErrors     exceptions thrown by the handler or exchanges aborted
 */
public record ServerMetrics(
        long openConnections,
        long acceptedConnections,
        long refusedConnections,
        long closedConnections,
        long requests,
        long bytesRead,
        long bytesWritten,
        long protocolErrors,
        long timeouts,
        long handlerErrors) {
}
