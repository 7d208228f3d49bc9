package dev.fleche.conformance.tck.report;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Summarises a TCK run from Surefire's XML reports: per top-level TCK package the tests in total, excluded (with
 * the reasons from {@code tck-exclusions.txt}), disabled by the TCK itself, run, passed and failed; then the
 * failing tests with their messages, and a closing line {@code TCK: N passed, N failed, N skipped}. Writes it to
 * a Markdown file and to standard output, and fails (throws) when a test failed, when nothing ran, or when an
 * exclusion entry matched no test of a class that ran (a stale entry).
 *
 * <p>Arguments: {@code reportsDir exclusionsFiles summaryFile [censusFile leg]} (exclusion files separated by
 * commas). With a census (the container's
 * count of requests by protocol version and client, {@code ProtocolCensus}) the summary gets a "Requests by
 * protocol" table; on the {@code h2c} leg the run also fails unless the Jakarta REST client's requests all arrived
 * as HTTP/2 and there was at least one (the {@code http1} leg only reports).
 */
public final class TckSummary {
    /** Start of the skip message of an excluded test (see the test-side {@code TckExclusions}). */
    public static final String EXCLUDED_PREFIX = "EXCLUDED by tck-exclusions.txt: ";
    private static final String TCK_PACKAGE = "ee.jakarta.tck.ws.rs.";

    enum Outcome { PASSED, FAILED, EXCLUDED, DISABLED }

    record TestResult(String className, String name, Outcome outcome, String message, double seconds) {
        String id() {
            return className + "#" + name;
        }

        String area() {
            String rest = className.startsWith(TCK_PACKAGE) ? className.substring(TCK_PACKAGE.length()) : className;
            int dot = rest.indexOf('.');
            return dot < 0 ? "(default)" : rest.substring(0, dot);
        }
    }

    static final class Counts {
        int total;
        int excluded;
        int disabled;
        int passed;
        int failed;

        void add(Outcome outcome) {
            total++;
            switch (outcome) {
                case PASSED -> passed++;
                case FAILED -> failed++;
                case EXCLUDED -> excluded++;
                case DISABLED -> disabled++;
            }
        }

        int run() {
            return passed + failed;
        }
    }

    private TckSummary() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3 && args.length != 5) {
            throw new IllegalArgumentException(
                    "usage: TckSummary reportsDir exclusionsFile summaryFile [censusFile http1|h2c]");
        }
        Path reports = Path.of(args[0]);
        Map<String, String> exclusions = new LinkedHashMap<>();
        for (String file : args[1].split(",")) {
            if (!file.isBlank()) {
                exclusions.putAll(readExclusions(Path.of(file.strip())));
            }
        }
        List<TestResult> results = read(reports);
        StringBuilder out = new StringBuilder();
        List<String> problems = render(reports, results, exclusions, out);
        if (args.length == 5) {
            StringBuilder census = new StringBuilder();
            problems.addAll(census(Path.of(args[3]), args[4], census));
            out.insert(out.lastIndexOf("\nTCK: "), census);
        }
        Path summary = Path.of(args[2]);
        Files.createDirectories(summary.toAbsolutePath().getParent());
        Files.writeString(summary, out, StandardCharsets.UTF_8);
        System.out.print(out);
        System.out.flush();
        if (!problems.isEmpty()) {
            throw new IllegalStateException("TCK run failed: " + String.join("; ", problems) + " (see " + summary
                    + ")");
        }
    }

    /**
     * The TCK's web client logs why a response did not validate ("[WebValidatorBase] Unexpected Status Code ...")
     * between "STARTING TEST : name()" and "FINISHED TEST : name()" in the class's output file; its exception
     * message says only "failed". Returns that line, or null.
     */
    static String validatorLine(Path reports, TestResult test) {
        if (reports == null) {
            return null;
        }
        Path output = reports.resolve(test.className() + "-output.txt");
        if (!Files.isRegularFile(output)) {
            return null;
        }
        try (Stream<String> lines = Files.lines(output, StandardCharsets.UTF_8)) {
            boolean inside = false;
            for (String line : (Iterable<String>) lines::iterator) {
                if (line.contains("STARTING TEST : " + test.name() + "()")) {
                    inside = true;
                } else if (inside && line.contains("FINISHED TEST : " + test.name() + "()")) {
                    return null;
                } else if (inside && (line.contains("[WebValidatorBase]") || line.contains("[JaxrsWebTestCase]"))
                        && !line.contains("received expected")) {
                    return line.substring(line.indexOf('['));
                }
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            return null;
        }
        return null;
    }

    static List<String> render(List<TestResult> results, Map<String, String> exclusions, StringBuilder out) {
        return render(null, results, exclusions, out);
    }

    static List<String> render(Path reports, List<TestResult> results, Map<String, String> exclusions,
                               StringBuilder out) {
        Map<String, Counts> perArea = new TreeMap<>();
        Counts all = new Counts();
        Map<String, String> excludedSeen = new LinkedHashMap<>();
        List<TestResult> failures = new ArrayList<>();
        java.util.Set<String> classesRun = new java.util.HashSet<>();
        double seconds = 0;
        for (TestResult r : results) {
            perArea.computeIfAbsent(r.area(), a -> new Counts()).add(r.outcome());
            all.add(r.outcome());
            classesRun.add(r.className());
            seconds += r.seconds();
            if (r.outcome() == Outcome.FAILED) {
                failures.add(r);
            } else if (r.outcome() == Outcome.EXCLUDED) {
                excludedSeen.put(r.id(), r.message());
            }
        }

        out.append("# Jakarta REST TCK on Fleche\n\n");
        out.append("| package | total | excluded | disabled by the TCK | run | passed | failed |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|\n");
        perArea.forEach((area, c) -> row(out, "`" + area + "`", c));
        row(out, "**all**", all);
        out.append(String.format(Locale.ROOT, "%nTest time (sum of classes): %.0f s.%n", seconds));

        out.append("\n## Excluded (").append(all.excluded).append(")\n\n");
        if (excludedSeen.isEmpty()) {
            out.append("None.\n");
        }
        excludedSeen.forEach((id, message) -> out.append("- `").append(id).append("`: ")
                .append(message.startsWith(EXCLUDED_PREFIX) ? message.substring(EXCLUDED_PREFIX.length()) : message)
                .append('\n'));

        out.append("\n## Failed (").append(all.failed).append(")\n\n");
        if (failures.isEmpty()) {
            out.append("None.\n");
        }
        for (TestResult f : failures) {
            String why = validatorLine(reports, f);
            // The TCK's web client throws "... failed!  Check output for cause of failure."; the cause is the
            // validator's line in the output file. Other failures carry their own message.
            String text = why != null && f.message().contains("Check output for cause of failure")
                    ? why : why != null ? f.message() + " — " + why : f.message();
            out.append("- `").append(f.id()).append("`: ").append(oneLine(text)).append('\n');
        }

        List<String> problems = new ArrayList<>();
        List<String> stale = new ArrayList<>();
        exclusions.forEach((id, reason) -> {
            String className = id.substring(0, id.indexOf('#'));
            if (classesRun.contains(className) && !excludedSeen.containsKey(id)) {
                stale.add(id);
            }
        });
        if (!stale.isEmpty()) {
            out.append("\n## Stale exclusions (").append(stale.size()).append(")\n\n");
            stale.forEach(id -> out.append("- `").append(id).append("` matched no test of a class that ran\n"));
            problems.add(stale.size() + " stale exclusion(s)");
        }
        if (all.failed > 0) {
            problems.add(all.failed + " test(s) failed");
        }
        if (all.run() == 0) {
            problems.add("no TCK test ran");
        }
        out.append('\n').append("TCK: ").append(all.passed).append(" passed, ").append(all.failed)
                .append(" failed, ").append(all.excluded + all.disabled).append(" skipped\n");
        return problems;
    }

    /**
     * Renders the container's protocol census ({@code version<TAB>client<TAB>count} lines) and returns the
     * problems: on the {@code h2c} leg, a request of the Jakarta REST client that did not arrive as HTTP/2, or no
     * HTTP/2 request at all.
     */
    static List<String> census(Path file, String leg, StringBuilder out) throws IOException {
        List<String> problems = new ArrayList<>();
        out.append("\n## Requests by protocol (").append(leg).append(" leg, counted by the server)\n\n");
        if (!Files.exists(file)) {
            out.append("No census was written (").append(file).append(").\n");
            if ("h2c".equals(leg)) {
                problems.add("no protocol census: cannot tell that the requests were HTTP/2");
            }
            return problems;
        }
        out.append("| version | client | requests |\n|---|---|---:|\n");
        long http2 = 0;
        long restNotHttp2 = 0;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String[] f = line.split("\t");
            if (f.length != 3) {
                continue;
            }
            long count = Long.parseLong(f[2]);
            out.append("| ").append(f[0]).append(" | ").append(f[1]).append(" | ").append(count).append(" |\n");
            if (f[0].equals("HTTP/2")) {
                http2 += count;
            } else if (f[1].equals("jakarta-rest-client")) {
                restNotHttp2 += count;
            }
        }
        if ("h2c".equals(leg)) {
            if (http2 == 0) {
                problems.add("no request arrived as HTTP/2 on the h2c leg");
            }
            if (restNotHttp2 > 0) {
                problems.add(restNotHttp2 + " request(s) of the Jakarta REST client arrived as HTTP/1.x on the h2c leg");
            }
        }
        return problems;
    }

    private static void row(StringBuilder out, String label, Counts c) {
        out.append("| ").append(label).append(" | ").append(c.total).append(" | ").append(c.excluded).append(" | ")
                .append(c.disabled).append(" | ").append(c.run()).append(" | ").append(c.passed).append(" | ")
                .append(c.failed).append(" |\n");
    }

    private static String oneLine(String message) {
        String m = message == null ? "" : message.replaceAll("\\s+", " ").strip();
        return m.length() > 400 ? m.substring(0, 400) + " …" : m;
    }

    static Map<String, String> readExclusions(Path file) throws IOException {
        Map<String, String> entries = new LinkedHashMap<>();
        if (!Files.exists(file)) {
            return entries;
        }
        for (String line : Files.readAllLines(file)) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            int bar = l.indexOf('|');
            String selector = (bar < 0 ? l : l.substring(0, bar)).strip();
            if (selector.contains("#")) {
                entries.put(selector, bar < 0 ? "" : l.substring(bar + 1).strip());
            }
        }
        return entries;
    }

    static List<TestResult> read(Path reports) throws Exception {
        List<Path> files;
        try (Stream<Path> list = Files.list(reports)) {
            files = list.filter(p -> p.getFileName().toString().startsWith("TEST-")
                    && p.getFileName().toString().endsWith(".xml")).sorted().toList();
        }
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        List<TestResult> results = new ArrayList<>();
        for (Path file : files) {
            Document document = factory.newDocumentBuilder().parse(file.toFile());
            NodeList cases = document.getElementsByTagName("testcase");
            for (int i = 0; i < cases.getLength(); i++) {
                Element testcase = (Element) cases.item(i);
                results.add(result(testcase));
            }
        }
        return results;
    }

    private static TestResult result(Element testcase) {
        String className = testcase.getAttribute("classname");
        String name = testcase.getAttribute("name");
        double seconds = parseTime(testcase.getAttribute("time"));
        Outcome outcome = Outcome.PASSED;
        String message = "";
        for (Node child = testcase.getFirstChild(); child != null; child = child.getNextSibling()) {
            if (!(child instanceof Element element)) {
                continue;
            }
            switch (element.getTagName()) {
                case "failure", "error" -> {
                    outcome = Outcome.FAILED;
                    String type = element.getAttribute("type");
                    String text = element.getAttribute("message");
                    message = (type.isEmpty() ? "" : type + ": ") + text;
                }
                case "skipped" -> {
                    if (outcome != Outcome.FAILED) {
                        message = element.getAttribute("message");
                        outcome = message.startsWith(EXCLUDED_PREFIX) ? Outcome.EXCLUDED : Outcome.DISABLED;
                    }
                }
                default -> {
                    // system-out, system-err, rerun elements: not outcomes
                }
            }
        }
        return new TestResult(className, name, outcome, message, seconds);
    }

    private static double parseTime(String value) {
        try {
            return value.isEmpty() ? 0 : Double.parseDouble(value.replace(",", ""));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
