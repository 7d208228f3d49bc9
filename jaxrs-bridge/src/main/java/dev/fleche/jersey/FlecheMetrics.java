package dev.fleche.jersey;

import dev.fleche.jersey.internal.RequestTimers;
import dev.fleche.jersey.internal.TransportMeters;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import jakarta.ws.rs.core.Feature;
import jakarta.ws.rs.core.FeatureContext;
import org.glassfish.jersey.micrometer.server.DefaultJerseyTagsProvider;
import org.glassfish.jersey.server.spi.Container;
import org.glassfish.jersey.server.spi.ContainerLifecycleListener;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Micrometer metrics, opt-in: {@code config.register(new FlecheMetrics(registry))}. Needs {@code micrometer-core}
 * and {@code org.glassfish.jersey.ext:jersey-micrometer} on the class path (optional dependencies of this
 * module).
 *
 * <p>What it registers in {@code registry}:
 * <ul>
 *   <li>Per resource method: jersey-micrometer's timer {@value #DEFAULT_REQUEST_METRIC}, tagged by its
 *       {@code DefaultJerseyTagsProvider}: {@code method}, {@code uri} (the template), {@code status},
 *       {@code outcome}, {@code exception}; with the {@linkplain Builder#percentiles percentiles} and
 *       {@linkplain Builder#percentileHistogram histogram} asked for. Each request is timed from the start of
 *       Jersey's processing to its end, and the timer is found in a table of the tags' inputs, so a request costs a
 *       clock read and a table look-up (jersey-micrometer's own listener costs about as much as the rest of a hello
 *       request). When the application has a {@code @Timed} resource method or class, or a sub-resource locator,
 *       jersey-micrometer's {@code MetricsApplicationEventListener} times every request instead and {@code @Timed}
 *       works as it documents.</li>
 *   <li>When the application runs in a {@link FlecheContainer}, the transport's counters
 *       ({@code HttpServer.metrics()}) and the container's: {@code fleche.connections.open} (gauge),
 *       {@code fleche.connections.accepted}/{@code .refused}/{@code .closed}, {@code fleche.requests},
 *       {@code fleche.requests.by.protocol} (counter per protocol, tag {@code protocol} = {@code HTTP/1.0},
 *       {@code HTTP/1.1}, {@code HTTP/2}), {@code fleche.http2.connections}, {@code fleche.http2.streams.reset},
 *       {@code fleche.bytes.read}/{@code .written}, {@code fleche.protocol.errors} (requests refused by the parser or
 *       a limit), {@code fleche.timeouts}, {@code fleche.handler.errors} (counters), {@code fleche.responses}
 *       (counter per status class, tag {@code status} = {@code 1xx} .. {@code 5xx}: every final response the
 *       transport sent, its own refusals included), {@code fleche.refusals} (counter per rule, tag {@code rule}: a
 *       parser rule such as {@code HEADER_SECTION_TOO_LARGE}, or {@code OVERLOADED}, {@code BODY_TOO_LARGE},
 *       {@code HEADER_TIMEOUT}, {@code BODY_TIMEOUT}, ...), {@code fleche.exchanges.in.flight} (gauge: requests
 *       started and not ended), {@code fleche.accesslog.dropped} (counter: access-log lines dropped on a full
 *       queue), {@code fleche.requests.suspended} (gauge: responses suspended now), {@code fleche.timers.armed}
 *       (gauge), {@code fleche.workers.in.flight} and {@code fleche.workers.queued} (gauges; absent with a user's
 *       executor), {@code fleche.workers.rejected} (counter: {@code 503}s for saturated workers).</li>
 * </ul>
 * The transport meters read the live server on each scrape: nothing is added to the request path.
 */
public final class FlecheMetrics implements Feature {
    /** The name of the per-resource-method timer unless {@link Builder#requestMetricName} says otherwise. */
    public static final String DEFAULT_REQUEST_METRIC = "http.server.requests";

    private final MeterRegistry registry;
    private final String requestMetric;
    private final double[] percentiles;
    private final boolean percentileHistogram;
    private final AtomicBoolean filtered = new AtomicBoolean();

    /** Metrics in {@code registry} with the defaults: no percentiles, no histogram. */
    public FlecheMetrics(MeterRegistry registry) {
        this(builder(registry));
    }

    private FlecheMetrics(Builder builder) {
        this.registry = builder.registry;
        this.requestMetric = builder.requestMetric;
        this.percentiles = builder.percentiles.clone();
        this.percentileHistogram = builder.percentileHistogram;
    }

    /** A builder for metrics in {@code registry}. */
    public static Builder builder(MeterRegistry registry) {
        return new Builder(registry);
    }

    @Override
    public boolean configure(FeatureContext context) {
        if ((percentiles.length > 0 || percentileHistogram) && filtered.compareAndSet(false, true)) {
            registry.config().meterFilter(new RequestDistribution());
        }
        context.register(new RequestTimers(registry, new DefaultJerseyTagsProvider(), requestMetric));
        context.register(new Binder());
        return true;
    }

    /** The percentiles and histogram of the request timer, applied before it is created. */
    private final class RequestDistribution implements MeterFilter {
        @Override
        public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
            if (!id.getName().equals(requestMetric)) {
                return config;
            }
            return DistributionStatisticConfig.builder()
                    .percentiles(percentiles)
                    .percentilesHistogram(percentileHistogram)
                    .build()
                    .merge(config);
        }
    }

    /** Binds the transport and container meters once the container is known (its start). */
    private final class Binder implements ContainerLifecycleListener {
        @Override
        public void onStartup(Container container) {
            if (container instanceof FlecheContainer fleche && fleche.transport() != null) {
                TransportMeters.bind(registry, fleche.transport(), fleche.workers(), fleche::busyRejections,
                        fleche::suspendedCount);
            }
        }

        @Override
        public void onReload(Container container) {
            // meters already bound read the same server; registering again returns them
        }

        @Override
        public void onShutdown(Container container) {
            // the meters stay, reading the stopped server's final values
        }
    }

    /** Settings of {@link FlecheMetrics}; each checked when set. */
    public static final class Builder {
        private final MeterRegistry registry;
        private String requestMetric = DEFAULT_REQUEST_METRIC;
        private double[] percentiles = new double[0];
        private boolean percentileHistogram;

        private Builder(MeterRegistry registry) {
            if (registry == null) {
                throw new IllegalArgumentException("registry is null");
            }
            this.registry = registry;
        }

        /** The name of the per-resource-method timer ({@value FlecheMetrics#DEFAULT_REQUEST_METRIC}). */
        public Builder requestMetricName(String name) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("request metric name is empty");
            }
            this.requestMetric = name;
            return this;
        }

        /** Client-side percentiles of the request timer, each in (0, 1), e.g. {@code 0.5, 0.95, 0.99} (none). */
        public Builder percentiles(double... percentiles) {
            for (double p : percentiles) {
                if (!(p > 0 && p < 1)) {
                    throw new IllegalArgumentException("percentile " + p + " is not in (0, 1)");
                }
            }
            this.percentiles = Arrays.copyOf(percentiles, percentiles.length);
            return this;
        }

        /** Whether the request timer publishes a histogram for server-side percentiles (false). */
        public Builder percentileHistogram(boolean on) {
            this.percentileHistogram = on;
            return this;
        }

        public FlecheMetrics build() {
            return new FlecheMetrics(this);
        }
    }
}
