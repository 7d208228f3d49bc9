/**
 * The access log's writer: a bounded queue that reactors hand finished entries to, one daemon thread that formats
 * ({@code COMMON}, {@code COMBINED}, {@code JSON}) and writes them to a file rotated by size or a
 * {@code System.Logger}.
 *
 * <p>Owns: {@code AccessLogWriter}, {@code LogEntry}, {@code LineFormat}, {@code LogText}, {@code LogSink},
 * {@code LoggerSink}, {@code RotatingFile}.
 *
 * <p>May import: the request syntax ({@code RequestHead}), the public API.
 */
package dev.fleche.transport.internal.telemetry.accesslog;
