package dev.fleche.perf.loadgen;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleche.perf.loadgen.LoadSpec.Mode;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * The load generator's command line. Run {@code LoadGen --help} for the options; see perf/README.md.
 *
 * <pre>
 * java -cp perf/target/fleche-perf.jar dev.fleche.perf.loadgen.LoadGen -c 100 -d 10 http://127.0.0.1:8080/hello
 * </pre>
 *
 * Exit status: 0 when every response was as expected, 2 when there were errors, 1 for a usage error.
 */
public final class LoadGen {
    private LoadGen() {
    }

    private static final String USAGE = """
            usage: LoadGen [options] http://HOST:PORT/PATH   (or https://: TLS, any certificate trusted, SNI localhost)

              --mode M            closed (default), open, long-poll, sse, idle
              -c, --connections N connections (default 100; thousands spread over 127.0.0.x source addresses)
              -d, --duration S    recorded seconds (default 10)
              -w, --warmup S      seconds of the same load before recording (default 0)
              -t, --threads N     selector threads (default 2)
              --depth D           requests in flight per connection: HTTP/1.1 pipelining (default 1)
              -R, --rate R        open loop: requests per second over all connections
              -m, --method M      request method (default GET; POST when a body is given)
              --body TEXT         request body;  --body-file FILE  request body from a file
              --content-type T    its media type (default application/json when a body is given)
              --expect-status N   the status every response must have (default 200)
              --expect-body TEXT  the body every response must have (default: not checked)
              --timeout S         a response slower than this is an error (default 10)
              --per-address N     connections per loopback source address (default 5000)
              --cycles N          long-poll: broadcasts (default 1); polls wait on PATH, the broadcast is
                                  POST /broadcast, and GET /waiting says how many wait
              --interval S        sse: seconds between broadcasts (default 1); every connection subscribes to
                                  PATH; once GET PATH/subscribers counts them all, POST PATH/broadcast once per
                                  interval, for -w then -d seconds; every event must carry the next number and
                                  its send time (<n> <µs since the epoch>); the lateness of the -d ones is measured
              --hold S            idle: seconds to hold the connections (default: until a line on stdin)
              --no-resume         https: never resume a TLS session (every handshake full; default: resume)
              --connection-per-request  closed loop: a new connection (and handshake) for every request
              --hlog FILE         write an HdrHistogram interval log (latency in ns)
              --json              also print the figures as one JSON line starting with RESULT
            """;

    public static void main(String[] args) throws Exception {
        LoadSpec spec;
        boolean json = false;
        boolean noResume = false;
        try {
            LoadSpec.Builder b = LoadSpec.builder();
            String url = null;
            String contentType = null;
            boolean methodGiven = false;
            boolean hasBody = false;
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                switch (a) {
                    case "-h", "--help" -> {
                        System.out.print(USAGE);
                        return;
                    }
                    case "--mode" -> b.mode(mode(args[++i]));
                    case "-c", "--connections" -> b.connections(Integer.parseInt(args[++i]));
                    case "-d", "--duration" -> b.duration(seconds(args[++i]));
                    case "-w", "--warmup" -> b.warmup(seconds(args[++i]));
                    case "-t", "--threads" -> b.threads(Integer.parseInt(args[++i]));
                    case "--depth" -> b.depth(Integer.parseInt(args[++i]));
                    case "-R", "--rate" -> b.rate(Double.parseDouble(args[++i]));
                    case "-m", "--method" -> {
                        b.method(args[++i]);
                        methodGiven = true;
                    }
                    case "--body" -> {
                        b.body(args[++i]);
                        hasBody = true;
                    }
                    case "--body-file" -> {
                        b.body(Files.readAllBytes(Path.of(args[++i])));
                        hasBody = true;
                    }
                    case "--content-type" -> contentType = args[++i];
                    case "--expect-status" -> b.expectStatus(Integer.parseInt(args[++i]));
                    case "--expect-body" -> b.expectBody(args[++i]);
                    case "--timeout" -> b.timeout(seconds(args[++i]));
                    case "--per-address" -> b.perAddress(Integer.parseInt(args[++i]));
                    case "--cycles" -> b.cycles(Integer.parseInt(args[++i]));
                    case "--interval" -> b.interval(seconds(args[++i]));
                    case "--hold" -> b.hold(seconds(args[++i]));
                    case "--hlog" -> b.hlog(Path.of(args[++i]));
                    case "--json" -> json = true;
                    case "--no-resume" -> noResume = true;
                    case "--connection-per-request" -> b.connectionPerRequest(true);
                    default -> {
                        if (a.startsWith("-") || url != null) {
                            throw new IllegalArgumentException("unknown argument: " + a);
                        }
                        url = a;
                    }
                }
            }
            if (url == null) {
                throw new IllegalArgumentException("no URL");
            }
            URI uri = URI.create(url);
            boolean https = "https".equals(uri.getScheme());
            if (!https && !"http".equals(uri.getScheme()) || uri.getHost() == null) {
                throw new IllegalArgumentException("want http(s)://HOST:PORT/PATH, got " + url);
            }
            b.tls(!https ? LoadSpec.Tls.NONE : noResume ? LoadSpec.Tls.FULL : LoadSpec.Tls.RESUME);
            String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
            b.host(uri.getHost()).port(uri.getPort() < 0 ? (https ? 443 : 80) : uri.getPort())
                    .path(uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery());
            if (hasBody) {
                b.contentType(contentType != null ? contentType : "application/json");
                if (!methodGiven) {
                    b.method("POST");
                }
            }
            spec = b.build();
        } catch (RuntimeException | IOException e) {
            System.err.println("LoadGen: " + e.getMessage());
            System.err.print(USAGE);
            System.exit(1);
            return;
        }
        LoadReport report = Engine.run(spec, cliHooks(spec));
        System.out.print(report.format());
        if (spec.hlog() != null) {
            System.out.println("  hlog: " + spec.hlog());
        }
        if (json) {
            System.out.println("RESULT " + new ObjectMapper().writeValueAsString(report.toMap()));
        }
        System.exit(report.errors() == 0 ? 0 : 2);
    }

    /** Progress once a second on stderr; IDLE without --hold waits for a line on stdin. */
    private static Engine.Hooks cliHooks(LoadSpec spec) {
        return new Engine.Hooks() {
            @Override
            public void ready(int cycle, int connections) {
                if (spec.mode() == Mode.IDLE) {
                    System.out.println("OPEN " + connections);
                    System.out.flush();
                    if (spec.hold().isZero()) {
                        try {
                            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
                        } catch (IOException e) {
                            // stdin closed: stop holding
                        }
                    }
                } else {
                    System.err.printf(Locale.ROOT, "cycle %d: %d clients waiting, broadcasting%n", cycle, connections);
                }
            }

            @Override
            public void tick(int second, long responses) {
                System.err.printf(Locale.ROOT, "%4d s  %,d responses%n", second, responses);
            }
        };
    }

    private static Mode mode(String s) {
        return switch (s) {
            case "closed" -> Mode.CLOSED;
            case "open" -> Mode.OPEN;
            case "long-poll", "longpoll" -> Mode.LONG_POLL;
            case "sse" -> Mode.SSE;
            case "idle" -> Mode.IDLE;
            default -> throw new IllegalArgumentException("unknown mode: " + s);
        };
    }

    private static Duration seconds(String s) {
        return Duration.ofMillis(Math.round(Double.parseDouble(s) * 1000));
    }
}
