package dev.fleche.examples.service;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Configuration;
import jakarta.ws.rs.core.Context;

/**
 * {@code GET /metrics}: the registry's meters in the Prometheus text format (version 0.0.4), for a scraper. The
 * registry is the application property {@link #REGISTRY}; {@code FlecheMetrics} fills it.
 */
@Path("metrics")
public class MetricsResource {
    /** The application property holding the {@link PrometheusMeterRegistry}. */
    public static final String REGISTRY = "dev.fleche.examples.service.metrics";

    @Context
    private Configuration configuration;

    @GET
    @Produces("text/plain; version=0.0.4; charset=utf-8")
    public String scrape() {
        return ((PrometheusMeterRegistry) configuration.getProperty(REGISTRY)).scrape();
    }
}
