package dev.fleche.transport.internal.http1;

import dev.fleche.transport.internal.loop.ByteSink;
import dev.fleche.transport.HttpFields;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Transport hot paths on the response side, in the transport's own (package-private) package so that it can
 * reach them; it lives in the perf module, not in transport-nio. Encodes a response head with
 * {@link ResponseEncoder#encodeHead} (hello: one handler field; a JSON response with four), and frames a chunk
 * ({@code size CRLF data CRLF}) the way {@code Outbound.streamData} does, into a reused {@link ByteSink}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgs = {"-Xms512m", "-Xmx512m"})
public class TransportEncoding {
    private static final byte[] CHUNK = new byte[1000];

    private final ResponseEncoder encoder = new ResponseEncoder();
    private final ByteSink sink = new ByteSink(4096);
    private final HttpFields hello = new HttpFields(1).add("Content-Type", "text/plain");
    private final HttpFields json = new HttpFields(4)
            .add("Content-Type", "application/json")
            .add("Cache-Control", "no-store")
            .add("Vary", "Accept-Encoding")
            .add("X-Request-Id", "6f1c2d3e-4b5a-6978-8a9b-0c1d2e3f4a5b");

    static {
        java.util.Arrays.fill(CHUNK, (byte) 'x');
    }

    @Benchmark
    public int encodeHelloHead() {
        sink.clear();
        encoder.encodeHead(sink, 200, hello, 13, false, false, false, false);
        return sink.size();
    }

    @Benchmark
    public int encodeJsonHead() {
        sink.clear();
        encoder.encodeHead(sink, 200, json, 27, false, false, false, false);
        return sink.size();
    }

    @Benchmark
    public int encodeChunk() {
        sink.clear();
        sink.putHex(CHUNK.length);
        sink.put(ResponseEncoder.CRLF);
        sink.put(CHUNK);
        sink.put(ResponseEncoder.CRLF);
        return sink.size();
    }

    /** The whole streamed body end: last chunk and empty trailer section. */
    @Benchmark
    public int encodeLastChunk() {
        sink.clear();
        sink.putAscii("0\r\n\r\n");
        return sink.size();
    }

}
