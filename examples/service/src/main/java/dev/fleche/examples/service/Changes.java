package dev.fleche.examples.service;

import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.core.Response;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The clients waiting in {@code GET /changes} (long-polls), resumed together when a to-do changes. Bounded: at
 * most {@value #MAX_WAITING} wait; the next one is answered {@code 503} at once.
 */
public final class Changes {
    static final int MAX_WAITING = 10_000;

    private final ReentrantLock lock = new ReentrantLock();
    private final List<AsyncResponse> waiting = new ArrayList<>();
    private long version;

    /** Adds a waiting client; false (not added) when full. */
    boolean await(AsyncResponse response) {
        lock.lock();
        try {
            if (waiting.size() >= MAX_WAITING) {
                return false;
            }
            waiting.add(response);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** A waiting client left or timed out. */
    void forget(AsyncResponse response) {
        lock.lock();
        try {
            waiting.remove(response);
        } finally {
            lock.unlock();
        }
    }

    /** Something changed: every waiting client gets {@code {"version":N,"change":"..."}}. */
    void changed(String what) {
        List<AsyncResponse> resumed;
        long now;
        lock.lock();
        try {
            now = ++version;
            resumed = new ArrayList<>(waiting);
            waiting.clear();
        } finally {
            lock.unlock();
        }
        Response answer = Response.ok(new Change(now, what)).build();
        for (AsyncResponse response : resumed) {
            response.resume(answer);
        }
    }

    /** Clients waiting now. */
    public int waiting() {
        lock.lock();
        try {
            return waiting.size();
        } finally {
            lock.unlock();
        }
    }

    /** What a long-poll receives. */
    public record Change(long version, String change) {
    }
}
