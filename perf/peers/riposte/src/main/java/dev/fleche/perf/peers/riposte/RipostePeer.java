package dev.fleche.perf.peers.riposte;

import com.nike.riposte.server.Server;
import com.nike.riposte.server.config.ServerConfig;
import com.nike.riposte.server.http.Endpoint;
import com.nike.riposte.server.http.RequestInfo;
import com.nike.riposte.server.http.ResponseInfo;
import com.nike.riposte.server.http.StandardEndpoint;
import com.nike.riposte.util.Matcher;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpMethod;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Peer (seed system): Riposte 0.13 (Netty 4.0), the benchmark endpoints written with Riposte's own endpoint API
 * ({@link StandardEndpoint}s returning {@link CompletableFuture}s): {@code /hello}, {@code /json} and
 * {@code /echo} (Riposte's Jackson serializer), {@code /async?delayMs=N} completed by a scheduler, and the
 * long-poll trio {@code /poll}, {@code /waiting}, {@code /broadcast}. No SSE.
 *
 * <p>Riposte's defaults, except: worker channel idle timeout and the endpoint future timeout raised to an hour
 * (its defaults, 5 s and 60 s, would close idle connections and fail long polls: the scenarios measure memory and
 * wake-up time, not timeouts). Logging at warn. Usage: {@code java -jar riposte-peer.jar PORT}.
 */
public final class RipostePeer {
    static final String HELLO = "Hello, World!";
    static final ScheduledExecutorService SCHEDULER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "bench-scheduler");
        t.setDaemon(true);
        return t;
    });
    static final ConcurrentLinkedQueue<CompletableFuture<ResponseInfo<String>>> WAITING = new ConcurrentLinkedQueue<>();
    static final AtomicInteger WAITING_COUNT = new AtomicInteger();

    private RipostePeer() {
    }

    /** {@code {"message":"Hello, World!"}}; a plain class: Riposte's Jackson predates records. */
    public static final class Message {
        public String message;

        public Message(String message) {
            this.message = message;
        }
    }

    /** {@code {"name":"wrk","amount":12.34}}. */
    public static final class Item {
        public String name;
        public double amount;
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        Logger.getLogger("").setLevel(Level.WARNING);
        int port = Integer.parseInt(args[0]);
        Server server = new Server(new Config(port));
        server.startup();
        System.out.println("READY " + port);
        System.out.flush();
    }

    private record Config(int port) implements ServerConfig {
        @Override
        public Collection<Endpoint<?>> appEndpoints() {
            return List.of(new Hello(), new Json(), new Echo(), new Async(), new Poll(), new Waiting(),
                    new Broadcast());
        }

        @Override
        public int endpointsPort() {
            return port;
        }

        @Override
        public long workerChannelIdleTimeoutMillis() {
            return TimeUnit.HOURS.toMillis(1);
        }

        @Override
        public long defaultCompletableFutureTimeoutInMillisForNonblockingEndpoints() {
            return TimeUnit.HOURS.toMillis(1);
        }
    }

    static ResponseInfo<String> text(String body) {
        return ResponseInfo.newBuilder(body).withDesiredContentWriterMimeType("text/plain").build();
    }

    static final class Hello extends StandardEndpoint<Void, String> {
        @Override
        public CompletableFuture<ResponseInfo<String>> execute(RequestInfo<Void> request, Executor executor,
                                                               ChannelHandlerContext ctx) {
            return CompletableFuture.completedFuture(text(HELLO));
        }

        @Override
        public Matcher requestMatcher() {
            return Matcher.match("/hello", HttpMethod.GET);
        }
    }

    static final class Json extends StandardEndpoint<Void, Message> {
        @Override
        public CompletableFuture<ResponseInfo<Message>> execute(RequestInfo<Void> request, Executor executor,
                                                                ChannelHandlerContext ctx) {
            return CompletableFuture.completedFuture(ResponseInfo.newBuilder(new Message(HELLO))
                    .withDesiredContentWriterMimeType("application/json").build());
        }

        @Override
        public Matcher requestMatcher() {
            return Matcher.match("/json", HttpMethod.GET);
        }
    }

    static final class Echo extends StandardEndpoint<Item, Item> {
        @Override
        public CompletableFuture<ResponseInfo<Item>> execute(RequestInfo<Item> request, Executor executor,
                                                             ChannelHandlerContext ctx) {
            return CompletableFuture.completedFuture(ResponseInfo.newBuilder(request.getContent())
                    .withDesiredContentWriterMimeType("application/json").build());
        }

        @Override
        public Matcher requestMatcher() {
            return Matcher.match("/echo", HttpMethod.POST);
        }
    }

    static final class Async extends StandardEndpoint<Void, String> {
        @Override
        public CompletableFuture<ResponseInfo<String>> execute(RequestInfo<Void> request, Executor executor,
                                                               ChannelHandlerContext ctx) {
            String d = request.getQueryParamSingle("delayMs");
            long delay = d == null ? 130 : Long.parseLong(d);
            CompletableFuture<ResponseInfo<String>> f = new CompletableFuture<>();
            SCHEDULER.schedule(() -> f.complete(text(HELLO)), delay, TimeUnit.MILLISECONDS);
            return f;
        }

        @Override
        public Matcher requestMatcher() {
            return Matcher.match("/async", HttpMethod.GET);
        }
    }

    static final class Poll extends StandardEndpoint<Void, String> {
        @Override
        public CompletableFuture<ResponseInfo<String>> execute(RequestInfo<Void> request, Executor executor,
                                                               ChannelHandlerContext ctx) {
            CompletableFuture<ResponseInfo<String>> f = new CompletableFuture<>();
            WAITING.add(f);
            WAITING_COUNT.incrementAndGet();
            return f;
        }

        @Override
        public Matcher requestMatcher() {
            return Matcher.match("/poll", HttpMethod.GET);
        }
    }

    static final class Waiting extends StandardEndpoint<Void, String> {
        @Override
        public CompletableFuture<ResponseInfo<String>> execute(RequestInfo<Void> request, Executor executor,
                                                               ChannelHandlerContext ctx) {
            return CompletableFuture.completedFuture(text(Integer.toString(WAITING_COUNT.get())));
        }

        @Override
        public Matcher requestMatcher() {
            return Matcher.match("/waiting", HttpMethod.GET);
        }
    }

    static final class Broadcast extends StandardEndpoint<Void, String> {
        @Override
        public CompletableFuture<ResponseInfo<String>> execute(RequestInfo<Void> request, Executor executor,
                                                               ChannelHandlerContext ctx) {
            int n = 0;
            for (CompletableFuture<ResponseInfo<String>> f; (f = WAITING.poll()) != null; n++) {
                WAITING_COUNT.decrementAndGet();
                f.complete(text(HELLO));
            }
            return CompletableFuture.completedFuture(text(Integer.toString(n)));
        }

        @Override
        public Matcher requestMatcher() {
            return Matcher.match("/broadcast", HttpMethod.POST);
        }
    }
}
