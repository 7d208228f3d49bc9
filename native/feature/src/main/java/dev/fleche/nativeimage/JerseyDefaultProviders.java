package dev.fleche.nativeimage;

import com.oracle.svm.core.annotate.Substitute;
import com.oracle.svm.core.annotate.TargetClass;

import java.util.function.BooleanSupplier;

/**
 * In a native image, Jersey's default entity providers for {@code javax.xml.transform.Source} (DOM, SAX, stream),
 * {@code jakarta.activation.DataSource} and {@code java.awt.image.RenderedImage} are not bound: Jersey binds them
 * by class when their types exist ({@code MessagingBinders.EnabledProvidersBinder}), which would bring
 * {@code java.xml}'s transformers and {@code java.desktop}'s image I/O into every image (about 9 MB of code) for
 * entities few services use. An application that does use one registers it like any provider
 * ({@code register(SourceProvider.SourceWriter.class)}); the Feature then keeps it. On the JVM nothing changes.
 */
final class JerseyDefaultProviders {
    private JerseyDefaultProviders() {
    }

    /** Whether the Jersey on the class path has the binder (3.1 and 4.0 do). */
    static final class Present implements BooleanSupplier {
        @Override
        public boolean getAsBoolean() {
            try {
                Class.forName("org.glassfish.jersey.message.internal.MessagingBinders$EnabledProvidersBinder", false,
                        JerseyDefaultProviders.class.getClassLoader());
                return true;
            } catch (ClassNotFoundException e) {
                return false;
            }
        }
    }

    @TargetClass(className = "org.glassfish.jersey.internal.inject.AbstractBinder", onlyWith = Present.class)
    static final class TargetAbstractBinder {
    }

    @TargetClass(className = "org.glassfish.jersey.message.internal.MessagingBinders$EnabledProvidersBinder",
            onlyWith = Present.class)
    static final class TargetEnabledProvidersBinder {
        /** Binds none of the optional default providers (nor warns that their types are missing). */
        @Substitute
        @SuppressWarnings("unused")
        private void bindToBinder(TargetAbstractBinder binder) {
        }
    }
}
