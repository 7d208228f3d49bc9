package dev.fleche.jersey.internal;

import org.glassfish.jersey.server.ManagedAsyncExecutor;
import org.glassfish.jersey.spi.ExecutorServiceProvider;

import java.util.concurrent.ExecutorService;

/**
 * Jersey's managed asynchronous executor on virtual threads, one per task. Jersey runs {@code @ManagedAsync}
 * resource methods and every {@code SseEventSink.send} of an {@code SseBroadcaster} on that executor; its default is
 * a cached pool of platform threads, which a broadcast to thousands of clients grows to a hundred threads and more.
 * Registered by {@link ContainerFeatures} when the runtime has virtual threads, the application does not turn them
 * off ({@code jersey.config.threads.use.virtual=false}) and brings no {@code @ManagedAsyncExecutor} provider of its
 * own.
 */
@ManagedAsyncExecutor
public final class VirtualManagedAsyncExecutor implements ExecutorServiceProvider {
    @Override
    public ExecutorService getExecutorService() {
        ExecutorService executor = Workers.VirtualThreads.newPerTaskExecutor();
        if (executor == null) {
            throw new IllegalStateException("virtual threads are not available on this runtime");
        }
        return executor;
    }

    @Override
    public void dispose(ExecutorService executorService) {
        executorService.shutdown();
    }
}
