package dev.fleche.validation.internal;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.ElementKind;
import jakarta.validation.Path;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.MatrixParam;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;

import java.lang.annotation.Annotation;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Describes constraint violations of resource methods the way a client sees the request: where the value came
 * from ({@code in}: path, matrix, query, header, cookie, form or body), its parameter {@code name} or, inside the
 * body, its property {@code path} ({@code items[0].name}), the interpolated {@code message} and, when safe, the
 * {@code rejected} value.
 *
 * <p>A violation's property path starts with the method and parameter nodes ({@code create.arg0.items[0].name});
 * the parameter's JAX-RS annotation, looked up on the method or the method it implements, gives {@code in} and
 * {@code name}. An unannotated parameter is the entity.
 */
final class Violations {
    private static final List<String> ORDER = List.of("path", "matrix", "query", "header", "cookie", "form", "body");

    private Violations() {
    }

    /** Whether any violation is of a return value (the server's fault: 500). */
    static boolean anyReturnValue(Set<? extends ConstraintViolation<?>> violations) {
        for (ConstraintViolation<?> v : violations) {
            for (Path.Node node : v.getPropertyPath()) {
                if (node.getKind() == ElementKind.RETURN_VALUE) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The {@code errors} entries, sorted by {@code in}, then name or path, then message. */
    static List<Map<String, Object>> errors(Set<? extends ConstraintViolation<?>> violations) {
        List<Map<String, Object>> errors = new ArrayList<>(violations.size());
        for (ConstraintViolation<?> v : violations) {
            errors.add(describe(v));
        }
        errors.sort(Comparator.comparingInt((Map<String, Object> e) -> rank((String) e.get("in")))
                .thenComparing(e -> String.valueOf(e.containsKey("name") ? e.get("name") : e.get("path")))
                .thenComparing(e -> String.valueOf(e.get("message"))));
        return errors;
    }

    private static int rank(String in) {
        int i = ORDER.indexOf(in);
        return i < 0 ? ORDER.size() : i;
    }

    static Map<String, Object> describe(ConstraintViolation<?> v) {
        Iterator<Path.Node> nodes = v.getPropertyPath().iterator();
        Source source = Source.BODY_ROOT;
        if (nodes.hasNext()) {
            Path.Node first = nodes.next();
            if (first.getKind() == ElementKind.METHOD && nodes.hasNext()) {
                source = parameterSource(v.getRootBeanClass(), first.as(Path.MethodNode.class), nodes);
            } else if (first.getKind() == ElementKind.PROPERTY) {
                source = fieldSource(v.getRootBeanClass(), first.getName(), nodes);
            } else {
                source = new Source("request", first.getName(), true);
            }
        }
        String rest = render(nodes);
        String where = source.name.isEmpty() && rest.startsWith(".") ? rest.substring(1) : source.name + rest;
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("in", source.in);
        error.put(source.isParameter ? "name" : "path", where);
        error.put("message", v.getMessage());
        Object rejected = Secrets.echoable(where, v.getInvalidValue());
        if (rejected != null) {
            error.put("rejected", rejected);
        }
        return error;
    }

    /** Where the value came from; {@code name} is the parameter name or the start of the body path. */
    private record Source(String in, String name, boolean isParameter) {
        static final Source BODY_ROOT = new Source("body", "", false);
    }

    private static Source parameterSource(Class<?> resource, Path.MethodNode methodNode, Iterator<Path.Node> nodes) {
        Path.Node param = nodes.next();
        if (param.getKind() == ElementKind.CROSS_PARAMETER) {
            return new Source("parameters", "", true);
        }
        if (param.getKind() != ElementKind.PARAMETER) {
            return new Source("request", param.getName(), true);
        }
        int index = param.as(Path.ParameterNode.class).getParameterIndex();
        Annotation[] annotations = parameterAnnotations(resource, methodNode.getName(),
                methodNode.getParameterTypes().toArray(new Class<?>[0]), index);
        Source source = sourceOf(annotations, param.getName());
        if (source != null && "bean".equals(source.in) && nodes.hasNext()) {
            Method method = findMethod(resource, methodNode.getName(),
                    methodNode.getParameterTypes().toArray(new Class<?>[0]));
            Class<?> beanType = method != null ? method.getParameterTypes()[index] : Object.class;
            return fieldSource(beanType, nodes.next().getName(), nodes);
        }
        return source != null ? source : Source.BODY_ROOT;
    }

    /** A constrained field of a resource or {@code @BeanParam} class: its own parameter annotation, if any. */
    private static Source fieldSource(Class<?> type, String property, Iterator<Path.Node> nodes) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            try {
                Field field = c.getDeclaredField(property);
                Source source = sourceOf(field.getAnnotations(), property);
                if (source != null && !"bean".equals(source.in)) {
                    return source;
                }
                break;
            } catch (NoSuchFieldException e) {
                // look further up
            }
        }
        return new Source("request", property, true);
    }

    private static Source sourceOf(Annotation[] annotations, String fallbackName) {
        for (Annotation a : annotations) {
            if (a instanceof PathParam p) {
                return new Source("path", p.value(), true);
            } else if (a instanceof QueryParam q) {
                return new Source("query", q.value(), true);
            } else if (a instanceof HeaderParam h) {
                return new Source("header", h.value(), true);
            } else if (a instanceof FormParam f) {
                return new Source("form", f.value(), true);
            } else if (a instanceof CookieParam c) {
                return new Source("cookie", c.value(), true);
            } else if (a instanceof MatrixParam m) {
                return new Source("matrix", m.value(), true);
            } else if (a instanceof BeanParam) {
                return new Source("bean", fallbackName, true);
            } else if (a.annotationType().getName().equals("org.glassfish.jersey.media.multipart.FormDataParam")) {
                return new Source("form", annotationValue(a, fallbackName), true);
            } else if (a.annotationType().getName().equals("jakarta.ws.rs.core.Context")
                    || a.annotationType().getName().equals("jakarta.ws.rs.container.Suspended")) {
                return new Source("request", fallbackName, true);
            }
        }
        return null;
    }

    private static String annotationValue(Annotation a, String fallback) {
        try {
            return String.valueOf(a.annotationType().getMethod("value").invoke(a));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return fallback;
        }
    }

    /**
     * The annotations of parameter {@code index} of the method, taken from the first declaration in the type
     * hierarchy (class, superclasses, interfaces) that carries a JAX-RS parameter annotation, as JAX-RS
     * annotation inheritance does.
     */
    private static Annotation[] parameterAnnotations(Class<?> type, String name, Class<?>[] types, int index) {
        Annotation[] found = null;
        for (Method m : declarations(type, name, types)) {
            Annotation[] annotations = m.getParameterAnnotations()[index];
            if (found == null) {
                found = annotations;
            }
            if (sourceOf(annotations, "") != null) {
                return annotations;
            }
        }
        return found != null ? found : new Annotation[0];
    }

    private static Method findMethod(Class<?> type, String name, Class<?>[] types) {
        List<Method> all = declarations(type, name, types);
        return all.isEmpty() ? null : all.get(0);
    }

    private static List<Method> declarations(Class<?> type, String name, Class<?>[] types) {
        List<Method> out = new ArrayList<>(2);
        collect(type, name, types, out, 0);
        return out;
    }

    private static void collect(Class<?> type, String name, Class<?>[] types, List<Method> out, int depth) {
        if (type == null || type == Object.class || depth > 16) {
            return;
        }
        try {
            out.add(type.getDeclaredMethod(name, types));
        } catch (NoSuchMethodException e) {
            // not declared here
        }
        collect(type.getSuperclass(), name, types, out, depth + 1);
        for (Class<?> i : type.getInterfaces()) {
            collect(i, name, types, out, depth + 1);
        }
    }

    /** The rest of a property path as {@code .a[0].b}, {@code [key]}; container-element names are left out. */
    static String render(Iterator<Path.Node> nodes) {
        StringBuilder out = new StringBuilder();
        while (nodes.hasNext()) {
            Path.Node node = nodes.next();
            if (node.isInIterable()) {
                out.append('[').append(node.getIndex() != null ? node.getIndex()
                        : node.getKey() != null ? node.getKey() : "").append(']');
            }
            String name = node.getName();
            if (name != null && !name.isEmpty() && !name.startsWith("<") && node.getKind() != ElementKind.BEAN) {
                out.append('.').append(name);
            }
        }
        return out.toString();
    }
}
