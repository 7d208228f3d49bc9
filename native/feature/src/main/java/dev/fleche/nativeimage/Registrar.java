package dev.fleche.nativeimage;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;

/**
 * Where the rules put what they register: the builder's registries in an image build ({@link Builder}), a list in
 * the tests. One method per kind of metadata the rules use.
 */
interface Registrar {
    /** The class itself: its name, annotations, generic signature, enclosing and nested classes. */
    void type(Class<?> type);

    /** Queries of all its declared and public constructors, methods and fields (not their invocation). */
    void queries(Class<?> type);

    void constructors(Constructor<?>... constructors);

    void methods(Method... methods);

    /** Read and written (final ones too: injection and Jackson set them). */
    void fields(Field... fields);

    void recordComponents(Class<?> type);

    /** A lookup by name that may find nothing (then it answers "no such method", not "not registered"). */
    void methodLookup(Class<?> type, String name, Class<?>... parameterTypes);

    void constructorLookup(Class<?> type, Class<?>... parameterTypes);

    void classLookup(String name);

    /** A dynamic proxy class implementing these interfaces, in this order. */
    void proxy(Class<?>... interfaces);

    void resource(Module module, String path);

    /** A resource bundle in these locales. */
    void resourceBundle(Module module, String name, java.util.Collection<java.util.Locale> locales);

    /** The registrar of an image build: the builder's registries. */
    final class Builder implements Registrar {
        @Override
        public void type(Class<?> type) {
            org.graalvm.nativeimage.hosted.RuntimeReflection.register(type);
        }

        @Override
        public void queries(Class<?> type) {
            org.graalvm.nativeimage.hosted.RuntimeReflection.registerAllDeclaredConstructors(type);
            org.graalvm.nativeimage.hosted.RuntimeReflection.registerAllConstructors(type);
            org.graalvm.nativeimage.hosted.RuntimeReflection.registerAllDeclaredMethods(type);
            org.graalvm.nativeimage.hosted.RuntimeReflection.registerAllMethods(type);
            org.graalvm.nativeimage.hosted.RuntimeReflection.registerAllDeclaredFields(type);
            org.graalvm.nativeimage.hosted.RuntimeReflection.registerAllFields(type);
        }

        @Override
        public void constructors(Constructor<?>... constructors) {
            org.graalvm.nativeimage.hosted.RuntimeReflection.register(constructors);
        }

        @Override
        public void methods(Method... methods) {
            org.graalvm.nativeimage.hosted.RuntimeReflection.register(methods);
        }

        @Override
        public void fields(Field... fields) {
            org.graalvm.nativeimage.hosted.RuntimeReflection.register(true, fields);
        }

        @Override
        public void recordComponents(Class<?> type) {
            org.graalvm.nativeimage.hosted.RuntimeReflection.registerAllRecordComponents(type);
        }

        @Override
        public void methodLookup(Class<?> type, String name, Class<?>... parameterTypes) {
            org.graalvm.nativeimage.hosted.RuntimeReflection.registerMethodLookup(type, name, parameterTypes);
        }

        @Override
        public void constructorLookup(Class<?> type, Class<?>... parameterTypes) {
            org.graalvm.nativeimage.hosted.RuntimeReflection.registerConstructorLookup(type, parameterTypes);
        }

        @Override
        public void classLookup(String name) {
            org.graalvm.nativeimage.hosted.RuntimeReflection.registerClassLookup(name);
        }

        @Override
        public void proxy(Class<?>... interfaces) {
            org.graalvm.nativeimage.hosted.RuntimeProxyCreation.register(interfaces);
        }

        @Override
        public void resource(Module module, String path) {
            org.graalvm.nativeimage.hosted.RuntimeResourceAccess.addResource(module, path);
        }

        @Override
        public void resourceBundle(Module module, String name, java.util.Collection<java.util.Locale> locales) {
            org.graalvm.nativeimage.hosted.RuntimeResourceAccess.addResourceBundle(module, name,
                    locales.toArray(java.util.Locale[]::new));
        }
    }
}
