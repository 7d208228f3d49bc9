package dev.fleche.perf.edges;

import dev.fleche.transport.HttpFields;
import dev.fleche.transport.HttpServer;
import dev.fleche.transport.PemFiles;
import dev.fleche.transport.ProxyProtocol;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.TlsOptions;
import org.HdrHistogram.Histogram;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Issue 39's measurements ({@code perf/edges.sh}), on the raw transport's hello so that nothing else hides the cost:
 *
 * <ul>
 *   <li>{@code cost}: server CPU per request (utime + stime of the server process, {@code /proc/PID/stat}, over the
 *       measured window) and requests per second, for the listener kinds {@code tcp}, {@code tcp-proxy} (every
 *       connection opens with a PROXY v2 header), {@code unix} and {@code unix-proxy}, with keep-alive connections
 *       and with one connection per request (where the header and the accept cost most); rounds rotate the order;
 *       medians and the ratio to {@code tcp}. The claim to check: PROXY and the socket kind within 2 % of CPU per
 *       request.</li>
 *   <li>{@code reload}: latency of keep-alive HTTPS requests (HdrHistogram, p50 … max) for a run without rotations and
 *       one with the PEM files rotated (a {@code ..data} link swap) every few seconds while the server reloads them
 *       every second, after a warm-up; rounds alternate which run goes first. The claim to check: a reload does
 *       not stall the loop (p99 unchanged).</li>
 * </ul>
 *
 * <p>Servers run in child JVMs of this jar ({@code server} subcommand); the client is this process: blocking
 * channels, one thread per connection. Loopback only.
 */
public final class EdgesBench {
    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.US_ASCII);
    private static final List<String> KINDS = List.of("tcp", "tcp-proxy", "unix", "unix-proxy");
    private static final long CLOCK_TICKS = 100; // USER_HZ on Linux

    private EdgesBench() {
    }

    public static void main(String[] args) throws Exception {
        Options o = Options.parse(args);
        switch (o.command) {
            case "server" -> server(o);
            case "cost" -> cost(o);
            case "reload" -> reload(o);
            default -> throw new IllegalArgumentException("usage: EdgesBench server|cost|reload [options]");
        }
    }

    // ---------------------------------------------------------------- the server (a child JVM)

    private static void server(Options o) throws Exception {
        ServerOptions.Builder options = ServerOptions.builder().backlog(4096);
        if (o.kind.startsWith("unix")) {
            options.unixSocket(Path.of(o.socket));
        } else {
            options.address("127.0.0.1", 0);
        }
        if (o.kind.endsWith("proxy")) {
            options.proxyProtocol(ProxyProtocol.builder().trust("127.0.0.1").build());
        }
        PemFiles pem = null;
        if (o.kind.equals("tls-pem")) {
            pem = PemFiles.builder(Path.of(o.dir, "tls.crt"), Path.of(o.dir, "tls.key"))
                    .reloadInterval(Duration.ofMillis(o.reloadMillis)).build();
            options.address("127.0.0.1", 0).tls(TlsOptions.builder(pem).build());
        }
        HttpFields fields = new HttpFields().add("Content-Type", "text/plain");
        HttpServer server = HttpServer.create(options.build(), e -> e.respond(200, fields, HELLO)).start();
        PemFiles watched = pem;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.stop(Duration.ofSeconds(1));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (watched != null) {
                System.out.println("RELOADS " + watched.reloads() + " FAILURES " + watched.reloadFailures());
                System.out.flush();
            }
        }));
        System.out.println("READY " + (server.port() < 0 ? o.socket : String.valueOf(server.port())));
        System.out.flush();
        Thread.currentThread().join();
    }

    /** A server child: its process, where it listens, its output. */
    private record Child(Process process, SocketAddress address, BufferedReader out) {
        static Child start(Options o, String kind, String... more) throws IOException {
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-Xms512m", "-Xmx512m", "-cp", System.getProperty("java.class.path"),
                    EdgesBench.class.getName(), "server", "--kind", kind));
            command.addAll(List.of(more));
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8));
            String line;
            while ((line = out.readLine()) != null && !line.startsWith("READY ")) {
                System.err.println("  server: " + line);
            }
            if (line == null) {
                throw new IOException("the " + kind + " server ended before READY");
            }
            String where = line.substring(6).trim();
            SocketAddress address = kind.startsWith("unix") ? UnixDomainSocketAddress.of(where)
                    : new InetSocketAddress("127.0.0.1", Integer.parseInt(where));
            return new Child(process, address, out);
        }

        /** utime + stime of the server, in nanoseconds. */
        long cpuNanos() throws IOException {
            String stat = Files.readString(Path.of("/proc", String.valueOf(process.pid()), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            return ticks * (1_000_000_000L / CLOCK_TICKS);
        }

        /** SIGTERM, then what it printed on its way out. */
        List<String> stop() throws Exception {
            process.toHandle().destroy(); // SIGTERM; Process.destroy would close its output before it is read
            List<String> lines = new ArrayList<>();
            String line;
            while ((line = out.readLine()) != null) {
                lines.add(line);
            }
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            return lines;
        }
    }

    // ---------------------------------------------------------------- cost: CPU per request by listener kind

    private static void cost(Options o) throws Exception {
        Path dir = Files.createTempDirectory("fleche-edges");
        List<String> scenarios = List.of("keep-alive", "close");
        // results[kind][scenario] = per-round {cpu us per request, requests per second}
        List<List<List<double[]>>> results = new ArrayList<>();
        for (int k = 0; k < KINDS.size(); k++) {
            results.add(new ArrayList<>(List.of(new ArrayList<>(), new ArrayList<>())));
        }
        for (int round = 0; round < o.rounds; round++) {
            for (int i = 0; i < KINDS.size(); i++) {
                int k = (i + round) % KINDS.size(); // A B C D, B C D A, ...
                String kind = KINDS.get(k);
                Path socket = dir.resolve(kind + ".sock");
                for (int s = 0; s < scenarios.size(); s++) {
                    Child child = Child.start(o, kind, "--socket", socket.toString());
                    try {
                        boolean close = scenarios.get(s).equals("close");
                        load(child, kind, close, o.connections, o.warmup); // warm-up
                        long cpu0 = child.cpuNanos();
                        long requests = load(child, kind, close, o.connections, o.duration);
                        long cpu = child.cpuNanos() - cpu0;
                        double perRequest = cpu / 1000.0 / Math.max(1, requests);
                        double rate = requests / (double) o.duration.toSeconds();
                        results.get(k).get(s).add(new double[] {perRequest, rate});
                        System.err.printf(Locale.ROOT, "round %d %-10s %-10s %,10.0f req/s %8.2f us CPU/request%n",
                                round + 1, kind, scenarios.get(s), rate, perRequest);
                    } finally {
                        child.stop();
                    }
                }
            }
        }
        StringBuilder table = new StringBuilder("| listener | connections | req/s (median) | server CPU µs/request "
                + "(median) | vs tcp | rounds (µs/request) |\n|---|---|---|---|---|---|\n");
        for (int s = 0; s < scenarios.size(); s++) {
            double base = median(results.get(0).get(s), 0);
            for (int k = 0; k < KINDS.size(); k++) {
                List<double[]> runs = results.get(k).get(s);
                double cpu = median(runs, 0);
                StringBuilder each = new StringBuilder();
                for (double[] run : runs) {
                    each.append(each.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.2f", run[0]));
                }
                table.append(String.format(Locale.ROOT, "| %s | %s | %,.0f | %.2f | %+.1f %% | %s |%n", KINDS.get(k),
                        scenarios.get(s), median(runs, 1), cpu, (cpu / base - 1) * 100, each));
            }
        }
        System.out.println(table);
    }

    /** Closed-loop hello from {@code connections} threads for {@code duration}; the requests answered. */
    private static long load(Child child, String kind, boolean close, int connections, Duration duration)
            throws Exception {
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong answered = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        boolean proxy = kind.endsWith("proxy");
        byte[] request = ("GET /hello HTTP/1.1\r\nHost: bench\r\n" + (close ? "Connection: close\r\n" : "") + "\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < connections; c++) {
            int id = c;
            Thread t = new Thread(() -> {
                ByteBuffer in = ByteBuffer.allocate(4096);
                SocketChannel channel = null;
                while (running.get()) {
                    try {
                        if (channel == null) {
                            channel = SocketChannel.open(child.address());
                            if (proxy) {
                                channel.write(ByteBuffer.wrap(proxyHeader(id)));
                            }
                        }
                        channel.write(ByteBuffer.wrap(request));
                        readResponse(channel, in);
                        answered.incrementAndGet();
                        if (close) {
                            channel.close();
                            channel = null;
                        }
                    } catch (IOException e) {
                        failed.incrementAndGet();
                        closeQuietly(channel);
                        channel = null;
                    }
                }
                closeQuietly(channel);
            }, "load-" + c);
            threads.add(t);
            t.start();
        }
        Thread.sleep(duration.toMillis());
        running.set(false);
        long count = answered.get();
        for (Thread t : threads) {
            t.join(10_000);
        }
        if (failed.get() > 0) {
            System.err.println("  " + failed.get() + " requests failed (" + kind + ")");
        }
        return count;
    }

    /** A PROXY v2 header (PROXY, TCP over IPv4): 192.0.2.X:port to 198.51.100.1:443. */
    private static byte[] proxyHeader(int id) {
        return ByteBuffer.allocate(28).put(new byte[] {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49,
                0x54, 0x0A, 0x21, 0x11, 0x00, 0x0C, (byte) 192, 0, 2, (byte) (id % 250 + 1), (byte) 198, 51, 100, 1})
                .putShort((short) (40000 + id)).putShort((short) 443).array();
    }

    /** Reads one response with a Content-Length (hello's) from a blocking channel. */
    private static void readResponse(SocketChannel channel, ByteBuffer in) throws IOException {
        in.clear();
        int headEnd = -1;
        int length = -1;
        while (true) {
            if (channel.read(in) < 0) {
                throw new IOException("EOF in a response");
            }
            if (headEnd < 0) {
                headEnd = indexOf(in, "\r\n\r\n");
                if (headEnd >= 0) {
                    length = contentLength(in, headEnd);
                }
            }
            if (headEnd >= 0 && in.position() >= headEnd + 4 + length) {
                return;
            }
        }
    }

    private static int indexOf(ByteBuffer in, String text) {
        byte[] bytes = in.array();
        outer:
        for (int i = 0; i + text.length() <= in.position(); i++) {
            for (int j = 0; j < text.length(); j++) {
                if (bytes[i + j] != text.charAt(j)) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static int contentLength(ByteBuffer in, int headEnd) {
        String head = new String(in.array(), 0, headEnd, StandardCharsets.US_ASCII).toLowerCase(Locale.ROOT);
        int at = head.indexOf("content-length:");
        if (at < 0) {
            return 0;
        }
        int end = head.indexOf('\r', at);
        return Integer.parseInt(head.substring(at + 15, end < 0 ? head.length() : end).trim());
    }

    // ---------------------------------------------------------------- reload: latency across rotations

    private static void reload(Options o) throws Exception {
        Path dir = Files.createTempDirectory("fleche-edges-tls");
        Path[] pairs = {makePair(dir, "a"), makePair(dir, "b")};
        Path mount = Files.createDirectories(dir.resolve("mount"));
        publish(mount, pairs[0]);
        Files.createSymbolicLink(mount.resolve("tls.crt"), Path.of("..data", "tls.crt"));
        Files.createSymbolicLink(mount.resolve("tls.key"), Path.of("..data", "tls.key"));
        StringBuilder table = new StringBuilder("| run | requests | p50 µs | p90 µs | p99 µs | p99.9 µs | max µs | "
                + "rotations published | reloads taken |\n|---|---|---|---|---|---|---|---|---|\n");
        for (int round = 0; round < o.rounds; round++) {
            for (boolean rotate : new boolean[] {round % 2 == 0, round % 2 != 0}) {
                Child child = Child.start(o, "tls-pem", "--dir", mount.toString(), "--reload-ms",
                        String.valueOf(o.reloadMillis));
                Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
                AtomicBoolean running = new AtomicBoolean(true);
                int published = 0;
                try {
                    long recordFrom = System.nanoTime() + o.warmup.toNanos();
                    Thread[] threads = tlsLoad(child, o.connections, running, latency, recordFrom);
                    Thread.sleep(o.warmup.toMillis());
                    long end = System.nanoTime() + o.duration.toNanos();
                    long every = TimeUnit.SECONDS.toNanos(o.rotateSeconds);
                    long next = System.nanoTime() + every;
                    while (System.nanoTime() < end) {
                        Thread.sleep(50);
                        if (rotate && System.nanoTime() >= next) {
                            publish(mount, pairs[++published % 2]);
                            next += every;
                        }
                    }
                    running.set(false);
                    for (Thread t : threads) {
                        t.join(10_000);
                    }
                } finally {
                    List<String> said = child.stop();
                    String reloads = said.stream().filter(l -> l.startsWith("RELOADS ")).findFirst().orElse("?");
                    table.append(String.format(Locale.ROOT, "| %s (round %d) | %,d | %.0f | %.0f | %.0f | %.0f | %.0f "
                            + "| %d | %s |%n", rotate ? "rotating every " + o.rotateSeconds + " s" : "steady",
                            round + 1, latency.getTotalCount(), us(latency, 50), us(latency, 90), us(latency, 99),
                            us(latency, 99.9), latency.getMaxValue() / 1000.0, published, reloads));
                }
                if (published % 2 == 1) {
                    publish(mount, pairs[0]); // the next run starts from the first pair
                }
            }
        }
        System.out.println(table);
    }

    private static double us(Histogram h, double percentile) {
        return h.getValueAtPercentile(percentile) / 1000.0;
    }

    /** Keep-alive HTTPS hello from {@code connections} threads, each request's latency recorded. */
    private static Thread[] tlsLoad(Child child, int connections, AtomicBoolean running, Histogram latency,
                                    long recordFrom) throws Exception {
        SSLContext trustAll = SSLContext.getInstance("TLS");
        trustAll.init(null, new TrustManager[] {new X509TrustManager() {
            @Override public void checkClientTrusted(X509Certificate[] chain, String authType) { }
            @Override public void checkServerTrusted(X509Certificate[] chain, String authType) { }
            @Override public X509Certificate[] getAcceptedIssuers() { return new X509Certificate[0]; }
        }}, null);
        InetSocketAddress address = (InetSocketAddress) child.address();
        byte[] request = "GET /hello HTTP/1.1\r\nHost: bench\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        Thread[] threads = new Thread[connections];
        for (int c = 0; c < connections; c++) {
            threads[c] = new Thread(() -> {
                try (SSLSocket socket = (SSLSocket) trustAll.getSocketFactory().createSocket(InetAddress
                        .getLoopbackAddress(), address.getPort())) {
                    socket.setSoTimeout(30_000);
                    OutputStream out = socket.getOutputStream();
                    InputStream in = socket.getInputStream();
                    byte[] buffer = new byte[4096];
                    while (running.get()) {
                        long started = System.nanoTime();
                        out.write(request);
                        readResponse(in, buffer);
                        long now = System.nanoTime();
                        long took = now - started;
                        if (now < recordFrom) {
                            continue; // warming up
                        }
                        synchronized (latency) {
                            latency.recordValue(Math.min(took, latency.getHighestTrackableValue()));
                        }
                    }
                } catch (IOException e) {
                    System.err.println("  a TLS load connection failed: " + e);
                }
            }, "tls-load-" + c);
            threads[c].start();
        }
        return threads;
    }

    private static void readResponse(InputStream in, byte[] buffer) throws IOException {
        int held = 0;
        int headEnd = -1;
        int length = 0;
        while (headEnd < 0 || held < headEnd + 4 + length) {
            int n = in.read(buffer, held, buffer.length - held);
            if (n < 0) {
                throw new IOException("EOF in a response");
            }
            held += n;
            if (headEnd < 0) {
                ByteBuffer view = ByteBuffer.wrap(buffer).position(held);
                headEnd = indexOf(view, "\r\n\r\n");
                if (headEnd >= 0) {
                    length = contentLength(view, headEnd);
                }
            }
        }
    }

    /** A self-signed localhost pair made by keytool, as PEM files in {@code dir/name}. */
    private static Path makePair(Path dir, String name) throws Exception {
        Path pair = Files.createDirectories(dir.resolve("..pair-" + name));
        Path store = pair.resolve("server.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
                "CN=localhost " + name, "-validity", "2", "-storetype", "PKCS12", "-keystore", store.toString(),
                "-storepass", "changeit", "-keypass", "changeit").redirectErrorStream(true).start();
        keytool.getInputStream().readAllBytes();
        if (keytool.waitFor() != 0) {
            throw new IOException("keytool failed");
        }
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, "changeit".toCharArray());
        }
        Base64.Encoder base64 = Base64.getMimeEncoder(64, new byte[] {'\n'});
        Files.writeString(pair.resolve("tls.crt"), "-----BEGIN CERTIFICATE-----\n"
                + base64.encodeToString(keys.getCertificate("server").getEncoded()) + "\n-----END CERTIFICATE-----\n");
        PrivateKey key = (PrivateKey) keys.getKey("server", "changeit".toCharArray());
        Files.writeString(pair.resolve("tls.key"), "-----BEGIN PRIVATE KEY-----\n"
                + base64.encodeToString(key.getEncoded()) + "\n-----END PRIVATE KEY-----\n");
        return pair;
    }

    /** Points {@code mount/..data} at {@code pair} the way kubelet does: a new link renamed over the old one. */
    private static void publish(Path mount, Path pair) throws IOException {
        Path link = mount.resolve("..data_tmp");
        Files.deleteIfExists(link);
        Files.createSymbolicLink(link, pair.toAbsolutePath());
        Files.move(link, mount.resolve("..data"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private static double median(List<double[]> runs, int index) {
        double[] values = runs.stream().mapToDouble(r -> r[index]).sorted().toArray();
        int n = values.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }

    private static void closeQuietly(SocketChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    /** The command line: a subcommand and {@code --name value} pairs. */
    private static final class Options {
        String command = "";
        String kind = "tcp";
        String socket = "/tmp/fleche-edges.sock";
        String dir = ".";
        int rounds = 3;
        int connections = 32;
        Duration warmup = Duration.ofSeconds(10);
        Duration duration = Duration.ofSeconds(20);
        long reloadMillis = 1000;
        int rotateSeconds = 5;

        static Options parse(String[] args) {
            Options o = new Options();
            o.command = args.length > 0 ? args[0] : "";
            for (int i = 1; i + 1 < args.length; i += 2) {
                String value = args[i + 1];
                switch (args[i]) {
                    case "--kind" -> o.kind = value;
                    case "--socket" -> o.socket = value;
                    case "--dir" -> o.dir = value;
                    case "--rounds" -> o.rounds = Integer.parseInt(value);
                    case "--connections" -> o.connections = Integer.parseInt(value);
                    case "--warmup" -> o.warmup = Duration.ofSeconds(Long.parseLong(value));
                    case "--duration" -> o.duration = Duration.ofSeconds(Long.parseLong(value));
                    case "--reload-ms" -> o.reloadMillis = Long.parseLong(value);
                    case "--rotate-seconds" -> o.rotateSeconds = Integer.parseInt(value);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            return o;
        }
    }
}
