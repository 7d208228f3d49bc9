package dev.fleche.transport.internal.channel;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import javax.net.ssl.SSLEngine;

/**
 * The delegated tasks of one {@link TlsChannel}'s engine (key exchange, certificate checks): taken from the engine
 * when its handshake says {@code NEED_TASK}, run off the reactor on the {@code tasks} executor ({@link HandshakeTasks};
 * on the calling thread when its queue is full: slower for everyone, never lost), then {@code done} runs on the
 * reactor. Owns nothing between two batches; the channel is in its {@code TASK} phase while one runs, and never named
 * here: it gives its {@code done} step, made once.
 */
final class DelegatedTasks {
    private final SSLEngine engine;
    private final Executor tasks;
    private final Executor reactor;
    private final Runnable done;

    /**
     * @param engine  the channel's engine
     * @param tasks   runs the tasks off the reactor
     * @param reactor runs a task on the channel's reactor (queue and wake it)
     * @param done    the channel's step once the tasks ran, on the reactor
     */
    DelegatedTasks(SSLEngine engine, Executor tasks, Executor reactor, Runnable done) {
        this.engine = engine;
        this.tasks = tasks;
        this.reactor = reactor;
        this.done = done;
    }

    /** Takes the engine's tasks and runs them off the reactor; {@code done} follows on the reactor. */
    void start() {
        List<Runnable> pending = new ArrayList<>(2);
        for (Runnable task = engine.getDelegatedTask(); task != null; task = engine.getDelegatedTask()) {
            pending.add(task);
        }
        Runnable runAll = () -> {
            for (Runnable task : pending) {
                task.run();
            }
        };
        try {
            tasks.execute(() -> {
                try {
                    runAll.run();
                } finally {
                    reactor.execute(done);
                }
            });
        } catch (RejectedExecutionException e) {
            runAll.run();
            reactor.execute(done);
        }
    }
}
