package dev.fleche.perf.app;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What every peer's {@code main} shares: the command line {@code PORT [HOST]} (host 127.0.0.1 by default), quiet
 * logging (java.util.logging at WARNING; SLF4J's simple logger, where a peer has it, at warn), and the
 * {@code READY <port>} line the harness waits for.
 */
public final class Peers {
    private Peers() {
    }

    /** The port: the first argument. */
    public static int port(String[] args) {
        if (args.length < 1) {
            throw new IllegalArgumentException("usage: PORT [HOST]");
        }
        return Integer.parseInt(args[0]);
    }

    /** The host to bind: the second argument, else 127.0.0.1. */
    public static String host(String[] args) {
        return args.length > 1 && !args[1].startsWith("-") ? args[1] : "127.0.0.1";
    }

    /** Logging at WARNING and above only; call first thing in {@code main}. */
    public static void quietLogging() {
        Logger.getLogger("").setLevel(Level.WARNING);
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.setProperty("org.jboss.logging.provider", "jdk");
    }

    /** Announces that the server listens. */
    public static void ready(int port) {
        System.out.println("READY " + port);
        System.out.flush();
    }
}
