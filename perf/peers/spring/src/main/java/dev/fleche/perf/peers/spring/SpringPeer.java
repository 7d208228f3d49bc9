package dev.fleche.perf.peers.spring;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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

/**
 * Peer (seed system): Spring Boot 3.5 MVC on its default embedded Tomcat, the benchmark endpoints as a
 * {@link RestController}: {@code /hello}, {@code /json} and {@code /echo} (Jackson), {@code /async?delayMs=N} as a
 * {@link DeferredResult} set by a scheduler, the long-poll trio, and {@code /sse} with an {@link SseEmitter}.
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
    public SseEmitter sse(@RequestParam(name = "count", defaultValue = "10") int count,
                          @RequestParam(name = "intervalMs", defaultValue = "100") long intervalMs) {
        SseEmitter emitter = new SseEmitter(TimeUnit.HOURS.toMillis(1));
        new EventStream(emitter, count, intervalMs).run();
        return emitter;
    }

    /** Sends one event per run and schedules the next; completes the emitter after {@code count}. */
    private record EventStream(SseEmitter emitter, int count, long intervalMs, int[] sent) implements Runnable {
        EventStream(SseEmitter emitter, int count, long intervalMs) {
            this(emitter, count, intervalMs, new int[1]);
        }

        @Override
        public void run() {
            if (sent[0]++ == count) {
                emitter.complete();
                return;
            }
            try {
                emitter.send(SseEmitter.event().data(HELLO, MediaType.TEXT_PLAIN));
                SCHEDULER.schedule(this, intervalMs, TimeUnit.MILLISECONDS);
            } catch (IOException e) {
                emitter.completeWithError(e);
            }
        }
    }
}
