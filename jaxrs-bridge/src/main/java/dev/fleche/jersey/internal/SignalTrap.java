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

    /** Installs the handlers; {@code action} runs at most once, on a thread named {@code fleche-drain}. */
    public static void install(Runnable action, Runnable onRepeat) {
        AtomicBoolean fired = new AtomicBoolean();
        for (String name : new String[] {"TERM", "INT"}) {
            Signal.handle(new Signal(name), signal -> {
                if (fired.compareAndSet(false, true)) {
                    Thread thread = new Thread(action, "fleche-drain");
                    thread.start();
                } else {
                    onRepeat.run();
                }
            });
        }
    }
}
