import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

import java.io.PrintWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * Runs one test class COUNT times in one JVM, each run with its test classes loaded by a fresh class loader (so
 * static state starts anew), stopping at the first failure. Used by {@code repeat-test.sh --in-jvm}.
 *
 *   java -cp MAIN_AND_DEPENDENCIES .ci/RepeatInJvm.java CLASS COUNT TEST_CLASS_PATH
 */
public class RepeatInJvm {
    public static void main(String[] args) throws Exception {
        String className = args[0];
        int count = Integer.parseInt(args[1]);
        List<URL> urls = new ArrayList<>();
        for (String entry : args[2].split(":")) {
            urls.add(Path.of(entry).toUri().toURL());
        }
        Launcher launcher = LauncherFactory.create();
        long started = System.nanoTime();
        for (int run = 1; run <= count; run++) {
            try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new),
                    RepeatInJvm.class.getClassLoader())) {
                Thread.currentThread().setContextClassLoader(loader);
                SummaryGeneratingListener listener = new SummaryGeneratingListener();
                launcher.execute(LauncherDiscoveryRequestBuilder.request()
                        .selectors(selectClass(loader.loadClass(className))).build(), listener);
                TestExecutionSummary summary = listener.getSummary();
                if (summary.getTotalFailureCount() > 0 || summary.getTestsSucceededCount() == 0) {
                    summary.printFailuresTo(new PrintWriter(System.out, true), 40);
                    System.out.println("FAILED at run " + run + " of " + count + " (" + className + ")");
                    System.exit(1);
                }
                System.out.printf("run %d/%d passed (%d tests, %d s)%n", run, count,
                        summary.getTestsSucceededCount(), (System.nanoTime() - started) / 1_000_000_000L);
            }
        }
        System.out.println(count + " passed, 0 failed: " + className + ", " + count + " runs in a row in one JVM");
    }
}
