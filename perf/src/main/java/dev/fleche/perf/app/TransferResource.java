package dev.fleche.perf.app;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.StreamingOutput;

import java.io.IOException;
import java.io.InputStream;

/**
 * Large bodies streamed through a resource (the upload and download scenarios, run with a 64 MiB heap):
 *
 * <table>
 *   <caption>Endpoints</caption>
 *   <tr><td>{@code POST /upload} ({@code application/octet-stream})</td><td>reads the entity as an
 *       {@link InputStream} to its end; answers how many bytes it read (text)</td></tr>
 *   <tr><td>{@code GET /download?bytes=N}</td><td>{@code application/octet-stream}: N zero bytes written by a
 *       {@link StreamingOutput}, 64 KiB at a time (no length given: the container frames it)</td></tr>
 * </table>
 *
 * <p>A class of its own so that the {@code @NonBlocking} variant of {@link BenchResource} does not cover it:
 * blocking reads and writes belong on a worker thread.
 */
@Path("/")
public class TransferResource {
    static final int BUFFER = 64 * 1024;

    @POST
    @Path("upload")
    @Consumes(MediaType.APPLICATION_OCTET_STREAM)
    @Produces(MediaType.TEXT_PLAIN)
    public String upload(InputStream body) throws IOException {
        byte[] buffer = new byte[BUFFER];
        long total = 0;
        for (int n; (n = body.read(buffer)) >= 0; ) {
            total += n;
        }
        return Long.toString(total);
    }

    @GET
    @Path("download")
    @Produces(MediaType.APPLICATION_OCTET_STREAM)
    public StreamingOutput download(@QueryParam("bytes") @DefaultValue("0") long bytes) {
        return out -> {
            byte[] zeros = new byte[BUFFER];
            for (long left = bytes; left > 0; ) {
                int n = (int) Math.min(left, zeros.length);
                out.write(zeros, 0, n);
                left -= n;
            }
        };
    }
}
