package dev.fleche.perf.peers.spring;

import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

/**
 * Peer (seed system): Spring Boot 3.5 MVC on its default embedded Tomcat, the benchmark endpoints as a
 * {@link RestController}: {@code /hello}, {@code /json} and {@code /echo} (Jackson), {@code /async?delayMs=N} as a
 * {@link DeferredResult} set by a scheduler, the long-poll trio, the SSE trio ({@code /sse} an {@link SseEmitter}
 * kept in a set; {@code /sse/broadcast} sends the event to each, on the request's thread, as Spring's
 * documentation shows; the data is {@code <number> <µs since the epoch>} as {@code dev.fleche.perf.app.EventData}
 * writes it, which this peer does not link), {@code /upload} (the body as an {@link InputStream}, counted) and
 * {@code /download?bytes=N} (a {@link StreamingResponseBody} writing zeros, 64 KiB at a time).
 *
 * <p>Spring Boot's defaults, except (as properties given here, so the JVM flags stay the same for every target):
 * bound to the host given (127.0.0.1), accept count 4096 as for every peer, Tomcat's connection cap raised from
 * 8,192 to 20,000 and the MVC async timeout from Tomcat's 30 s to an hour (the long-poll scenario holds 10,000
 * requests), banner off, logging at WARN. Usage: {@code java -jar spring-peer.jar PORT}.
 */
@SpringBootApplication
@RestController
public class SpringPeer {
    static final String HELLO = "Hello, World!";
    private static final ScheduledExecutorService SCHEDULER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "bench-scheduler");
        t.setDaemon(true);
        return t;
    });
    private static final ConcurrentLinkedQueue<DeferredResult<String>> WAITING = new ConcurrentLinkedQueue<>();
    private static final AtomicInteger WAITING_COUNT = new AtomicInteger();
    private static final Set<SseEmitter> SUBSCRIBERS = ConcurrentHashMap.newKeySet();
    private static final AtomicLong SENT = new AtomicLong();
    private static final int CHUNK = 64 * 1024;

    public record Message(String message) {
    }

    public record Item(String name, double amount) {
    }

    public static void main(String[] args) {
        String port = args[0];
        String host = args.length > 1 ? args[1] : "127.0.0.1";
        SpringApplication app = new SpringApplication(SpringPeer.class);
        app.setDefaultProperties(Map.of(
                "server.port", port,
                "server.address", host,
                "server.tomcat.accept-count", "4096",
                "server.tomcat.max-connections", "20000",
                "spring.mvc.async.request-timeout", "3600000",
                "spring.main.banner-mode", "off",
                "logging.level.root", "WARN"));
        app.addListeners((ApplicationListener<WebServerInitializedEvent>) event -> {
            System.out.println("READY " + event.getWebServer().getPort());
            System.out.flush();
        });
        app.run(args);
    }

    @GetMapping(path = "/hello", produces = MediaType.TEXT_PLAIN_VALUE)
    public String hello() {
        return HELLO;
    }

    @GetMapping(path = "/json", produces = MediaType.APPLICATION_JSON_VALUE)
    public Message json() {
        return new Message(HELLO);
    }

    @PostMapping(path = "/echo", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    public Item echo(@RequestBody Item item) {
        return item;
    }

    @GetMapping(path = "/async", produces = MediaType.TEXT_PLAIN_VALUE)
    public DeferredResult<String> async(@RequestParam(name = "delayMs", defaultValue = "130") long delayMs) {
        DeferredResult<String> result = new DeferredResult<>();
        SCHEDULER.schedule(() -> result.setResult(HELLO), delayMs, TimeUnit.MILLISECONDS);
        return result;
    }

    @GetMapping(path = "/poll", produces = MediaType.TEXT_PLAIN_VALUE)
    public DeferredResult<String> poll() {
        DeferredResult<String> result = new DeferredResult<>();
        WAITING.add(result);
        WAITING_COUNT.incrementAndGet();
        return result;
    }

    @GetMapping(path = "/waiting", produces = MediaType.TEXT_PLAIN_VALUE)
    public String waiting() {
        return Integer.toString(WAITING_COUNT.get());
    }

    @PostMapping(path = "/broadcast", produces = MediaType.TEXT_PLAIN_VALUE)
    public String broadcast() {
        int n = 0;
        for (DeferredResult<String> r; (r = WAITING.poll()) != null; n++) {
            WAITING_COUNT.decrementAndGet();
            r.setResult(HELLO);
        }
        return Integer.toString(n);
    }

    @GetMapping(path = "/sse", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    public SseEmitter subscribe() {
        SseEmitter emitter = new SseEmitter(TimeUnit.HOURS.toMillis(1));
        SUBSCRIBERS.add(emitter);
        emitter.onCompletion(() -> SUBSCRIBERS.remove(emitter));
        emitter.onError(e -> SUBSCRIBERS.remove(emitter));
        return emitter;
    }

    @GetMapping(path = "/sse/subscribers", produces = MediaType.TEXT_PLAIN_VALUE)
    public String subscribers() {
        return Integer.toString(SUBSCRIBERS.size());
    }

    @PostMapping(path = "/sse/broadcast", produces = MediaType.TEXT_PLAIN_VALUE)
    public String sseBroadcast() {
        Instant now = Instant.now();
        String data = SENT.incrementAndGet() + " " + (now.getEpochSecond() * 1_000_000L + now.getNano() / 1000);
        for (SseEmitter emitter : SUBSCRIBERS) {
            try {
                emitter.send(SseEmitter.event().data(data, MediaType.TEXT_PLAIN));
            } catch (IOException | IllegalStateException e) {
                SUBSCRIBERS.remove(emitter);
            }
        }
        return Integer.toString(SUBSCRIBERS.size());
    }

    @PostMapping(path = "/upload", consumes = MediaType.APPLICATION_OCTET_STREAM_VALUE,
            produces = MediaType.TEXT_PLAIN_VALUE)
    public String upload(InputStream body) throws IOException {
        byte[] buffer = new byte[CHUNK];
        long total = 0;
        for (int n; (n = body.read(buffer)) >= 0; ) {
            total += n;
        }
        return Long.toString(total);
    }

    @GetMapping(path = "/download", produces = MediaType.APPLICATION_OCTET_STREAM_VALUE)
    public StreamingResponseBody download(@RequestParam(name = "bytes", defaultValue = "0") long bytes) {
        return out -> {
            byte[] zeros = new byte[CHUNK];
            for (long left = bytes; left > 0; ) {
                int n = (int) Math.min(left, zeros.length);
                out.write(zeros, 0, n);
                left -= n;
            }
        };
    }
}
