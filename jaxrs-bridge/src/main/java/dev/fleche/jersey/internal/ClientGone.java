package dev.fleche.jersey.internal;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import jakarta.ws.rs.ext.ExceptionMapper;

import java.io.IOException;

/**
 * How a disconnect reaches Jersey's own {@code ConnectionCallback}s. Jersey runs them only when writing a
 * response entity fails with an {@link IOException} ({@code ServerRuntime.Responder.writeResponse}, and
 * {@code ChunkedOutput} for chunks); it offers no other way in. So when the transport reports that the client of
 * a suspended request left, the response writer resumes the request's {@code AsyncResponse} with
 * {@link #response()}: an entity whose writing throws {@link Disconnected}. Jersey then calls every registered
 * {@code ConnectionCallback.onDisconnect}, maps the failure with {@link Mapper} (registered for every server
 * application by {@link ContainerFeatures}) to a {@value #STATUS} response that goes nowhere, and completes the
 * request ({@code CompletionCallback}s run; later {@code resume} calls return {@code false}).
 */
public final class ClientGone {
    /** The status of the (unsent) response: {@code 499 Client Closed Request}, as proxies log it. */
    public static final int STATUS = 499;

    private static final StreamingOutput FAILING = out -> {
        throw new Disconnected();
    };

    private ClientGone() {
    }

    /** The response that makes Jersey notice the disconnect. */
    static Response response() {
        return Response.status(STATUS).entity(FAILING).build();
    }

    /** Thrown while "writing" {@link #response()}. */
    public static final class Disconnected extends IOException {
        private static final long serialVersionUID = 1L;

        Disconnected() {
            super("the client closed the connection", null);
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this; // an expected event: no stack trace to capture
        }
    }

    /** Maps {@link Disconnected} quietly (no log, no {@code failure()}) to a {@value #STATUS} response. */
    public static final class Mapper implements ExceptionMapper<Disconnected> {
        @Override
        public Response toResponse(Disconnected exception) {
            return Response.status(STATUS).build();
        }
    }
}
