package dev.fleche.nativeimage;

import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What Jakarta Bean Validation (Hibernate Validator) reads reflectively in an image, for the classes the image
 * reaches:
 * <ul>
 *   <li>a class with a constraint ({@code @NotBlank}, ..., any annotation meta-annotated {@code @Constraint}) or
 *       {@code @Valid} on itself, a field, a method, a constructor or a parameter: its hierarchy's fields, methods
 *       and constructors, which the validator scans for its metadata;</li>
 *   <li>each constraint annotation met on them: its attributes ({@code message()}, {@code groups()},
 *       {@code min()}, ...) and a proxy of it (the validator reads attributes reflectively and makes annotation
 *       instances of composed constraints), and the validators its {@code @Constraint(validatedBy)} names;</li>
 *   <li>a {@code ConstraintValidator} or {@code ValueExtractor} implementation (the validator's built-in ones are
 *       reachable through its own tables): its constructors, and its type arguments, which the validator reads.</li>
 * </ul>
 */
final class ValidationRules {
    private static final Set<String> CASCADE = Set.of("jakarta.validation.Valid");
    private static final String CONSTRAINT = "jakarta.validation.Constraint";
    private static final Set<String> VALIDATOR_INTERFACES = Set.of("jakarta.validation.ConstraintValidator",
            "jakarta.validation.valueextraction.ValueExtractor");

    private final Set<Class<?>> annotations = ConcurrentHashMap.newKeySet();
    private final Set<Class<?>> done = ConcurrentHashMap.newKeySet();
    private final Registrar registrar;

    ValidationRules(Registrar registrar) {
        this.registrar = registrar;
    }

    /**
     * The validator's message bundles, in every language the class path has them in (a request's
     * {@code Accept-Language} picks one): Hibernate Validator's own and the application's {@code ValidationMessages}
     * and {@code ContributorValidationMessages}.
     */
    static void bundles(org.graalvm.nativeimage.hosted.Feature.BeforeAnalysisAccess access, Registrar registrar) {
        java.util.List<String> files = new java.util.ArrayList<>();
        for (java.nio.file.Path entry : access.getApplicationClassPath()) {
            files.addAll(ClassPathFiles.names(entry));
        }
        bundles(access.getApplicationClassLoader().getUnnamedModule(), files, registrar);
    }

    /**
     * The bundles among {@code files} (resource names of the class path): each bundle with its locales, and each
     * of its {@code .properties} files as a resource. The files must be registered themselves: the builder
     * (GraalVM 25.0.4) names a bundle of the unnamed module {@code ALL-UNNAMED:<name>}, loads it at build time, but
     * finds no module of that name when it registers the bundle's files, so that without this only the languages
     * of {@code -H:IncludeResourceBundles} (English) would be found at run time.
     */
    static void bundles(Module unnamed, Iterable<String> files, Registrar registrar) {
        java.util.Map<String, java.util.Set<java.util.Locale>> found = new java.util.TreeMap<>();
        for (String file : files) {
            for (String bundle : BUNDLES) {
                String path = bundle.replace('.', '/');
                if (file.startsWith(path) && file.endsWith(".properties")) {
                    String suffix = file.substring(path.length(), file.length() - ".properties".length());
                    if (suffix.isEmpty() || suffix.startsWith("_")) {
                        found.computeIfAbsent(bundle, b -> new java.util.LinkedHashSet<>())
                                .add(suffix.isEmpty() ? java.util.Locale.ROOT
                                        : java.util.Locale.forLanguageTag(suffix.substring(1).replace('_', '-')));
                        registrar.resource(unnamed, file);
                    }
                }
            }
        }
        found.forEach((bundle, locales) -> registrar.resourceBundle(unnamed, bundle, locales));
    }

    private static final String[] BUNDLES = {"org.hibernate.validator.ValidationMessages", "ValidationMessages",
            "ContributorValidationMessages"};

    /** Registers what the validator needs of {@code type}; true when it is a constrained class or a validator. */
    boolean reached(Class<?> type) {
        if (type.isArray() || type.isPrimitive() || JaxrsRules.isJdk(type) || !done.add(type)) {
            return false;
        }
        try {
            return constrainedOrValidator(type);
        } catch (LinkageError | TypeNotPresentException e) {
            return false; // members naming classes absent from the class path: nothing to reflect on
        }
    }

    private boolean constrainedOrValidator(Class<?> type) {
        if (implementsValidator(type)) {
            validator(type);
            return true;
        }
        if (!isConstrained(type)) {
            return false;
        }
        for (Class<?> at = type; at != null && at != Object.class && !JaxrsRules.isJdk(at); at = at.getSuperclass()) {
            registrar.type(at);
            registrar.queries(at);
            registrar.fields(at.getDeclaredFields());
            registrar.methods(at.getDeclaredMethods());
            registrar.constructors(at.getDeclaredConstructors());
            for (Field field : at.getDeclaredFields()) {
                constraints(field);
            }
            for (Method method : at.getDeclaredMethods()) {
                constraints(method);
                parameters(method);
            }
            for (Constructor<?> constructor : at.getDeclaredConstructors()) {
                constraints(constructor);
                parameters(constructor);
            }
            constraints(at);
        }
        for (Class<?> implemented : type.getInterfaces()) {
            registrar.type(implemented);
            registrar.queries(implemented);
        }
        return true;
    }

    private boolean isConstrained(Class<?> type) {
        if (type.isAnnotation() || type.isInterface() && !hasConstraints(type)) {
            return false;
        }
        for (Class<?> at = type; at != null && at != Object.class; at = at.getSuperclass()) {
            if (hasConstraints(at)) {
                return true;
            }
            for (Field field : at.getDeclaredFields()) {
                if (hasConstraints(field)) {
                    return true;
                }
            }
            for (Method method : at.getDeclaredMethods()) {
                if (hasConstraints(method) || parametersHaveConstraints(method)) {
                    return true;
                }
            }
            for (Constructor<?> constructor : at.getDeclaredConstructors()) {
                if (hasConstraints(constructor) || parametersHaveConstraints(constructor)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean parametersHaveConstraints(Executable executable) {
        for (Annotation[] parameter : executable.getParameterAnnotations()) {
            for (Annotation annotation : parameter) {
                if (isConstraintOrCascade(annotation.annotationType())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean hasConstraints(AnnotatedElement element) {
        for (Annotation annotation : element.getDeclaredAnnotations()) {
            if (isConstraintOrCascade(annotation.annotationType())) {
                return true;
            }
        }
        return false;
    }

    private static boolean isConstraintOrCascade(Class<? extends Annotation> type) {
        if (CASCADE.contains(type.getName())) {
            return true;
        }
        if (JaxrsRules.hasAnnotation(type, Set.of(CONSTRAINT))) {
            return true;
        }
        // a repeatable constraint's container (@Size.List): its value() holds constraints
        try {
            Method value = type.getDeclaredMethod("value");
            Class<?> element = value.getReturnType().getComponentType();
            return element != null && element.isAnnotation()
                    && JaxrsRules.hasAnnotation(element, Set.of(CONSTRAINT));
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private void parameters(Executable executable) {
        for (Annotation[] parameter : executable.getParameterAnnotations()) {
            for (Annotation annotation : parameter) {
                annotation(annotation.annotationType());
            }
        }
    }

    private void constraints(AnnotatedElement element) {
        for (Annotation annotation : element.getDeclaredAnnotations()) {
            annotation(annotation.annotationType());
        }
    }

    /** A constraint annotation (or a group-conversion, cascade, ... annotation): its attributes and a proxy. */
    private void annotation(Class<? extends Annotation> type) {
        String name = type.getName();
        if (!(name.startsWith("jakarta.validation.") || name.startsWith("org.hibernate.validator.")
                || isConstraintOrCascade(type)) || !annotations.add(type)) {
            return;
        }
        registrar.type(type);
        registrar.queries(type);
        registrar.methods(type.getDeclaredMethods());
        registrar.proxy(type);
        for (Annotation meta : type.getDeclaredAnnotations()) {
            if (meta.annotationType().getName().equals(CONSTRAINT)) {
                try {
                    for (Class<?> validator : (Class<?>[]) meta.annotationType().getMethod("validatedBy").invoke(meta)) {
                        validator(validator);
                    }
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("cannot read @Constraint(validatedBy) of " + name, e);
                }
            }
            // composed constraints: the constraints on the constraint
            if (isConstraintOrCascade(meta.annotationType())) {
                annotation(meta.annotationType());
            }
        }
        for (Method attribute : type.getDeclaredMethods()) {
            Class<?> returned = attribute.getReturnType().isArray() ? attribute.getReturnType().getComponentType()
                    : attribute.getReturnType();
            if (returned.isAnnotation()) {
                @SuppressWarnings("unchecked")
                Class<? extends Annotation> nested = (Class<? extends Annotation>) returned;
                annotation(nested);
            }
        }
    }

    private static boolean implementsValidator(Class<?> type) {
        if (type.isInterface() || type.isAnnotation()) {
            return false;
        }
        for (Class<?> at = type; at != null && at != Object.class; at = at.getSuperclass()) {
            for (Class<?> implemented : at.getInterfaces()) {
                if (VALIDATOR_INTERFACES.contains(implemented.getName())) {
                    return true;
                }
            }
        }
        return false;
    }

    private void validator(Class<?> type) {
        for (Class<?> at = type; at != null && at != Object.class; at = at.getSuperclass()) {
            registrar.type(at);
            registrar.queries(at);
            registrar.constructors(at.getDeclaredConstructors());
        }
    }
}
