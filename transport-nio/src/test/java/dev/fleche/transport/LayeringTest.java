package dev.fleche.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The house's layering, held against the main sources: which package of the transport may use which. The two
 * protocols never use each other; the loop and the channels use neither; nothing uses a package above it. Each
 * package's {@code package-info} says the same in words. A use is an {@code import} (static ones too) or a
 * fully-qualified name in code (comments and strings left out); a package's use of itself and of the public API
 * ({@code dev.fleche.transport}, which every package may use) is not checked. A violation fails with the file, the
 * line and what it names.
 */
@Timeout(30)
class LayeringTest {
    private static final String API = "dev.fleche.transport";
    private static final String I = API + ".internal";

    /** Each package (a sub-package counts as its parent but where it has a row of its own) and what it may use. */
    private static final Map<String, Set<String>> MAY_USE = new LinkedHashMap<>();

    static {
        // the server's wiring: names the protocols and puts the parts together
        MAY_USE.put(I, Set.of("*"));
        // the two protocols: never each other, never the wiring, files or the PROXY intake
        MAY_USE.put(I + ".http1", Set.of(I + ".exchange", I + ".loop", I + ".channel", I + ".telemetry",
                I + ".telemetry.accesslog", I + ".rules", API + ".http1"));
        MAY_USE.put(I + ".http2", Set.of(I + ".http2.hpack", I + ".exchange", I + ".loop", I + ".channel",
                I + ".telemetry", I + ".telemetry.accesslog", I + ".rules", API + ".http1"));
        MAY_USE.put(I + ".http2.hpack", Set.of());
        // static content: answers exchanges, whichever protocol carries them
        MAY_USE.put(I + ".files", Set.of(I + ".exchange", I + ".rules"));
        // the handler's view, shared by both protocols
        MAY_USE.put(I + ".exchange", Set.of(I + ".loop", I + ".channel", I + ".telemetry",
                I + ".telemetry.accesslog", I + ".rules", API + ".http1"));
        // the first stage of a connection on a PROXY protocol listener
        MAY_USE.put(I + ".proxy", Set.of(I + ".loop", I + ".channel", I + ".telemetry", I + ".telemetry.accesslog",
                I + ".rules"));
        // the loop: no protocol
        MAY_USE.put(I + ".loop", Set.of(I + ".channel", I + ".telemetry", I + ".telemetry.accesslog", I + ".rules"));
        MAY_USE.put(I + ".telemetry", Set.of(I + ".telemetry.accesslog", I + ".channel", I + ".rules",
                API + ".http1"));
        MAY_USE.put(I + ".telemetry.accesslog", Set.of(API + ".http1"));
        MAY_USE.put(I + ".rules", Set.of(API + ".http1"));
        // the byte channels: no protocol, nothing of the transport's internals
        MAY_USE.put(I + ".channel", Set.of());
        MAY_USE.put(I + ".pem", Set.of());
        // HTTP/1.1 request syntax (the parser): a leaf
        MAY_USE.put(API + ".http1", Set.of());
    }

    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern IMPORT = Pattern.compile("^import\\s+(?:static\\s+)?([\\w.]+?)(?:\\.\\*)?;");
    private static final Pattern QUALIFIED = Pattern.compile("\\b(dev\\.fleche\\.transport(?:\\.[a-z]\\w*)*)\\.[A-Z]\\w*");

    @Test
    void everyPackageUsesOnlyWhatItMay() throws IOException {
        List<String> violations = new ArrayList<>();
        Set<String> seen = new TreeSet<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String text = Files.readString(file, StandardCharsets.UTF_8);
                Matcher declared = PACKAGE.matcher(text);
                if (!declared.find()) {
                    continue; // module-info
                }
                String from = declared.group(1);
                seen.add(from);
                check(file, from, withoutCommentsAndStrings(text), violations);
            }
        }
        assertTrue(violations.isEmpty(), "uses that run against the layering:\n" + String.join("\n", violations));
        for (String pkg : seen) {
            assertTrue(pkg.equals(API) || rowOf(pkg) != null, pkg + " has no row in the layering");
        }
    }

    /** The rule catches what it is meant to: a loop class that names the HTTP/1.1 connection is refused. */
    @Test
    void aUseAgainstTheLayeringIsNamed() {
        List<String> violations = new ArrayList<>();
        check(Path.of("Reactor.java"), I + ".loop",
                "package " + I + ".loop;\n\nimport " + I + ".http1.Http1Connection;\n", violations);
        assertEquals(List.of("Reactor.java:3 " + I + ".loop uses " + I + ".http1.Http1Connection"), violations);
    }

    private static void check(Path file, String from, String code, List<String> violations) {
        String row = rowOf(from);
        String[] lines = code.split("\n", -1);
        for (int n = 0; n < lines.length; n++) {
            String line = lines[n];
            Matcher imported = IMPORT.matcher(line);
            List<String> names = new ArrayList<>();
            if (imported.find()) {
                names.add(imported.group(1));
            } else {
                Matcher qualified = QUALIFIED.matcher(line);
                while (qualified.find()) {
                    names.add(qualified.group(0));
                }
            }
            for (String name : names) {
                String to = packageOf(name);
                if (to == null || to.equals(API) || to.equals(from) || row == null) {
                    continue;
                }
                String target = rowOf(to);
                if (target == null || target.equals(row)) {
                    continue; // another module's package, or the same row (a sub-package without its own)
                }
                Set<String> allowed = MAY_USE.get(row);
                if (!allowed.contains("*") && !allowed.contains(target)) {
                    violations.add(file.getFileName() + ":" + (n + 1) + " " + from + " uses " + name);
                }
            }
        }
    }

    /** The package part of a dotted name (its segments up to the first that starts with a capital). */
    private static String packageOf(String name) {
        if (!name.startsWith(API)) {
            return null;
        }
        String[] parts = name.split("\\.");
        StringBuilder pkg = new StringBuilder();
        for (String part : parts) {
            if (Character.isUpperCase(part.charAt(0))) {
                break;
            }
            pkg.append(pkg.length() == 0 ? "" : ".").append(part);
        }
        return pkg.toString();
    }

    /** The row that governs {@code pkg}: its own, else its nearest parent's; null for the public API. */
    private static String rowOf(String pkg) {
        for (String p = pkg; p.startsWith(API + "."); p = p.substring(0, p.lastIndexOf('.'))) {
            if (MAY_USE.containsKey(p)) {
                return p;
            }
        }
        return null;
    }

    /** The code alone: comments and string literals blanked, line breaks kept (so line numbers hold). */
    private static String withoutCommentsAndStrings(String text) {
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '/' && i + 1 < text.length() && text.charAt(i + 1) == '*') {
                int end = text.indexOf("*/", i + 2);
                end = end < 0 ? text.length() : end + 2;
                text.substring(i, end).chars().filter(ch -> ch == '\n').forEach(ch -> out.append('\n'));
                i = end;
            } else if (c == '/' && i + 1 < text.length() && text.charAt(i + 1) == '/') {
                while (i < text.length() && text.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < text.length() && text.charAt(j) != c && text.charAt(j) != '\n') {
                    j += text.charAt(j) == '\\' ? 2 : 1;
                }
                out.append(c).append(c);
                i = Math.min(j + 1, text.length());
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }
}
