package dev.fleche.nativeimage;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** What the rules registered, as lines ("method Foo#bar", "proxy A,B", ...), for the tests to look for. */
final class RecordingRegistrar implements Registrar {
    final Set<String> lines = new TreeSet<>();

    boolean has(String line) {
        return lines.contains(line);
    }

    boolean mentions(Class<?> type) {
        return lines.stream().anyMatch(l -> l.contains(type.getName()));
    }

    @Override
    public void type(Class<?> type) {
        lines.add("type " + type.getName());
    }

    @Override
    public void queries(Class<?> type) {
        lines.add("queries " + type.getName());
    }

    @Override
    public void constructors(Constructor<?>... constructors) {
        for (Constructor<?> c : constructors) {
            lines.add("constructor " + c.getDeclaringClass().getName() + names(c.getParameterTypes()));
        }
    }

    @Override
    public void methods(Method... methods) {
        for (Method m : methods) {
            lines.add("method " + m.getDeclaringClass().getName() + "#" + m.getName() + names(m.getParameterTypes()));
        }
    }

    @Override
    public void fields(Field... fields) {
        for (Field f : fields) {
            lines.add("field " + f.getDeclaringClass().getName() + "#" + f.getName());
        }
    }

    @Override
    public void recordComponents(Class<?> type) {
        lines.add("record " + type.getName());
    }

    @Override
    public void methodLookup(Class<?> type, String name, Class<?>... parameterTypes) {
        lines.add("lookup " + type.getName() + "#" + name + names(parameterTypes));
    }

    @Override
    public void constructorLookup(Class<?> type, Class<?>... parameterTypes) {
        lines.add("lookup " + type.getName() + "#<init>" + names(parameterTypes));
    }

    @Override
    public void classLookup(String name) {
        lines.add("class " + name);
    }

    @Override
    public void proxy(Class<?>... interfaces) {
        lines.add("proxy " + Arrays.stream(interfaces).map(Class::getName).collect(Collectors.joining(",")));
    }

    @Override
    public void resource(Module module, String path) {
        lines.add("resource " + path);
    }

    @Override
    public void resourceBundle(Module module, String name, java.util.Collection<java.util.Locale> locales) {
        lines.add("bundle " + name + " " + locales);
    }

    private static String names(Class<?>[] types) {
        return Arrays.stream(types).map(Class::getSimpleName).collect(Collectors.joining(",", "(", ")"));
    }
}
