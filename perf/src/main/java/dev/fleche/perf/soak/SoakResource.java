package dev.fleche.perf.soak;

import dev.fleche.jersey.FlecheContainer;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * The soak server's own endpoints:
 *
 * <table>
 *   <caption>Endpoints</caption>
 *   <tr><td>{@code POST /soak/echo}</td><td>the request body, byte for byte ({@code application/octet-stream})</td></tr>
 *   <tr><td>{@code GET /soak/stats}</td><td>{@code timers=N threads=N heap=N}: the container's armed timers,
 *       live threads other than those of the two on-demand pools (Fleche's bounded worker pool and Jersey's
 *       managed-async executor grow under load up to their maximum and shrink only after their idle timeout, so
 *       they are no leak signal within a soak's settle time; {@code /soak/threads} still lists them), heap used
 *       (bytes)</td></tr>
 *   <tr><td>{@code GET /soak/threads}</td><td>live threads counted by name (digits as {@code N}), to explain a
 *       thread count that did not return</td></tr>
 *   <tr><td>{@code POST /soak/gc}</td><td>a full GC ({@code System.gc()} twice), then the same line as
 *       {@code /soak/stats}</td></tr>
 * </table>
 */
@Path("soak")
public class SoakResource {
    private static volatile FlecheContainer container;

    static void container(FlecheContainer value) {
        container = value;
    }

    @POST
    @Path("echo")
    @Consumes(MediaType.WILDCARD)
    @Produces(MediaType.APPLICATION_OCTET_STREAM)
    public byte[] echo(byte[] body) {
        return body;
    }

    @GET
    @Path("stats")
    @Produces(MediaType.TEXT_PLAIN)
    public String stats() {
        Runtime runtime = Runtime.getRuntime();
        FlecheContainer c = container;
        return "timers=" + (c == null ? -1 : c.armedTimers())
                + " threads=" + fixedThreads()
                + " heap=" + (runtime.totalMemory() - runtime.freeMemory());
    }

    /** Live threads, less those of the on-demand pools (see the class description). */
    private static long fixedThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .map(Thread::getName)
                .filter(name -> !name.startsWith("fleche-worker-")
                        && !name.startsWith("jersey-server-managed-async-executor-"))
                .count();
    }

    @GET
    @Path("threads")
    @Produces(MediaType.TEXT_PLAIN)
    public String threads() {
        java.util.Map<String, Integer> byName = new java.util.TreeMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            byName.merge(t.getName().replaceAll("[0-9]+", "N"), 1, Integer::sum);
        }
        return byName.toString();
    }

    @POST
    @Path("gc")
    @Produces(MediaType.TEXT_PLAIN)
    public String gc() {
        System.gc();
        System.gc();
        return stats();
    }
}
