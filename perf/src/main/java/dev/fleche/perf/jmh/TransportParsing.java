package dev.fleche.perf.jmh;

import dev.fleche.transport.HttpFields;
import dev.fleche.transport.http1.RequestException;
import dev.fleche.transport.http1.RequestHead;
import dev.fleche.transport.http1.RequestHeadParser;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Transport hot paths on the request side: parsing a request head with {@link RequestHeadParser} (wrk's
 * two-field request, and a browser-like one with 10 fields) and looking a field up with {@link HttpFields#get}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgs = {"-Xms512m", "-Xmx512m"})
public class TransportParsing {
    private static final byte[] WRK = ("GET /hello HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    private static final byte[] BROWSER = ("""
            GET /api/items/42?expand=owner&lang=en HTTP/1.1\r
            Host: app.example.com\r
            User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0\r
            Accept: application/json, text/plain, */*\r
            Accept-Language: en-US,en;q=0.5\r
            Accept-Encoding: gzip, deflate, br\r
            Referer: https://app.example.com/items\r
            Cookie: session=0123456789abcdef0123456789abcdef; theme=dark\r
            Connection: keep-alive\r
            Cache-Control: no-cache\r
            X-Request-Id: 6f1c2d3e-4b5a-6978-8a9b-0c1d2e3f4a5b\r
            \r
            """).getBytes(StandardCharsets.US_ASCII);

    private final RequestHeadParser parser = new RequestHeadParser(8192, 16384, 100);
    private HttpFields fields;

    @Setup
    public void setup() throws RequestException {
        fields = parse(BROWSER).headers();
    }

    @Benchmark
    public RequestHead parseWrkRequest() throws RequestException {
        return parse(WRK);
    }

    @Benchmark
    public RequestHead parseBrowserRequest() throws RequestException {
        return parse(BROWSER);
    }

    /** A field near the end, asked in another case than received (as {@code HttpHeaders} lookups do). */
    @Benchmark
    public String headerLookupPresent() {
        return fields.get("cache-control");
    }

    @Benchmark
    public String headerLookupAbsent() {
        return fields.get("Content-Type");
    }

    private RequestHead parse(byte[] request) throws RequestException {
        parser.parse(request, 0, request.length);
        return parser.take();
    }
}
