package dev.fleche.perf.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The soak's counts, thread-safe: requests sent and responses checked per kind, faults injected per kind, and the
 * problems found (wrong or malformed responses, failed exchanges), the first {@link #MAX_PROBLEMS} kept as text.
 */
final class Tally {
    static final int MAX_PROBLEMS = 20;

    private final Map<String, LongAdder> sent = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> checked = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> faults = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> outcomes = new ConcurrentHashMap<>();
    private final AtomicLong problemCount = new AtomicLong();
    private final LongAdder skipped = new LongAdder();
    private final List<String> problems = new CopyOnWriteArrayList<>();

    void sent(String kind) {
        sent.computeIfAbsent(kind, k -> new LongAdder()).increment();
    }

    void checked(String kind) {
        checked.computeIfAbsent(kind, k -> new LongAdder()).increment();
    }

    void fault(String kind) {
        faults.computeIfAbsent(kind, k -> new LongAdder()).increment();
    }

    /** An outcome worth counting that is neither a check nor a fault (how the server met a half-close). */
    void outcome(String what) {
        outcomes.computeIfAbsent(what, k -> new LongAdder()).increment();
    }

    /** A tick that found every client busy: not sent (the rate was not kept). */
    void skipped() {
        skipped.increment();
    }

    void problem(String kind, String what) {
        if (problemCount.incrementAndGet() <= MAX_PROBLEMS) { // the first ones kept, without a lock
            problems.add(kind + ": " + what);
        }
    }

    long sentTotal() {
        return total(sent);
    }

    long checkedTotal() {
        return total(checked);
    }

    long faultTotal() {
        return total(faults);
    }

    long problemTotal() {
        return problemCount.get();
    }

    long skippedTotal() {
        return skipped.sum();
    }

    List<String> problems() {
        return List.copyOf(problems);
    }

    String summary() {
        return "requests sent " + sentTotal() + " " + sorted(sent) + "\nresponses checked " + checkedTotal() + " "
                + sorted(checked) + "\nfaults injected " + faultTotal() + " " + sorted(faults)
                + "\noutcomes " + sorted(outcomes) + "\nproblems " + problemTotal() + ", ticks skipped (all clients busy) " + skippedTotal();
    }

    private static long total(Map<String, LongAdder> counts) {
        return counts.values().stream().mapToLong(LongAdder::sum).sum();
    }

    private static Map<String, Long> sorted(Map<String, LongAdder> counts) {
        Map<String, Long> out = new TreeMap<>();
        counts.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }
}
