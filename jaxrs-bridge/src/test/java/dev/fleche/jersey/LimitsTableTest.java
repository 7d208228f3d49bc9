package dev.fleche.jersey;

import dev.fleche.jersey.internal.Settings;
import dev.fleche.jersey.internal.Workers;
import dev.fleche.transport.MinDataRate;
import dev.fleche.transport.ProxyProtocol;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.StaticContent;
import org.glassfish.jersey.CommonProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The limits table of the transport README ("## Limits") against the code: each row's default is what
 * {@link ServerOptions} or the container really defaults to, each setting and property exists, and every limit of
 * {@link ServerOptions} has a row. Likewise its table of HTTP/2 budgets ("### HTTP/2 budgets"): each default and
 * setting as {@link ServerOptions} has it, each rule one the transport counts refusals under, and every HTTP/2
 * budget rule in a row.
 */
@Timeout(30)
class LimitsTableTest {
    /** Components of {@link ServerOptions} that are not limits. */
    private static final Set<String> NOT_LIMITS = Set.of("address", "reactors", "backlog", "errorRenderer",
            "nanoClock", "tls", "accessLog", "http2PriorKnowledge", "http2Upgrade", "http2Alpn", "staticContent",
            "proxyProtocol", "unixSocket", "unixSocketPermissions");
    /** A row whose setting is one of static content's ({@code StaticContent.maxCacheBytes}) is held against this. */
    private static final String STATIC_CONTENT = "StaticContent.";

    /**
     * Settings of the option records {@link ServerOptions} holds, written {@code Type.setting} in the table: the
     * defaults of each (what their builders give).
     */
    private static final Map<String, Object> NESTED_DEFAULTS = Map.of(
            "ProxyProtocol", ProxyProtocol.builder().trust("127.0.0.1").build());

    /** One row: limit, default, ServerOptions setting, Jersey property, beyond it. */
    private record Row(String limit, String defaultValue, String setting, String property) {
    }

    private static List<Row> table() throws Exception {
        List<String> lines = Files.readAllLines(Path.of("..", "transport-nio", "README.md"));
        int start = lines.indexOf("## Limits");
        assertTrue(start >= 0, "the transport README has a \"## Limits\" section");
        List<Row> rows = new ArrayList<>();
        boolean header = true;
        for (int i = start + 1; i < lines.size() && !lines.get(i).startsWith("## "); i++) {
            String line = lines.get(i);
            if (!line.startsWith("|")) {
                if (!rows.isEmpty()) {
                    break; // the end of the table
                }
                continue;
            }
            String[] cells = line.substring(1, line.length() - 1).split("\\|", -1);
            assertEquals(5, cells.length, line);
            if (header) {
                assertEquals("limit | default | `ServerOptions` | Jersey property | beyond it",
                        String.join("|", cells).trim().replaceAll("\\s*\\|\\s*", " | "));
                header = false;
                i++; // the separator line
                continue;
            }
            rows.add(new Row(cells[0].trim(), cells[1].trim(), code(cells[2]), code(cells[3])));
        }
        assertFalse(rows.isEmpty(), "the limits table has rows");
        return rows;
    }

    /** One row of the HTTP/2 budgets: budget, default, ServerOptions setting, rule. */
    private record Budget(String budget, String defaultValue, String setting, String rule) {
    }

    private static List<Budget> budgets() throws Exception {
        List<String> lines = Files.readAllLines(Path.of("..", "transport-nio", "README.md"));
        int start = lines.indexOf("### HTTP/2 budgets");
        assertTrue(start >= 0, "the transport README has a \"### HTTP/2 budgets\" section");
        List<Budget> rows = new ArrayList<>();
        boolean header = true;
        for (int i = start + 1; i < lines.size() && !lines.get(i).startsWith("#"); i++) {
            String line = lines.get(i);
            if (!line.startsWith("|")) {
                if (!rows.isEmpty()) {
                    break;
                }
                continue;
            }
            String[] cells = line.substring(1, line.length() - 1).split("\\|", -1);
            assertEquals(6, cells.length, line);
            if (header) {
                assertEquals("budget | what counts | default | `ServerOptions` | rule | beyond it",
                        String.join("|", cells).trim().replaceAll("\\s*\\|\\s*", " | "));
                header = false;
                i++; // the separator line
                continue;
            }
            rows.add(new Budget(cells[0].trim(), cells[2].trim(), code(cells[3]), code(cells[4])));
        }
        assertFalse(rows.isEmpty(), "the budgets table has rows");
        return rows;
    }

    @Test
    void everyHttp2BudgetIsAsTheTableSays() throws Exception {
        ServerOptions defaults = ServerOptions.builder().build();
        Set<String> rules = new HashSet<>(dev.fleche.transport.ServerMetrics.refusalRules());
        Set<String> inTable = new HashSet<>();
        for (Budget row : budgets()) {
            Object value = ServerOptions.class.getMethod(row.setting()).invoke(defaults);
            String expected = describe(row.setting(), value);
            String actual = row.defaultValue();
            java.util.regex.Matcher times = java.util.regex.Pattern.compile("(\\d+) × (.+)").matcher(actual);
            if (times.matches()) { // a multiple of its setting (the header block: twice maxHeaderBytes)
                expected = times.group(1) + " × " + expected;
            }
            assertEquals(expected, actual, row.budget());
            assertTrue(rules.contains(row.rule()), "a rule refusals are counted under: " + row.rule());
            inTable.add(row.rule());
        }
        for (String rule : rules) {
            if (rule.startsWith("HTTP2_")) {
                assertTrue(inTable.contains(rule), "no row for the HTTP/2 budget " + rule);
            }
        }
    }

    /** The name inside backticks, or null for "—". */
    private static String code(String cell) {
        String text = cell.trim();
        if (text.equals("—")) {
            return null;
        }
        assertTrue(text.startsWith("`") && text.endsWith("`"), "a name in backticks or —: " + text);
        return text.substring(1, text.length() - 1);
    }

    @Test
    void everyServerOptionsDefaultIsAsTheTableSays() throws Exception {
        ServerOptions defaults = ServerOptions.builder().build();
        for (Row row : table()) {
            if (row.setting() == null) {
                continue;
            }
            Object value;
            if (row.setting().startsWith(STATIC_CONTENT)) {
                String name = row.setting().substring(STATIC_CONTENT.length());
                value = StaticContent.class.getMethod(name).invoke(StaticContent.classPath("/s/", "static").build());
            } else {
                int dot = row.setting().indexOf('.');
                Object owner = dot < 0 ? defaults : NESTED_DEFAULTS.get(row.setting().substring(0, dot));
                assertTrue(owner != null, "a setting of ServerOptions or of " + NESTED_DEFAULTS.keySet() + ": "
                        + row.setting());
                value = owner.getClass().getMethod(row.setting().substring(dot + 1)).invoke(owner);
            }
            assertEquals(row.defaultValue(), describe(row.setting(), value), row.limit());
        }
    }

    @Test
    void everyLimitOfServerOptionsHasARow() throws Exception {
        Set<String> inTable = new HashSet<>();
        for (Row row : table()) {
            inTable.add(row.setting());
        }
        for (RecordComponent component : ServerOptions.class.getRecordComponents()) {
            if (!NOT_LIMITS.contains(component.getName())) {
                assertTrue(inTable.contains(component.getName()), "no row for ServerOptions." + component.getName());
            }
        }
        for (Map.Entry<String, Object> nested : NESTED_DEFAULTS.entrySet()) {
            for (RecordComponent component : nested.getValue().getClass().getRecordComponents()) {
                String setting = nested.getKey() + "." + component.getName();
                if (!setting.equals("ProxyProtocol.trustedSources")) { // who is trusted: not a limit
                    assertTrue(inTable.contains(setting), "no row for " + setting);
                }
            }
        }
    }

    @Test
    void everyPropertyExistsAndContainerDefaultsAreAsTheTableSays() throws Exception {
        Set<String> properties = new HashSet<>();
        for (Field field : FlecheProperties.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                properties.add((String) field.get(null));
            }
        }
        for (Row row : table()) {
            if (row.property() == null) {
                continue;
            }
            assertTrue(properties.contains(row.property()), "FlecheProperties has " + row.property());
            if (row.setting() != null) {
                continue; // its default is the ServerOptions one, checked above
            }
            String actual = switch (row.property()) {
                case FlecheProperties.NON_BLOCKING_MAX_RESPONSE_BYTES ->
                        bytes(Settings.from(Map.of()).nonBlockingLimit());
                case FlecheProperties.MAX_CONCURRENT_REQUESTS -> number(between(
                        Workers.from(Map.of(CommonProperties.USE_VIRTUAL_THREADS, true, CommonProperties.THREAD_FACTORY,
                                (java.util.concurrent.ThreadFactory) Thread::new)).describe(), "at most ", " at once"));
                case FlecheProperties.WORKER_QUEUE -> number(between(
                        Workers.from(Map.of(CommonProperties.USE_VIRTUAL_THREADS, false)).describe(), "queue ", null));
                default -> throw new AssertionError("no default known for " + row.property());
            };
            assertEquals(row.defaultValue(), actual, row.limit());
        }
    }

    private static long between(String text, String before, String after) {
        int from = text.indexOf(before) + before.length();
        int to = after == null ? text.length() : text.indexOf(after, from);
        return Long.parseLong(text.substring(from, to).trim());
    }

    /** A default as the table writes it. */
    private static String describe(String setting, Object value) {
        if (value instanceof Duration d) {
            return d.toSeconds() + " s";
        }
        if (value instanceof MinDataRate rate) {
            return rate.bytesPerSecond() + " B/s over " + rate.gracePeriod().toSeconds() + " s";
        }
        long n = ((Number) value).longValue();
        if (setting.endsWith("Bytes")) {
            return n < 0 || n == Long.MAX_VALUE ? "none" : bytes(n);
        }
        return number(n);
    }

    private static String bytes(long n) {
        if (n >= 1 << 20 && n % (1 << 20) == 0) {
            return n / (1 << 20) + " MiB";
        }
        if (n >= 1024 && n % 1024 == 0) {
            return n / 1024 + " KiB";
        }
        return number(n) + " B";
    }

    private static String number(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }
}
