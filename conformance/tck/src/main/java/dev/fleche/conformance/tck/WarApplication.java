package dev.fleche.conformance.tck;

import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.ext.Provider;
import org.jboss.arquillian.container.spi.client.container.DeploymentException;
import org.jboss.shrinkwrap.api.Archive;
import org.jboss.shrinkwrap.api.ArchivePath;
import org.jboss.shrinkwrap.api.Node;
import org.jboss.shrinkwrap.api.exporter.ExplodedExporter;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What a web archive deploys, read the way a servlet container with Jersey would (Jakarta REST 3.1, section 2.3.2
 * "Servlet"):
 *
 * <ul>
 *   <li>context root: {@code /} + the archive name without {@code .war};</li>
 *   <li>a {@code web.xml} servlet with the init parameter {@code jakarta.ws.rs.Application} serves that
 *   {@code Application} subclass; a servlet <em>named</em> after an {@code Application} subclass (pluggability,
 *   no servlet class) serves that class; in both cases under the servlet's URL pattern ({@code /*} → the
 *   context root, {@code /x/*} → {@code /x}), and the other init parameters become application properties;</li>
 *   <li>without such a servlet, the one {@code Application} subclass in {@code WEB-INF/classes}, under its
 *   {@code @ApplicationPath};</li>
 *   <li>with neither, no application: the context root exists and answers {@code 404};</li>
 *   <li>the archive's {@code @Path} and {@code @Provider} classes are served when the {@code Application} returns
 *   no classes and no singletons.</li>
 * </ul>
 *
 * The archive is exploded into a temporary directory and loaded by an {@link ArchiveClassLoader}; {@link #close()}
 * releases both.
 */
final class WarApplication implements AutoCloseable {
    static final String APPLICATION_PARAM = "jakarta.ws.rs.Application";

    private final String archiveName;
    private final String contextRoot;
    private final String mappingPath;
    private final boolean servletMapped;
    private final Class<? extends Application> applicationClass;
    private final Map<String, Object> properties;
    private final Set<Class<?>> annotatedClasses;
    private final ArchiveClassLoader loader;
    private final Path directory;

    private WarApplication(String archiveName, String contextRoot, String mappingPath, boolean servletMapped,
                           Class<? extends Application> applicationClass, Map<String, Object> properties,
                           Set<Class<?>> annotatedClasses, ArchiveClassLoader loader, Path directory) {
        this.archiveName = archiveName;
        this.contextRoot = contextRoot;
        this.mappingPath = mappingPath;
        this.servletMapped = servletMapped;
        this.applicationClass = applicationClass;
        this.properties = properties;
        this.annotatedClasses = annotatedClasses;
        this.loader = loader;
        this.directory = directory;
    }

    /** The archive's name ({@code foo.war}). */
    String archiveName() {
        return archiveName;
    }

    /** {@code /foo} for {@code foo.war}. */
    String contextRoot() {
        return contextRoot;
    }

    /**
     * The root path to serve the application under: context root + servlet mapping (the application's
     * {@code @ApplicationPath} is added below it by Fleche when there is no mapping).
     */
    String rootPath() {
        return contextRoot + mappingPath;
    }

    /** The application to serve; null for an archive without one (then only its context root exists). */
    Class<? extends Application> applicationClass() {
        return applicationClass;
    }

    /** Whether a web.xml servlet mapping decides the path (else the application's {@code @ApplicationPath}). */
    boolean servletMapped() {
        return servletMapped;
    }

    /** The servlet init parameters other than the application class: Jersey takes them as properties. */
    Map<String, Object> properties() {
        return properties;
    }

    /**
     * The archive's classes annotated with {@code @Path} or {@code @Provider}: what a servlet container's
     * {@code @HandlesTypes} scan hands to Jersey, which serves them when the {@code Application} returns no
     * classes and no singletons (Jakarta REST 3.1, 2.3.2).
     */
    Set<Class<?>> annotatedClasses() {
        return annotatedClasses;
    }

    ClassLoader loader() {
        return loader;
    }

    static WarApplication read(Archive<?> archive, Path tempRoot) throws DeploymentException {
        String name = archive.getName();
        if (!name.endsWith(".war")) {
            throw new DeploymentException("only web archives (.war) can be deployed on Fleche, got " + name);
        }
        String contextRoot = "/" + name.substring(0, name.length() - ".war".length());
        WebXml webXml = webXml(archive);

        Path directory;
        ArchiveClassLoader loader;
        try {
            directory = Files.createTempDirectory(tempRoot, "war-");
            File exploded = archive.as(ExplodedExporter.class).exportExploded(directory.toFile(), "app");
            loader = new ArchiveClassLoader(name, classPath(exploded.toPath()),
                    WarApplication.class.getClassLoader());
        } catch (IOException e) {
            throw new DeploymentException("cannot explode " + name + ": " + e.getMessage(), e);
        }
        try {
            Set<Class<?>> annotated = annotatedClasses(archive, loader);
            for (WebXml.ServletDef servlet : webXml.servlets()) {
                Class<? extends Application> app = applicationOf(servlet, loader);
                if (app == null) {
                    continue;
                }
                Map<String, Object> properties = new LinkedHashMap<>(servlet.initParams());
                properties.remove(APPLICATION_PARAM);
                return new WarApplication(name, contextRoot, mappingPath(servlet), true, app, properties,
                        annotated, loader, directory);
            }
            Class<? extends Application> app = scanForApplication(archive, loader);
            return new WarApplication(name, contextRoot, "", false, app, Map.of(), annotated, loader,
                    directory);
        } catch (DeploymentException | RuntimeException e) {
            closeQuietly(loader);
            delete(directory);
            throw e;
        }
    }

    private static WebXml webXml(Archive<?> archive) throws DeploymentException {
        Node node = archive.get("/WEB-INF/web.xml");
        if (node == null || node.getAsset() == null) {
            return WebXml.NONE;
        }
        try (InputStream in = node.getAsset().openStream()) {
            return WebXml.parse(in);
        } catch (Exception e) {
            throw new DeploymentException("cannot read WEB-INF/web.xml of " + archive.getName() + ": " + e, e);
        }
    }

    private static URL[] classPath(Path exploded) throws IOException {
        List<URL> urls = new ArrayList<>();
        Path classes = exploded.resolve("WEB-INF/classes");
        if (Files.isDirectory(classes)) {
            urls.add(classes.toUri().toURL());
        }
        Path lib = exploded.resolve("WEB-INF/lib");
        if (Files.isDirectory(lib)) {
            try (Stream<Path> jars = Files.list(lib)) {
                for (Path jar : jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList()) {
                    urls.add(jar.toUri().toURL());
                }
            }
        }
        return urls.toArray(URL[]::new);
    }

    /** The application a web.xml servlet serves, or null if it serves none. */
    private static Class<? extends Application> applicationOf(WebXml.ServletDef servlet, ClassLoader loader)
            throws DeploymentException {
        String param = servlet.initParams().get(APPLICATION_PARAM);
        if (param != null) {
            Class<? extends Application> app = applicationClass(param, loader);
            if (app == null) {
                throw new DeploymentException("servlet " + servlet.name() + ": " + param
                        + " is not a jakarta.ws.rs.core.Application subclass");
            }
            return app;
        }
        if (servlet.className() == null) {
            return applicationClass(servlet.name(), loader); // pluggability: servlet named after the Application
        }
        return applicationClass(servlet.className(), loader); // an Application subclass as servlet class
    }

    @SuppressWarnings("unchecked")
    private static Class<? extends Application> applicationClass(String name, ClassLoader loader) {
        try {
            Class<?> type = Class.forName(name, false, loader);
            return Application.class.isAssignableFrom(type) && type != Application.class
                    ? (Class<? extends Application>) type : null;
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    private static String mappingPath(WebXml.ServletDef servlet) throws DeploymentException {
        List<String> patterns = servlet.urlPatterns();
        if (patterns.isEmpty()) {
            throw new DeploymentException("servlet " + servlet.name() + " has no servlet-mapping");
        }
        if (patterns.size() > 1) {
            throw new DeploymentException("servlet " + servlet.name() + " is mapped to several URL patterns "
                    + patterns + "; one is supported");
        }
        String pattern = patterns.get(0);
        if (pattern.equals("/*") || pattern.equals("/")) {
            return "";
        }
        if (pattern.startsWith("/") && pattern.endsWith("/*")) {
            return pattern.substring(0, pattern.length() - 2);
        }
        throw new DeploymentException("servlet " + servlet.name() + ": URL pattern " + pattern
                + " is not a path prefix (/x/*)");
    }

    /** The names of the classes in {@code WEB-INF/classes}. */
    private static List<String> classNames(Archive<?> archive) {
        List<String> names = new ArrayList<>();
        String prefix = "/WEB-INF/classes/";
        for (ArchivePath path : archive.getContent().keySet()) {
            String p = path.get();
            if (p.startsWith(prefix) && p.endsWith(".class")) {
                names.add(p.substring(prefix.length(), p.length() - ".class".length()).replace('/', '.'));
            }
        }
        names.sort(null);
        return names;
    }

    private static Set<Class<?>> annotatedClasses(Archive<?> archive, ClassLoader loader) {
        Set<Class<?>> found = new LinkedHashSet<>();
        for (String className : classNames(archive)) {
            try {
                Class<?> type = Class.forName(className, false, loader);
                if (type.isAnnotationPresent(jakarta.ws.rs.Path.class) || type.isAnnotationPresent(Provider.class)) {
                    found.add(type);
                }
            } catch (ClassNotFoundException | LinkageError e) {
                // not loadable here: a servlet container's scan would skip it too
            }
        }
        return Set.copyOf(found);
    }

    /** The concrete {@code Application} subclass among the archive's classes, or null if there is none. */
    private static Class<? extends Application> scanForApplication(Archive<?> archive, ClassLoader loader)
            throws DeploymentException {
        List<Class<? extends Application>> found = new ArrayList<>();
        for (String className : classNames(archive)) {
            Class<? extends Application> app = applicationClass(className, loader);
            if (app != null && !Modifier.isAbstract(app.getModifiers())) {
                found.add(app);
            }
        }
        if (found.size() > 1) {
            throw new DeploymentException(archive.getName() + " has no web.xml servlet for an Application and "
                    + found.size() + " Application subclasses " + found + "; at most one is supported");
        }
        // None: a web application without a JAX-RS application (some client-only TCK tests deploy such archives;
        // without a servlet mapping nothing of it is served, as in a servlet container).
        return found.isEmpty() ? null : found.get(0);
    }

    @Override
    public void close() {
        closeQuietly(loader);
        delete(directory);
    }

    private static void closeQuietly(ArchiveClassLoader loader) {
        try {
            loader.close();
        } catch (IOException ignored) {
            // only open jar handles; the directory goes next
        }
    }

    private static void delete(Path directory) {
        if (directory == null || !Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException ignored) {
            // a temporary directory; the JVM's temp cleanup or the next build's clean removes it
        }
    }

    @Override
    public String toString() {
        return archiveName + " -> " + rootPath() + " ("
                + (applicationClass == null ? "no JAX-RS application" : applicationClass.getName()) + ")";
    }
}
