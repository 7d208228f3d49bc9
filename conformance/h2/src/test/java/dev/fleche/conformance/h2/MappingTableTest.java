package dev.fleche.conformance.h2;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Holds README.md's table, which maps each of h2spec's cases to the tests that cover its requirement, against the
 * code: every case of h2spec 2.6.0 appears once (146: 44 generic, 94 http2, 8 hpack), every test the table names
 * exists and carries that case in its {@link H2spec} annotation, and every annotation appears in the table.
 */
class MappingTableTest {
    private static final Pattern ROW = Pattern.compile("^\\| `((generic|http2|hpack)/[0-9.]+/[0-9]+)` \\|.*\\| (.+) \\|$");
    private static final Pattern TEST = Pattern.compile("`(\\w+)(?:\\.(\\w+))?#(\\w+)`");

    @Test
    @DisplayName("README.md maps each of h2spec's 146 cases to tests that exist and say so")
    void tableMatchesTheTests() throws IOException, URISyntaxException {
        Map<String, Set<String>> table = table();
        assertEquals(146, table.size(), "h2spec 2.6.0 has 146 cases");
        assertEquals(44, count(table, "generic/"));
        assertEquals(94, count(table, "http2/"));
        assertEquals(8, count(table, "hpack/"));
        Map<String, Set<String>> annotated = annotations();
        Set<String> cases = new TreeSet<>(table.keySet());
        cases.addAll(annotated.keySet());
        List<String> differences = new ArrayList<>();
        for (String id : cases) {
            Set<String> inTable = table.getOrDefault(id, Set.of());
            Set<String> inCode = annotated.getOrDefault(id, Set.of());
            if (!inTable.equals(inCode)) {
                differences.add(id + ": README.md names " + inTable + ", @H2spec is on " + inCode);
            }
        }
        assertTrue(differences.isEmpty(), String.join("\n", differences));
    }

    /** The table: case -> tests, from README.md. */
    private static Map<String, Set<String>> table() throws IOException {
        Map<String, Set<String>> table = new TreeMap<>();
        for (String line : Files.readAllLines(Path.of("README.md"))) {
            Matcher row = ROW.matcher(line);
            if (!row.matches()) {
                continue;
            }
            Set<String> tests = new TreeSet<>();
            Matcher test = TEST.matcher(row.group(3));
            while (test.find()) {
                tests.add(test.group(0).replace("`", ""));
            }
            assertTrue(!tests.isEmpty(), "no test named for " + row.group(1));
            if (table.put(row.group(1), tests) != null) {
                fail(row.group(1) + " is in the table twice");
            }
        }
        return table;
    }

    /** The annotations: case -> tests, from the compiled test classes. */
    private static Map<String, Set<String>> annotations() throws IOException, URISyntaxException {
        Map<String, Set<String>> annotated = new TreeMap<>();
        for (Class<?> type : testClasses()) {
            for (Method method : type.getDeclaredMethods()) {
                H2spec cases = method.getAnnotation(H2spec.class);
                if (cases == null) {
                    continue;
                }
                String name = type.getEnclosingClass() == null ? type.getSimpleName()
                        : type.getEnclosingClass().getSimpleName() + "." + type.getSimpleName();
                for (String id : cases.value()) {
                    annotated.computeIfAbsent(id, k -> new TreeSet<>()).add(name + "#" + method.getName());
                }
            }
        }
        return annotated;
    }

    /** The classes compiled into this package's directory, nested ones included. */
    private static List<Class<?>> testClasses() throws IOException, URISyntaxException {
        Path root = Path.of(MappingTableTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path dir = root.resolve(MappingTableTest.class.getPackageName().replace('.', '/'));
        List<Class<?>> classes = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
                String simple = file.getFileName().toString().replace(".class", "");
                try {
                    classes.add(Class.forName(MappingTableTest.class.getPackageName() + "." + simple));
                } catch (ClassNotFoundException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return classes;
    }

    private static long count(Map<String, Set<String>> table, String prefix) {
        return table.keySet().stream().filter(id -> id.startsWith(prefix)).count();
    }
}
