package dev.fleche.nativeimage;

import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The reflection a Jakarta REST application on Jersey needs in a native image, for the classes the image reaches
 * ({@link JaxrsReachabilityFeature} calls {@link #reached} for each): no configuration file, no package lists; each
 * class is registered by what it is:
 *
 * <table>
 *   <caption>What is registered, and why</caption>
 *   <tr><th>class</th><th>registered</th><th>because</th></tr>
 *   <tr><td>a component: {@code @Path}, {@code @Provider}, or implementing a Jakarta REST provider, filter,
 *       interceptor or feature interface, or a Jersey or HK2 {@code @Contract} interface</td><td>all of its
 *       hierarchy below {@code Object} for queries; its constructors, fields, resource methods and injected
 *       methods for use (the rest is compiled only if called)</td><td>Jersey builds its model from them
 *       reflectively, HK2 constructs and injects them, resource methods are invoked through
 *       {@code Method.invoke}</td></tr>
 *   <tr><td>a class with injection points ({@code @Inject}, {@code @Context}, {@code @PostConstruct},
 *       {@code @PreDestroy} on a member), a class nested in a binder, an HK2 {@code Factory} or Jersey
 *       {@code DisposableSupplier}</td><td>its constructors and the annotated members</td><td>HK2 finds
 *       and calls them reflectively (binders bind their helpers by class)</td></tr>
 *   <tr><td>an entity type: a resource method's body parameter or return type (with its type arguments), a
 *       record or class nested in a component, a class with Jackson annotations, and the types of their
 *       properties, transitively</td><td>constructors, fields, methods, record components</td><td>Jackson
 *       reads and writes them through reflection</td></tr>
 *   <tr><td>a parameter type of {@code @QueryParam}, {@code @PathParam}, ... (boxed)</td><td>{@code valueOf},
 *       {@code fromString}, {@code parse} and the {@code String} constructor, where they exist</td><td>Jersey's
 *       parameter converters look them up by name</td></tr>
 *   <tr><td>a record in the package of a component (not nested in it), once both are reached</td><td>as an
 *       entity</td><td>an application builds such records in a helper and returns them inside a {@code Response}
 *       or resumes an {@code AsyncResponse} with them: no signature names them, Jackson writes them</td></tr>
 *   <tr><td>an interface injected through {@code @Context} or {@code @Inject}</td><td>a dynamic proxy of it
 *       with HK2's {@code ProxyCtl}</td><td>HK2 proxies request-scoped objects injected into singletons</td></tr>
 * </table>
 *
 * Jersey's service files are {@link ServiceFiles}' job; Bean Validation's view of the same classes is
 * {@link ValidationRules}'.
 */
final class JaxrsRules {
    private static final Set<String> COMPONENT_ANNOTATIONS = Set.of("jakarta.ws.rs.Path", "jakarta.ws.rs.ext.Provider");
    private static final Set<String> COMPONENT_INTERFACES = Set.of(
            "jakarta.ws.rs.ext.MessageBodyReader", "jakarta.ws.rs.ext.MessageBodyWriter",
            "jakarta.ws.rs.ext.ExceptionMapper", "jakarta.ws.rs.ext.ContextResolver",
            "jakarta.ws.rs.ext.ParamConverterProvider", "jakarta.ws.rs.ext.ReaderInterceptor",
            "jakarta.ws.rs.ext.WriterInterceptor", "jakarta.ws.rs.container.ContainerRequestFilter",
            "jakarta.ws.rs.container.ContainerResponseFilter", "jakarta.ws.rs.container.DynamicFeature",
            "jakarta.ws.rs.core.Feature", "jakarta.ws.rs.client.ClientRequestFilter",
            "jakarta.ws.rs.client.ClientResponseFilter", "org.glassfish.jersey.internal.spi.AutoDiscoverable",
            "org.glassfish.jersey.internal.spi.ForcedAutoDiscoverable",
            "org.glassfish.jersey.server.spi.ContainerLifecycleListener",
            "org.glassfish.jersey.server.model.ModelProcessor",
            "org.glassfish.jersey.server.monitoring.ApplicationEventListener",
            "org.glassfish.jersey.server.monitoring.RequestEventListener",
            "org.glassfish.jersey.server.spi.ComponentProvider",
            "org.glassfish.jersey.spi.ExceptionMappers");
    private static final Set<String> COMPONENT_SUPERCLASSES = Set.of("jakarta.ws.rs.core.Application",
            // a binder registered as a component (new ValidationBinder()): Jersey reads its class like a provider's
            "org.glassfish.jersey.internal.inject.AbstractBinder");
    private static final Set<String> INJECTION_ANNOTATIONS = Set.of("jakarta.inject.Inject", "jakarta.ws.rs.core.Context",
            "jakarta.annotation.PostConstruct", "jakarta.annotation.PreDestroy", "jakarta.ws.rs.BeanParam");
    private static final Set<String> PARAM_ANNOTATIONS = Set.of("jakarta.ws.rs.QueryParam", "jakarta.ws.rs.PathParam",
            "jakarta.ws.rs.HeaderParam", "jakarta.ws.rs.CookieParam", "jakarta.ws.rs.FormParam",
            "jakarta.ws.rs.MatrixParam", "jakarta.ws.rs.DefaultValue");
    private static final Set<String> HTTP_METHOD = Set.of("jakarta.ws.rs.HttpMethod");
    private static final Set<String> CONTRACT = Set.of("org.glassfish.jersey.spi.Contract",
            "org.jvnet.hk2.annotations.Contract");
    private static final Set<String> BINDERS = Set.of("org.glassfish.jersey.internal.inject.AbstractBinder",
            "org.glassfish.hk2.utilities.binding.AbstractBinder");
    private static final Set<String> FACTORIES = Set.of("org.glassfish.hk2.api.Factory",
            "org.glassfish.jersey.internal.inject.DisposableSupplier");

    private final Set<Class<?>> done = ConcurrentHashMap.newKeySet();
    private final Set<Type> entities = ConcurrentHashMap.newKeySet();
    private final Set<Class<?>> proxies = ConcurrentHashMap.newKeySet();
    /** The packages of the components reached, and the records reached in other packages so far (by package). */
    private final Set<String> componentPackages = new java.util.HashSet<>();
    private final java.util.Map<String, java.util.List<Class<?>>> waitingRecords = new java.util.HashMap<>();

    private final Registrar registrar;
    private final Class<?> proxyCtl;

    /** Rules registering into {@code registrar}; {@code proxyCtl} is HK2's ProxyCtl interface, null without HK2. */
    JaxrsRules(Registrar registrar, Class<?> proxyCtl) {
        this.registrar = registrar;
        this.proxyCtl = proxyCtl;
    }

    /** Registers what {@code type}, just reached by the image, needs (once per class). */
    void reached(Class<?> type) {
        if (type.isArray() || type.isPrimitive() || isJdk(type) || !done.add(type)) {
            return;
        }
        try {
            if (isComponent(type)) {
                component(type);
                componentPackage(type);
            } else if (hasInjectionPoints(type) || isBound(type)) {
                injectable(type);
            }
            if (hasJacksonAnnotations(type)) {
                entity(type);
            }
            if (type.isRecord()) {
                record(type);
            }
        } catch (LinkageError | TypeNotPresentException e) {
            // A class whose members name classes absent from the class path: nothing of it can be reflected on.
        }
    }

    // ---------------------------------------------------------------- what a class is

    static boolean isJdk(Class<?> type) {
        String name = type.getName();
        return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
                || name.startsWith("sun.") || name.startsWith("com.sun.") || name.startsWith("org.graalvm.")
                || name.startsWith("com.oracle.svm.");
    }

    private static boolean isComponent(Class<?> type) {
        if (type.isAnnotation() || Modifier.isAbstract(type.getModifiers()) && !type.isInterface()
                && !hasAnnotation(type, COMPONENT_ANNOTATIONS)) {
            return false;
        }
        for (Class<?> at = type; at != null && at != Object.class; at = at.getSuperclass()) {
            if (hasAnnotation(at, COMPONENT_ANNOTATIONS) || COMPONENT_SUPERCLASSES.contains(at.getName())) {
                return true;
            }
            for (Class<?> implemented : at.getInterfaces()) {
                if (implementsComponentInterface(implemented)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean implementsComponentInterface(Class<?> type) {
        // Jersey marks each of its extension points (executor providers, lifecycle listeners, ...) @Contract
        if (COMPONENT_INTERFACES.contains(type.getName()) || hasAnnotation(type, CONTRACT)) {
            return true;
        }
        for (Class<?> parent : type.getInterfaces()) {
            if (implementsComponentInterface(parent)) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasInjectionPoints(Class<?> type) {
        for (Class<?> at = type; at != null && at != Object.class; at = at.getSuperclass()) {
            for (Constructor<?> constructor : at.getDeclaredConstructors()) {
                if (hasAnnotation(constructor, INJECTION_ANNOTATIONS)) {
                    return true;
                }
            }
            for (Field field : at.getDeclaredFields()) {
                if (hasAnnotation(field, INJECTION_ANNOTATIONS)) {
                    return true;
                }
            }
            for (Method method : at.getDeclaredMethods()) {
                if (hasAnnotation(method, INJECTION_ANNOTATIONS)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * A class HK2 constructs from its class though nothing marks it: a supplier or factory (Jersey's
     * {@code bindFactory(Class)}), or any class nested in a binder (binders bind their own helpers by class).
     */
    private static boolean isBound(Class<?> type) {
        if (type.isInterface() || Modifier.isAbstract(type.getModifiers())) {
            return false;
        }
        for (Class<?> enclosing = type.getEnclosingClass(); enclosing != null; enclosing = enclosing.getEnclosingClass()) {
            for (Class<?> at = enclosing; at != null && at != Object.class; at = at.getSuperclass()) {
                if (BINDERS.contains(at.getName())) {
                    return true;
                }
            }
        }
        for (Class<?> at = type; at != null && at != Object.class; at = at.getSuperclass()) {
            for (Class<?> implemented : at.getInterfaces()) {
                if (FACTORIES.contains(implemented.getName())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean hasJacksonAnnotations(Class<?> type) {
        for (Annotation annotation : type.getDeclaredAnnotations()) {
            String name = annotation.annotationType().getName();
            if (name.startsWith("com.fasterxml.jackson.annotation.") || name.startsWith("com.fasterxml.jackson.databind.annotation.")) {
                return true;
            }
        }
        return false;
    }

    static boolean hasAnnotation(AnnotatedElement element, Set<String> names) {
        for (Annotation annotation : element.getDeclaredAnnotations()) {
            if (names.contains(annotation.annotationType().getName())) {
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- records beside components

    /**
     * A record reached: an entity when a component of its package was reached, else kept until one is. A record
     * of the application's resource packages is data the resources send (Jersey's, HK2's and the JDK's records are
     * left out by {@link #entity}); a record elsewhere (a library's) is not registered.
     */
    private void record(Class<?> type) {
        boolean now;
        synchronized (componentPackages) {
            now = componentPackages.contains(type.getPackageName());
            if (!now) {
                waitingRecords.computeIfAbsent(type.getPackageName(), p -> new java.util.ArrayList<>()).add(type);
            }
        }
        if (now) {
            entity(type);
        }
    }

    private void componentPackage(Class<?> component) {
        java.util.List<Class<?>> records;
        synchronized (componentPackages) {
            if (!componentPackages.add(component.getPackageName())) {
                return;
            }
            records = waitingRecords.remove(component.getPackageName());
        }
        if (records != null) {
            records.forEach(this::entity);
        }
    }

    // ---------------------------------------------------------------- registrations

    /**
     * A component: its hierarchy below Object queried, its constructors, fields, resource methods and injection
     * points usable; its resource methods' types; its nested types.
     */
    private void component(Class<?> type) {
        for (Class<?> at = type; at != null && at != Object.class; at = at.getSuperclass()) {
            // Every member is queried (Jersey and HK2 read them all), but only what is called reflectively is
            // registered for invocation: a method registered so is compiled whether or not the application calls
            // it, with everything it reaches (a provider's readFrom and writeTo are called through their interface,
            // so they are compiled when the provider is, and not otherwise).
            registrar.type(at);
            registrar.queries(at);
            registrar.constructors(at.getDeclaredConstructors());
            registrar.fields(at.getDeclaredFields());
            for (Method method : at.getDeclaredMethods()) {
                if (isResourceMethod(method)) {
                    registrar.methods(method);
                    resourceMethod(method);
                } else if (hasAnnotation(method, INJECTION_ANNOTATIONS) || isContextSetter(method)) {
                    registrar.methods(method);
                }
                injectionTargets(method);
            }
            for (Constructor<?> constructor : at.getDeclaredConstructors()) {
                injectionTargets(constructor);
            }
            for (Field field : at.getDeclaredFields()) {
                if (hasAnnotation(field, INJECTION_ANNOTATIONS)) {
                    proxyOf(field.getType());
                }
            }
            for (Class<?> nested : at.getDeclaredClasses()) {
                if (nested.isRecord() || Modifier.isStatic(nested.getModifiers()) && !nested.isInterface()
                        && !nested.isEnum() && !isComponent(nested)) {
                    entity(nested);
                }
            }
        }
        // Jersey looks each method of a provider up on its interfaces too (their annotations): the interfaces'
        // methods, for lookups that find them or, rightly, do not
        for (Class<?> at = type; at != null && at != Object.class; at = at.getSuperclass()) {
            for (Class<?> implemented : at.getInterfaces()) {
                interfaces(implemented);
            }
        }
    }

    private void interfaces(Class<?> type) {
        registrar.type(type);
        registrar.queries(type);
        for (Class<?> parent : type.getInterfaces()) {
            interfaces(parent);
        }
    }

    private void everything(Class<?> type) {
        registrar.type(type);
        registrar.queries(type);
        registrar.constructors(type.getDeclaredConstructors());
        registrar.methods(type.getDeclaredMethods());
        registrar.fields(type.getDeclaredFields());
    }

    /** HK2's view of a class: its constructors and its annotated injection points, through its hierarchy. */
    private void injectable(Class<?> type) {
        for (Class<?> at = type; at != null && at != Object.class; at = at.getSuperclass()) {
            registrar.type(at);
            registrar.queries(at);
            registrar.constructors(at.getDeclaredConstructors());
            for (Constructor<?> constructor : at.getDeclaredConstructors()) {
                injectionTargets(constructor);
            }
            for (Field field : at.getDeclaredFields()) {
                if (hasAnnotation(field, INJECTION_ANNOTATIONS)) {
                    registrar.fields(field);
                    proxyOf(field.getType());
                }
            }
            for (Method method : at.getDeclaredMethods()) {
                if (hasAnnotation(method, INJECTION_ANNOTATIONS)) {
                    registrar.methods(method);
                    injectionTargets(method);
                }
            }
        }
    }

    /** A setter Jersey injects into: {@code @Context} on it or on its parameter. */
    private static boolean isContextSetter(Method method) {
        for (Annotation[] parameter : method.getParameterAnnotations()) {
            for (Annotation annotation : parameter) {
                if (INJECTION_ANNOTATIONS.contains(annotation.annotationType().getName())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean isResourceMethod(Method method) {
        if (hasAnnotation(method, Set.of("jakarta.ws.rs.Path"))) {
            return true;
        }
        for (Annotation annotation : method.getDeclaredAnnotations()) {
            if (hasAnnotation(annotation.annotationType(), HTTP_METHOD)) {
                return true;
            }
        }
        return false;
    }

    /** A resource method: its body parameter and return types are entities, its parameters' types converted. */
    private void resourceMethod(Method method) {
        entityType(method.getGenericReturnType());
        Type[] types = method.getGenericParameterTypes();
        Annotation[][] annotations = method.getParameterAnnotations();
        for (int i = 0; i < types.length && i < annotations.length; i++) {
            boolean annotated = false;
            for (Annotation annotation : annotations[i]) {
                String name = annotation.annotationType().getName();
                annotated |= name.startsWith("jakarta.ws.rs.") || name.equals("jakarta.inject.Inject");
                if (PARAM_ANNOTATIONS.contains(name)) {
                    converted(types[i]);
                }
                if (name.equals("jakarta.ws.rs.core.Context")) {
                    proxyOf(method.getParameterTypes()[i]);
                }
                if (name.equals("jakarta.ws.rs.BeanParam")) {
                    component(method.getParameterTypes()[i]);
                }
            }
            if (!annotated) {
                entityType(types[i]);
            }
        }
    }

    private void injectionTargets(Executable executable) {
        Annotation[][] annotations = executable.getParameterAnnotations();
        Class<?>[] types = executable.getParameterTypes();
        for (int i = 0; i < annotations.length && i < types.length; i++) {
            for (Annotation annotation : annotations[i]) {
                String name = annotation.annotationType().getName();
                if (name.equals("jakarta.ws.rs.core.Context")) {
                    proxyOf(types[i]);
                } else if (PARAM_ANNOTATIONS.contains(name)) {
                    converted(executable.getGenericParameterTypes().length == types.length
                            ? executable.getGenericParameterTypes()[i] : types[i]);
                }
            }
        }
    }

    /** What Jersey's parameter converters look up by name on a parameter type (and on a collection's elements). */
    private void converted(Type type) {
        if (type instanceof ParameterizedType parameterized) {
            for (Type argument : parameterized.getActualTypeArguments()) {
                converted(argument);
            }
            converted(parameterized.getRawType());
            return;
        }
        if (!(type instanceof Class<?> raw)) {
            return;
        }
        Class<?> boxed = box(raw);
        registrar.type(boxed);
        for (String name : new String[] {"valueOf", "fromString", "parse"}) {
            for (Class<?> argument : new Class<?>[] {String.class, CharSequence.class}) {
                try {
                    registrar.methods(boxed.getDeclaredMethod(name, argument));
                } catch (NoSuchMethodException e) {
                    registrar.methodLookup(boxed, name, argument);
                }
            }
        }
        try {
            registrar.constructors(boxed.getDeclaredConstructor(String.class));
        } catch (NoSuchMethodException e) {
            registrar.constructorLookup(boxed, String.class);
        }
    }

    private static Class<?> box(Class<?> type) {
        if (!type.isPrimitive()) {
            return type;
        }
        return switch (type.getName()) {
            case "int" -> Integer.class;
            case "long" -> Long.class;
            case "boolean" -> Boolean.class;
            case "double" -> Double.class;
            case "float" -> Float.class;
            case "short" -> Short.class;
            case "byte" -> Byte.class;
            case "char" -> Character.class;
            default -> Void.class;
        };
    }

    /** A dynamic proxy of an injected interface and HK2's ProxyCtl (HK2's proxy of a request-scoped object). */
    private void proxyOf(Class<?> type) {
        if (type.isInterface() && proxyCtl != null && proxies.add(type)) {
            registrar.proxy(type, proxyCtl);
        }
    }

    private void entityType(Type type) {
        if (type instanceof Class<?> raw) {
            if (raw.isArray()) {
                entityType(raw.getComponentType());
            } else {
                entity(raw);
            }
        } else if (type instanceof ParameterizedType parameterized) {
            entityType(parameterized.getRawType());
            for (Type argument : parameterized.getActualTypeArguments()) {
                entityType(argument);
            }
        } else if (type instanceof GenericArrayType array) {
            entityType(array.getGenericComponentType());
        } else if (type instanceof WildcardType wildcard) {
            for (Type bound : wildcard.getUpperBounds()) {
                entityType(bound);
            }
        } else if (type instanceof TypeVariable<?> variable) {
            for (Type bound : variable.getBounds()) {
                entityType(bound);
            }
        }
    }

    /**
     * A type Jackson (or another entity provider) reads or writes: its constructors, fields, methods and record
     * components, then the types of its properties. JDK types and Jakarta REST's own (Response, ...) have
     * built-in handling and are left out.
     */
    private void entity(Class<?> type) {
        if (type.isPrimitive() || type.isAnnotation() || isJdk(type) || type.getName().startsWith("jakarta.")
                || type.getName().startsWith("org.glassfish.") || !entities.add(type)) {
            return;
        }
        for (Class<?> at = type; at != null && at != Object.class && !isJdk(at); at = at.getSuperclass()) {
            everything(at);
            if (at.isRecord()) {
                registrar.recordComponents(at);
                for (RecordComponent component : at.getRecordComponents()) {
                    entityType(component.getGenericType());
                }
            }
            for (Field field : at.getDeclaredFields()) {
                if (!Modifier.isStatic(field.getModifiers())) {
                    entityType(field.getGenericType());
                }
            }
            for (Method method : at.getDeclaredMethods()) {
                if (Modifier.isPublic(method.getModifiers()) && !Modifier.isStatic(method.getModifiers())
                        && method.getParameterCount() == 0 && method.getReturnType() != void.class) {
                    entityType(method.getGenericReturnType());
                }
            }
        }
        if (type.isRecord()) { // Jackson walks the type's supertypes, java.lang.Record included
            registrar.type(Record.class);
            registrar.queries(Record.class);
        }
    }
}
