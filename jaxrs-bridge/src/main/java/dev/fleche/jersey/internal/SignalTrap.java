package dev.fleche.jersey.internal;

import sun.misc.Signal;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs an action on its own thread when the process gets SIGTERM or SIGINT, in place of the JVM's default (which
 * runs the shutdown hooks and exits with 143 or 130). A second signal runs {@code onRepeat} (e.g. skip the
 * drain's delay). Uses {@code sun.misc.Signal} (module {@code jdk.unsupported}): the JDK has no public API to
 * handle a signal and choose the exit status.
 */
public final class SignalTrap {
    private SignalTrap() {
    }

    /**
     * Installs the handlers; {@code action} runs at most once, on a non-daemon thread named {@code fleche-drain} in
     * the thread group of the caller. Not the signal thread's (the system group): a launcher that waits for its own
     * group's threads before it closes the application's class loader ({@code mvn exec:java}) then waits for the
     * drain too, instead of pulling classes from under it ({@code NoClassDefFoundError}).
     */
    public static void install(Runnable action, Runnable onRepeat) {
        AtomicBoolean fired = new AtomicBoolean();
        ThreadGroup group = Thread.currentThread().getThreadGroup();
        for (String name : new String[] {"TERM", "INT"}) {
            Signal.handle(new Signal(name), signal -> {
                if (fired.compareAndSet(false, true)) {
                    Thread thread = new Thread(group, action, "fleche-drain");
                    // not a daemon like the signal thread that creates it: the JVM must not end (its last other
                    // threads, the reactors, stop during the drain) before the action has run to the end
                    thread.setDaemon(false);
                    thread.start();
                } else {
                    onRepeat.run();
                }
            });
        }
    }
}
