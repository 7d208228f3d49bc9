package dev.fleche.nativeimage;

import org.graalvm.nativeimage.hosted.Feature.BeforeAnalysisAccess;

import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * JBoss Logging's generated loggers and message bundles, which Hibernate Validator uses for every message it logs
 * or throws: {@code Logger.getMessageLogger(Log.class, ...)} loads {@code Log_$logger} by name and calls its
 * {@code (Logger)} constructor; {@code Messages.getBundle(Messages.class)} loads {@code Messages_$bundle} and reads
 * its {@code INSTANCE}. Every such generated class on the class path is registered for exactly that, once the image
 * reaches its interface (the builder's reachability callback for the interface: interfaces are no subtypes of
 * {@code Object} to the analysis, so the other rules do not see them).
 */
final class JbossLoggingRules {
    private static final String[] SUFFIXES = {"_$logger", "_$bundle"};

    private JbossLoggingRules() {
    }

    static void register(BeforeAnalysisAccess access, Registrar registrar) {
        for (Path entry : access.getApplicationClassPath()) {
            for (String name : generatedClasses(entry)) {
                String suffix = name.endsWith(SUFFIXES[0]) ? SUFFIXES[0] : SUFFIXES[1];
                Class<?> contract = access.findClassByName(name.substring(0, name.length() - suffix.length()));
                Class<?> generated = access.findClassByName(name);
                if (contract == null || generated == null) {
                    continue;
                }
                access.registerReachabilityHandler(duringAnalysis -> generated(registrar, generated), contract);
            }
        }
    }

    static void generated(Registrar registrar, Class<?> generated) {
        registrar.classLookup(generated.getName());
        registrar.type(generated);
        registrar.constructors(generated.getDeclaredConstructors());
        for (Field field : generated.getDeclaredFields()) {
            if (field.getName().equals("INSTANCE")) {
                registrar.fields(field);
            }
        }
    }

    /** The class names ending in {@code _$logger} or {@code _$bundle} in a class-path entry. */
    private static List<String> generatedClasses(Path entry) {
        List<String> names = new ArrayList<>();
        for (String file : ClassPathFiles.names(entry)) {
            add(names, file);
        }
        return names;
    }

    private static void add(List<String> names, String file) {
        if (!file.endsWith(".class")) {
            return;
        }
        String name = file.substring(0, file.length() - ".class".length()).replace('/', '.');
        for (String suffix : SUFFIXES) {
            if (name.endsWith(suffix)) {
                names.add(name);
            }
        }
    }
}
