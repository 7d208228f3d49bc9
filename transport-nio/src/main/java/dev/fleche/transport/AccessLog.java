package dev.fleche.transport;

import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;

/**
 * The access log of an {@link HttpServer} ({@link ServerOptions.Builder#accessLog}): one line per request, written
 * by the transport, so that requests it refuses before any handler runs (parser and limit refusals, header and body
 * timeouts answered {@code 408}, the acceptor's {@code 503} at {@code maxConnections}) are logged too, with the rule
 * that refused them. Off unless set. Immutable; built by {@link #builder()}, validated by {@link Builder#build()}.
 *
 * <table>
 *   <caption>Settings, defaults and meaning</caption>
 *   <tr><th>setting</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@code format}</td><td>{@link Format#JSON}</td><td>the shape of a line</td></tr>
 *   <tr><td>{@code file}</td><td>{@code null}</td><td>the file written (created, appended to); when null, lines go
 *       to the {@code System.Logger} named {@code logger} at {@code INFO}</td></tr>
 *   <tr><td>{@code logger}</td><td>{@code dev.fleche.access}</td><td>the {@code System.Logger} used when no file is
 *       set</td></tr>
 *   <tr><td>{@code maxFileBytes}</td><td>100 MiB</td><td>a file reaching this size is rotated: {@code name}
 *       becomes {@code name.1}, {@code name.1} becomes {@code name.2}, and so on</td></tr>
 *   <tr><td>{@code keptFiles}</td><td>5</td><td>rotated files kept ({@code name.1} .. {@code name.N}); the
 *       oldest beyond them is deleted; 0 keeps none (the file is truncated when full)</td></tr>
 *   <tr><td>{@code queueCapacity}</td><td>8192</td><td>lines waiting for the writer thread; when the queue is full
 *       a line is dropped and counted ({@link ServerMetrics#accessLogDropped()}): reactors never wait for the
 *       log</td></tr>
 *   <tr><td>{@code clock}</td><td>{@link Clock#systemUTC()}</td><td>the wall clock of the times in the log (inject a
 *       fixed one in tests; durations come from {@link ServerOptions#nanoClock()})</td></tr>
 * </table>
 *
 * <p>The remote address logged is the peer of the connection: the transport cannot know whether forwarded headers
 * ({@code Forwarded}, {@code X-Forwarded-For}) are to be trusted. A layer above that does know (the Jersey bridge
 * with trusted forwarded headers) sets the client address, request id and trace id of a line with
 * {@link HttpExchange#accessLogFields}; when it does not, the transport takes a well-formed {@code X-Request-Id}
 * and the trace id of a well-formed {@code traceparent} from the request itself.
 *
 * @param format        the shape of a line
 * @param file          the file written, or null for the {@code System.Logger} {@code logger}
 * @param logger        the {@code System.Logger} name used when {@code file} is null
 * @param maxFileBytes  the size at which the file rotates
 * @param keptFiles     rotated files kept
 * @param queueCapacity lines waiting for the writer before lines are dropped
 * @param clock         the wall clock of the logged times
 */
public record AccessLog(Format format, Path file, String logger, long maxFileBytes, int keptFiles,
                        int queueCapacity, Clock clock) {

    /**
     * The shape of a line. Every value from the request is sanitised: control characters, {@code "}, {@code \} and
     * bytes beyond ASCII are escaped (as {@code \xHH} in the text formats, as JSON escapes in JSON), so that no CR,
     * LF or terminal escape from a client reaches the log; the target is cut after 2,048 characters, the user agent
     * after 512, the referer after 1,024, each marked with {@code [...]}.
     */
    public enum Format {
        /**
         * Common Log Format: {@code host - - [10/Oct/2026:13:55:36 +0000] "GET /a HTTP/1.1" 200 2326} (UTC; {@code -}
         * for a value not known, e.g. the request line of a request refused before its line was read). A refused
         * request gets one more field, {@code rule=NAME}; a response cut short by the client leaving gets
         * {@code cut}.
         */
        COMMON,
        /** {@link #COMMON} and then {@code "referer" "user-agent"}, then the same extra fields. */
        COMBINED,
        /**
         * One JSON object per line, fields in this order, absent when not known: {@code time} (ISO-8601 UTC with
         * milliseconds, when the head began to arrive), {@code remote}, {@code method}, {@code target},
         * {@code protocol}, {@code status} ({@code 0} when no response was sent), {@code bytesIn} (request body
         * bytes as received), {@code bytesOut} (response bytes written), {@code durationMicros} (head begun to last
         * response byte written), {@code connection}, {@code requestId}, {@code traceId}, {@code tls} (protocol),
         * {@code userAgent}, {@code referer}, {@code rule} (the refusal), {@code cut} ({@code true} when the
         * connection closed before the response was written whole).
         */
        JSON
    }

    /** Checks every setting; use {@link #builder()} rather than this constructor. */
    public AccessLog {
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(clock, "clock");
        if (file == null && (logger == null || logger.isBlank())) {
            throw new IllegalArgumentException("an access log needs a file or a logger name");
        }
        if (maxFileBytes < 1024) {
            throw new IllegalArgumentException("maxFileBytes must be >= 1024, was " + maxFileBytes);
        }
        if (keptFiles < 0 || keptFiles > 1000) {
            throw new IllegalArgumentException("keptFiles must be within 0..1000, was " + keptFiles);
        }
        if (queueCapacity < 1) {
            throw new IllegalArgumentException("queueCapacity must be >= 1, was " + queueCapacity);
        }
    }

    /** A builder holding every default of the table above. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds {@link AccessLog}; every setter returns {@code this}. */
    public static final class Builder {
        private Format format = Format.JSON;
        private Path file;
        private String logger = "dev.fleche.access";
        private long maxFileBytes = 100L * 1024 * 1024;
        private int keptFiles = 5;
        private int queueCapacity = 8192;
        private Clock clock = Clock.systemUTC();

        private Builder() {
        }

        public Builder format(Format value) { format = value; return this; }
        /** Writes to {@code value} (rotated by size); null writes to the {@code System.Logger}. */
        public Builder file(Path value) { file = value; return this; }
        /** Writes to the {@code System.Logger} {@code name} at {@code INFO} (and to no file). */
        public Builder logger(String name) { logger = name; file = null; return this; }
        public Builder maxFileBytes(long value) { maxFileBytes = value; return this; }
        public Builder keptFiles(int value) { keptFiles = value; return this; }
        public Builder queueCapacity(int value) { queueCapacity = value; return this; }
        public Builder clock(Clock value) { clock = value; return this; }

        /** Validates and returns the settings; throws {@link IllegalArgumentException} naming a bad one. */
        public AccessLog build() {
            return new AccessLog(format, file, logger, maxFileBytes, keptFiles, queueCapacity, clock);
        }
    }
}
