package dev.fleche.perf.harness;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A server under test: a command (run in the repository root; {@code JAVA} and {@code FLAGS} are replaced by the
 * java binary and the JVM flags, identical for every target, {@code PORT} by the port) and the scenarios it can
 * serve.
 *
 * <p>HTTPS variants: every target that serves TLS has one per {@link TlsKeys.KeyType}, named
 * {@code NAME-tls-ec} and {@code NAME-tls-rsa}: the same command followed by {@code --tls KEYSTORE PASSWORD}
 * (the harness's generated stores, the same files for every target; see {@code dev.fleche.perf.app.PeerTls}).
 * They have only the HTTPS features, so they run only the {@code tls-*} scenarios, and the plain targets none of
 * those.
 *
 * @param self whether this is one of Fleche's own targets (the others are the peers its ratios are taken against)
 * @param tls the key of an HTTPS variant, null for plain HTTP
 */
record Target(String name, String label, String group, String command, Set<String> features, boolean self,
              TlsKeys.KeyType tls) {

    /** Features: which endpoints a target has (a scenario needs one). */
    static final String HELLO = "hello";
    static final String JSON = "json";
    static final String ECHO = "echo";
    static final String PIPELINE = "pipeline";
    static final String ASYNC = "async";
    static final String POLL = "poll";
    static final String SSE = "sse";
    static final String TRANSFER = "transfer";
    /** HTTPS variants: {@code GET /hello} (keep-alive, a handshake per request, idle) and the download. */
    static final String HTTPS = "https";
    static final String HTTPS_TRANSFER = "https-transfer";

    /** The targets that have HTTPS variants: Fleche's two and the five peers issue 13 compares over TLS. */
    static final List<String> WITH_TLS = List.of("fleche-jersey", "fleche-raw", "netty", "vertx", "jersey-grizzly",
            "jersey-jetty", "jersey-netty");
    private static final Set<String> TLS_FEATURES = Set.of(HTTPS, HTTPS_TRANSFER);

    private static final Set<String> REST = Set.of(HELLO, JSON, ECHO, ASYNC, POLL, SSE, TRANSFER);
    private static final Set<String> TRANSPORT = Set.of(HELLO, JSON, ECHO, PIPELINE, ASYNC, POLL, SSE, TRANSFER);

    /** A plain target without an HTTPS variant, or one with {@code --tls} in its command. */
    Target(String name, String label, String group, String command, Set<String> features, boolean self) {
        this(name, label, group, command, features, self, null);
    }

    boolean can(String feature) {
        return features.contains(feature);
    }

    /** The HTTPS variant of this target with {@code key}. */
    Target withTls(TlsKeys.KeyType key) {
        return new Target(name + "-tls-" + key.id, label + ", HTTPS " + key.label, group, command + " "
                + tlsArgs(key), TLS_FEATURES, self, key);
    }

    /** The command line for {@code port}. */
    List<String> commandLine(String java, String flags, int port) {
        String c = command.replace("FLAGS", flags).replace("PORT", Integer.toString(port));
        List<String> words = Proc.split(c);
        if (words.get(0).equals("JAVA") || words.get(0).equals("java")) {
            words.set(0, java);
        }
        return words;
    }

    /** Every known target, in report order: Fleche's first, then the peers by group. */
    static Map<String, Target> defaults() {
        String perf = "JAVA FLAGS -cp perf/target/fleche-perf.jar ";
        Map<String, Target> m = new LinkedHashMap<>();
        add(m, new Target("fleche-jersey", "Fleche + Jersey", "fleche",
                perf + "dev.fleche.perf.fleche.FlecheJerseyPeer PORT", REST, true));
        add(m, new Target("fleche-jersey-nb", "Fleche + Jersey, @NonBlocking", "fleche",
                perf + "dev.fleche.perf.fleche.FlecheJerseyPeer PORT --nonblocking", REST, true));
        // The cost of observability (issue 15): fleche-jersey with the JSON access log to a file, with Micrometer
        // metrics (Prometheus registry), and with both plus request ids and trace context.
        add(m, new Target("fleche-jersey-log", "Fleche + Jersey, JSON access log to a file", "fleche",
                perf + "dev.fleche.perf.fleche.FlecheJerseyPeer PORT --access-log", REST, true));
        add(m, new Target("fleche-jersey-metrics", "Fleche + Jersey, Micrometer metrics (Prometheus)", "fleche",
                perf + "dev.fleche.perf.fleche.FlecheJerseyPeer PORT --metrics", REST, true));
        add(m, new Target("fleche-jersey-all", "Fleche + Jersey, access log + metrics + request ids", "fleche",
                perf + "dev.fleche.perf.fleche.FlecheJerseyPeer PORT --access-log --metrics --request-ids", REST,
                true));
        add(m, new Target("fleche-raw", "Fleche transport, raw handler", "fleche",
                perf + "dev.fleche.perf.fleche.FlecheRawPeer PORT", TRANSPORT, true));
        add(m, new Target("fleche-transport", "Fleche transport (examples/transport-hello)", "fleche",
                "JAVA FLAGS -cp transport-nio/target/classes:examples/transport-hello/target/classes "
                        + "dev.fleche.examples.transporthello.TransportHelloServer PORT",
                Set.of(HELLO, PIPELINE), true));
        add(m, peer("jersey-grizzly", "Jersey 4.0.2 on Grizzly", "jersey", REST));
        // No SSE: its JerseyChunkedInput blocks the sending thread once a few events are queued, so streams that
        // share the resource's one scheduler thread stall (50 streams: none ends within 60 s). See perf/README.md.
        add(m, peer("jersey-netty", "Jersey 4.0.2 on Netty", "jersey",
                Set.of(HELLO, JSON, ECHO, ASYNC, POLL, TRANSFER)));
        add(m, peer("jersey-jdk", "Jersey 4.0.2 on JDK-http", "jersey", Set.of(HELLO, JSON, ECHO, TRANSFER)));
        add(m, peer("jersey-jetty", "Jersey 4.0.2 on Jetty 12", "jersey", REST));
        add(m, peer("resteasy-netty", "RESTEasy 6.2 on Netty 4.1", "resteasy", REST));
        add(m, peer("resteasy-undertow", "RESTEasy 6.2 on Undertow", "resteasy", REST));
        // No SSE and no transfers: its StandardEndpoint API takes whole requests and gives whole responses.
        add(m, peer("riposte", "Riposte 0.13 (Netty 4.0)", "seed", Set.of(HELLO, JSON, ECHO, ASYNC, POLL)));
        add(m, peer("spring", "Spring Boot 3.5 MVC (Tomcat)", "seed", REST));
        add(m, peer("netty", "raw Netty 4.2", "transport", TRANSPORT));
        add(m, peer("vertx", "Vert.x 5.1", "transport", TRANSPORT));
        // No SSE and no transfers: microhttp reads whole requests and writes whole responses.
        add(m, peer("microhttp", "microhttp 0.11", "transport", Set.of(HELLO, JSON, ECHO, PIPELINE, ASYNC, POLL)));
        for (TlsKeys.KeyType key : TlsKeys.KeyType.values()) {
            for (String name : WITH_TLS) {
                add(m, m.get(name).withTls(key));
            }
        }
        return m;
    }

    private static Target peer(String name, String label, String group, Set<String> features) {
        return new Target(name, label, group, "JAVA FLAGS -jar perf/peers/" + name + "/target/" + name + "-peer.jar PORT",
                features, false);
    }

    /** The {@code --tls KEYSTORE PASSWORD} arguments of a key's store, relative to the repository root. */
    private static String tlsArgs(TlsKeys.KeyType key) {
        return "--tls " + TlsKeys.DIR + "/" + key.fileName() + " " + TlsKeys.PASSWORD;
    }

    private static void add(Map<String, Target> m, Target t) {
        m.put(t.name(), t);
    }
}
