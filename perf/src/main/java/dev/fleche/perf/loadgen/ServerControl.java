package dev.fleche.perf.loadgen;

import java.io.IOException;
import java.time.Duration;

/**
 * The control requests the {@link Engine} sends to the server under test, each a blocking {@link BlockingHttp}
 * exchange on the engine's thread: the counts of waiting long polls ({@link Engine#WAITING_PATH}) and of SSE
 * subscribers ({@link Engine#SUBSCRIBERS_SUFFIX}), and the broadcasts that resume the polls
 * ({@link Engine#BROADCAST_PATH}) or send one event to the streams ({@link Engine#BROADCAST_SUFFIX}). Each answers
 * {@code 200} with a decimal count in its body.
 */
final class ServerControl {
    private final LoadSpec spec;

    ServerControl(LoadSpec spec) {
        this.spec = spec;
    }

    /** LONG_POLL: how many polls the server holds, or -1 when it did not answer a count. */
    long waiting() {
        return count(Engine.WAITING_PATH);
    }

    /** SSE: how many streams the server counts subscribed to the spec's path. */
    long subscribers() throws IOException {
        String path = spec.path() + Engine.SUBSCRIBERS_SUFFIX;
        long count = count(path);
        if (count < 0) {
            throw new IOException("GET " + path + " did not answer a count");
        }
        return count;
    }

    /** LONG_POLL: resumes every waiting poll; returns how many the server resumed. */
    long resumePolls() throws IOException {
        return broadcast(Engine.BROADCAST_PATH);
    }

    /** SSE: has the server send one event to every stream; returns the count it answers. */
    long broadcastEvent() throws IOException {
        return broadcast(spec.path() + Engine.BROADCAST_SUFFIX);
    }

    /** {@code GET path} answered with a number: the number, else -1. */
    private long count(String path) {
        try {
            BlockingHttp.Response r = BlockingHttp.get(spec.host(), spec.port(), path, Duration.ofSeconds(10));
            return r.status() == 200 ? Long.parseLong(r.bodyText().trim()) : -1;
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    private long broadcast(String path) throws IOException {
        BlockingHttp.Response r = BlockingHttp.exchange(spec.host(), spec.port(), "POST", path, null, null,
                spec.timeout());
        if (r.status() != 200) {
            throw new IOException("POST " + path + " answered " + r.status());
        }
        try {
            return Long.parseLong(r.bodyText().trim());
        } catch (NumberFormatException e) {
            throw new IOException("POST " + path + " answered '" + r.bodyText() + "', not a count", e);
        }
    }
}
