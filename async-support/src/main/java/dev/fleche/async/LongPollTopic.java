package dev.fleche.async;

import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.CompletionCallback;
import jakarta.ws.rs.container.ConnectionCallback;
import jakarta.ws.rs.container.TimeoutHandler;
import jakarta.ws.rs.core.Response;

import java.time.Duration;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Long-poll fan-out: requests wait per key with their {@code @Suspended AsyncResponse}, and one
 * {@link #publish(Object, Object)} resumes every waiter of that key with the same value.
 *
 * <pre>{@code
 * static final LongPollTopic<String, Message> ROOMS = LongPollTopic.<String, Message>builder()
 *         .timeout(Duration.ofSeconds(30))              // then 204 No Content
 *         .build();
 *
 * @GET @Path("{room}/messages")
 * public void poll(@PathParam("room") String room, @QueryParam("after") long after, @Suspended AsyncResponse r) {
 *     ROOMS.await(room, r, () -> store.after(room, after)); // answers at once when something is already there
 * }
 *
 * @POST @Path("{room}/messages")
 * public void post(@PathParam("room") String room, String text) {
 *     ROOMS.publish(room, store.append(room, text));
 * }
 * }</pre>
 *
 * <p><b>No lost updates:</b> the {@code ready} check of {@link #await(Object, AsyncResponse, Supplier)} and the
 * registration happen atomically with respect to {@link #publish}: a value stored before {@code publish} is either
 * seen by the check or delivered by the publish. <b>No leaks:</b> a waiter leaves its key when it is resumed,
 * times out, is cancelled or its client disconnects (through the standard {@link CompletionCallback} and
 * {@link ConnectionCallback}); a key without waiters is removed. <b>No lock while resuming:</b> a publish takes
 * the key's waiters out of the map in one step and resumes them afterwards — on the calling thread, or on the
 * {@linkplain Builder#resumeOn executor} given. Each waiter costs an entry in a set and one small callback object.
 *
 * <p>A {@link Response} published is copied for each waiter (a response object cannot be shared); {@code null}
 * answers {@code 204 No Content}; any other value is the entity of a {@code 200} response for every waiter.
 * Thread-safe.
 *
 * @param <K> the key type (equality as in a {@link ConcurrentHashMap})
 * @param <T> the published value type
 */
public final class LongPollTopic<K, T> {
    private final ConcurrentHashMap<K, Set<AsyncResponse>> waiters = new ConcurrentHashMap<>();
    private final AtomicInteger waiting = new AtomicInteger();
    private final long timeoutMillis;
    private final Supplier<Response> timeoutResponse;
    private final Executor executor;

    private LongPollTopic(Builder<K, T> builder) {
        this.timeoutMillis = builder.timeout.toMillis();
        this.timeoutResponse = builder.timeoutResponse;
        this.executor = builder.executor;
    }

    /** A builder; see {@link Builder} for the settings and their defaults. */
    public static <K, T> Builder<K, T> builder() {
        return new Builder<>();
    }

    /** A topic without a timeout of its own and resuming on the publishing thread. */
    public static <K, T> LongPollTopic<K, T> create() {
        return new Builder<K, T>().build();
    }

    /**
     * Parks {@code response} under {@code key} until the next {@link #publish} of that key. Returns {@code false}
     * (and parks nothing) when {@code response} is no longer suspended.
     */
    public boolean await(K key, AsyncResponse response) {
        return await(key, response, null);
    }

    /**
     * Like {@link #await(Object, AsyncResponse)}, but first asks {@code ready} for a value; when it gives one
     * (non-null), {@code response} is resumed with it at once instead of waiting. {@code ready} runs under the
     * key's lock, atomically with the registration, so it must be quick and must not use this topic.
     */
    public boolean await(K key, AsyncResponse response, Supplier<? extends T> ready) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(response, "response");
        if (!response.isSuspended()) {
            return false;
        }
        Object[] immediate = new Object[1];
        waiters.compute(key, (k, set) -> {
            T value = ready == null ? null : ready.get();
            if (value != null) {
                immediate[0] = value;
                return set;
            }
            Set<AsyncResponse> parked = set != null ? set : Collections.newSetFromMap(new IdentityHashMap<>(4));
            if (parked.add(response)) {
                waiting.incrementAndGet();
            }
            return parked;
        });
        if (immediate[0] != null) {
            return resume(response, immediate[0]);
        }
        Waiter waiter = new Waiter(key, response);
        response.register(waiter);
        if (timeoutMillis > 0) {
            response.setTimeoutHandler(waiter);
            response.setTimeout(timeoutMillis, TimeUnit.MILLISECONDS);
        }
        if (!response.isSuspended()) {
            remove(key, response); // completed before the callbacks were in place
        }
        return true;
    }

    /**
     * Resumes every waiter of {@code key} with {@code value}; returns how many were resumed by this call (with an
     * executor: how many were handed to it). Waiters arriving during the call wait for the next publish.
     */
    public int publish(K key, T value) {
        Objects.requireNonNull(key, "key");
        Set<AsyncResponse> parked = waiters.remove(key);
        if (parked == null) {
            return 0;
        }
        waiting.addAndGet(-parked.size());
        int resumed = 0;
        for (AsyncResponse response : parked) {
            if (executor == null) {
                resumed += resume(response, value) ? 1 : 0;
            } else {
                resumed += handOver(response, value) ? 1 : 0;
            }
        }
        return resumed;
    }

    /** Waiters parked under {@code key} now. */
    public int waiting(K key) {
        int[] count = new int[1];
        waiters.computeIfPresent(key, (k, set) -> {
            count[0] = set.size();
            return set;
        });
        return count[0];
    }

    /** Waiters parked under all keys now. */
    public int waiting() {
        return waiting.get();
    }

    /** Keys with at least one waiter now (keys without waiters are not kept). */
    public int keys() {
        return waiters.size();
    }

    private boolean handOver(AsyncResponse response, T value) {
        try {
            executor.execute(() -> resume(response, value));
            return true;
        } catch (RejectedExecutionException e) {
            return resume(response, value);
        }
    }

    private static boolean resume(AsyncResponse response, Object value) {
        Object entity;
        if (value == null) {
            entity = Response.noContent().build();
        } else if (value instanceof Response) {
            entity = Response.fromResponse((Response) value).build();
        } else {
            entity = value;
        }
        return response.resume(entity);
    }

    private void remove(K key, AsyncResponse response) {
        waiters.computeIfPresent(key, (k, set) -> {
            if (set.remove(response)) {
                waiting.decrementAndGet();
            }
            return set.isEmpty() ? null : set;
        });
    }

    /** One waiter's callbacks: whatever ends it, it leaves its key. */
    private final class Waiter implements CompletionCallback, ConnectionCallback, TimeoutHandler {
        private final K key;
        private final AsyncResponse response;

        Waiter(K key, AsyncResponse response) {
            this.key = key;
            this.response = response;
        }

        @Override
        public void onComplete(Throwable throwable) {
            remove(key, response);
        }

        @Override
        public void onDisconnect(AsyncResponse disconnected) {
            remove(key, response);
        }

        @Override
        public void handleTimeout(AsyncResponse timedOut) {
            remove(key, response);
            timedOut.resume(timeoutResponse.get());
        }
    }

    /**
     * Settings of a {@link LongPollTopic}.
     *
     * <table>
     *   <caption>Settings</caption>
     *   <tr><th>setting</th><th>default</th><th>meaning</th></tr>
     *   <tr><td>{@link #timeout}</td><td>zero: none set by the topic</td><td>how long a waiter waits; the
     *       topic sets the {@code AsyncResponse} timeout and timeout handler</td></tr>
     *   <tr><td>{@link #timeoutResponse}</td><td>{@code 204 No Content}</td><td>the answer of a waiter that timed
     *       out</td></tr>
     *   <tr><td>{@link #resumeOn}</td><td>none: the publishing thread</td><td>where waiters are resumed (each
     *       resume writes its response)</td></tr>
     * </table>
     *
     * @param <K> the key type
     * @param <T> the value type
     */
    public static final class Builder<K, T> {
        private Duration timeout = Duration.ZERO;
        private Supplier<Response> timeoutResponse = () -> Response.noContent().build();
        private Executor executor;

        private Builder() {
        }

        /** How long a waiter waits before its timeout response; zero for no timeout set by the topic. */
        public Builder<K, T> timeout(Duration value) {
            Objects.requireNonNull(value, "timeout");
            if (value.isNegative()) {
                throw new IllegalArgumentException("timeout must not be negative: " + value);
            }
            timeout = value;
            return this;
        }

        /** The response of a waiter that timed out (a new one per waiter). */
        public Builder<K, T> timeoutResponse(Supplier<Response> value) {
            timeoutResponse = Objects.requireNonNull(value, "timeoutResponse");
            return this;
        }

        /** Resumes waiters on {@code value} instead of the publishing thread; null for the publishing thread. */
        public Builder<K, T> resumeOn(Executor value) {
            executor = value;
            return this;
        }

        /** The topic. */
        public LongPollTopic<K, T> build() {
            return new LongPollTopic<>(this);
        }
    }
}
