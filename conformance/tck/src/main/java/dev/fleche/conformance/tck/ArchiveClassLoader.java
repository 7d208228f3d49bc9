package dev.fleche.conformance.tck;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/**
 * The class loader of one deployed web archive, over its exploded {@code WEB-INF/classes} and
 * {@code WEB-INF/lib/*.jar}. Like a servlet container's web-application loader it looks in the archive first
 * (so each deployment gets its own copies of its classes and static state, as in a real container), except for the
 * platform and the Jakarta/Java APIs, which always come from the parent so that the application and Jersey agree on
 * {@code jakarta.ws.rs.*}. Classes the archive lacks come from the parent (the test class path).
 */
final class ArchiveClassLoader extends URLClassLoader {
    static {
        registerAsParallelCapable();
    }

    ArchiveClassLoader(String name, URL[] urls, ClassLoader parent) {
        super(name, urls, parent);
    }

    private static boolean parentOnly(String name) {
        return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jakarta.")
                || name.startsWith("jdk.") || name.startsWith("sun.") || name.startsWith("org.glassfish.")
                || name.startsWith("org.jboss.") || name.startsWith("dev.fleche.");
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (parentOnly(name)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> loaded = findLoadedClass(name);
            if (loaded == null) {
                try {
                    loaded = findClass(name);
                } catch (ClassNotFoundException notInArchive) {
                    return super.loadClass(name, resolve);
                }
            }
            if (resolve) {
                resolveClass(loaded);
            }
            return loaded;
        }
    }

    @Override
    public URL getResource(String name) {
        URL own = findResource(name);
        return own != null ? own : super.getResource(name);
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
        List<URL> all = new ArrayList<>(Collections.list(findResources(name)));
        ClassLoader parent = getParent();
        if (parent != null) {
            for (URL url : Collections.list(parent.getResources(name))) {
                if (!all.contains(url)) {
                    all.add(url);
                }
            }
        }
        return Collections.enumeration(all);
    }
}
