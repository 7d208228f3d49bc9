package dev.fleche.nativeimage;

import org.graalvm.nativeimage.hosted.Feature.BeforeAnalysisAccess;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;

/**
 * Jersey's service files in the image. Jersey finds its extensions ({@code AutoDiscoverable}s, the injection
 * manager, the container and web-server providers, ...) by reading {@code META-INF/services/<interface>} as a
 * resource and loading each class it names ({@code ServiceFinder}, not {@code java.util.ServiceLoader}, so the
 * builder's own service handling does not see them). For every such file on the class path whose interface is
 * Jersey's, HK2's or Jakarta REST's, this includes the file as a resource and registers the classes it names for
 * lookup by name and construction — exactly what Jersey would load from it on the JVM.
 */
final class ServiceFiles {
    private static final String PREFIX = "META-INF/services/";

    private ServiceFiles() {
    }

    static void register(BeforeAnalysisAccess access, Registrar registrar) {
        Module unnamed = access.getApplicationClassLoader().getUnnamedModule();
        for (Path entry : access.getApplicationClassPath()) {
            for (String file : serviceFiles(entry)) {
                String service = file.substring(PREFIX.length());
                if (!isJerseys(service)) {
                    continue;
                }
                registrar.resource(unnamed, file);
                for (String name : classNames(access.getApplicationClassLoader(), file)) {
                    Class<?> provider = access.findClassByName(name);
                    registrar.classLookup(name);
                    if (provider == null) {
                        continue;
                    }
                    registrar.type(provider);
                    try {
                        registrar.constructors(provider.getDeclaredConstructors());
                    } catch (LinkageError e) {
                        // a provider whose constructors name absent classes: Jersey skips it on the JVM too
                    }
                }
            }
        }
    }

    static boolean isJerseys(String service) {
        return service.startsWith("org.glassfish.jersey.") || service.startsWith("org.glassfish.hk2.")
                || service.startsWith("jakarta.ws.rs.");
    }

    private static List<String> serviceFiles(Path entry) {
        List<String> files = new ArrayList<>();
        for (String name : ClassPathFiles.names(entry)) {
            if (name.startsWith(PREFIX) && name.length() > PREFIX.length() && name.indexOf('/', PREFIX.length()) < 0) {
                files.add(name);
            }
        }
        return files;
    }

    /** The class names in every copy of the service file the class loader sees (comments and blanks skipped). */
    private static List<String> classNames(ClassLoader loader, String file) {
        List<String> names = new ArrayList<>();
        try {
            Enumeration<java.net.URL> copies = loader.getResources(file);
            while (copies.hasMoreElements()) {
                try (InputStream in = copies.nextElement().openStream();
                     BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                        int comment = line.indexOf('#');
                        String name = (comment < 0 ? line : line.substring(0, comment)).trim();
                        if (!name.isEmpty() && !names.contains(name)) {
                            names.add(name);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
        return names;
    }
}
