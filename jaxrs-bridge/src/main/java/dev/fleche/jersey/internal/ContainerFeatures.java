package dev.fleche.jersey.internal;

import jakarta.ws.rs.RuntimeType;
import jakarta.ws.rs.core.Configuration;
import jakarta.ws.rs.core.FeatureContext;
import org.glassfish.jersey.internal.spi.ForcedAutoDiscoverable;
import org.glassfish.jersey.server.ManagedAsyncExecutor;
import org.glassfish.jersey.spi.ExecutorServiceProvider;

/**
 * Registers what the Fleche container needs inside every server application: the quiet mapper of
 * {@link ClientGone}, the buffered-entity limit and quiet mapper of refused bodies ({@link EntityLimit}), in an application the
 * container builds ({@link ServedByFleche}) the {@link LengthBuffer} that learns a small response's length in place
 * of Jersey's buffer and the {@link StringBodyWriter} that writes a {@code String} entity without Jersey's per-response encoder, and — on a
 * runtime with virtual threads, unless the application turns them off or has its own
 * — the {@link VirtualManagedAsyncExecutor}. Found through {@code META-INF/services} (forced: it applies even when
 * the application turns auto-discovery off); does nothing on a client runtime.
 */
public final class ContainerFeatures implements ForcedAutoDiscoverable {
    @Override
    public void configure(FeatureContext context) {
        Configuration configuration = context.getConfiguration();
        if (configuration.getRuntimeType() != RuntimeType.SERVER) {
            return;
        }
        if (!configuration.isRegistered(ClientGone.Mapper.class)) {
            context.register(ClientGone.Mapper.class);
        }
        if (!configuration.isRegistered(EntityLimit.class)) {
            context.register(EntityLimit.class);
            context.register(EntityLimit.Mapper.class);
        }
        if (ServedByFleche.building()) {
            registerEntityWriting(context, configuration);
        }
        if (Workers.virtualThreadsWanted(configuration.getProperties()) && !hasManagedAsyncExecutor(configuration)
                && Workers.VirtualThreads.available()) {
            context.register(VirtualManagedAsyncExecutor.class);
        }
    }

    /** The container's own ways of writing an entity: {@link LengthBuffer} and {@link StringBodyWriter}. */
    private static void registerEntityWriting(FeatureContext context, Configuration configuration) {
        if (!configuration.isRegistered(LengthBuffer.class)) {
            int limit = LengthBuffer.limit(configuration);
            if (limit > 0) {
                context.register(new LengthBuffer(limit));
                context.register(new EntityStreamProbe.Install());
            }
        }
        if (!configuration.isRegistered(StringBodyWriter.class)) {
            context.register(new StringBodyWriter());
        }
    }

    private static boolean hasManagedAsyncExecutor(Configuration configuration) {
        for (Class<?> type : configuration.getClasses()) {
            if (isManagedAsyncExecutor(type)) {
                return true;
            }
        }
        for (Object instance : configuration.getInstances()) {
            if (isManagedAsyncExecutor(instance.getClass())) {
                return true;
            }
        }
        return false;
    }

    private static boolean isManagedAsyncExecutor(Class<?> type) {
        return ExecutorServiceProvider.class.isAssignableFrom(type) && type.isAnnotationPresent(ManagedAsyncExecutor.class);
    }
}
