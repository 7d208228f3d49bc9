package dev.fleche.transport.internal;

import dev.fleche.transport.internal.http1.Http1Connection;
import dev.fleche.transport.internal.http1.Http1Shared;
import dev.fleche.transport.internal.http2.Http2Connection;
import dev.fleche.transport.internal.channel.Origin;
import dev.fleche.transport.internal.loop.Reactor;
import dev.fleche.transport.internal.rules.Refusal;
import dev.fleche.transport.internal.loop.TimerNode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.http1.ProtocolRule;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Fuzzes a whole {@link Http1Connection}: a real one, on a real {@link Reactor} that is never started — the fuzz thread
 * is its loop thread ({@link Reactor#driveFromCallingThread}) — reading the client's bytes from a {@link FakeChannel}
 * (through the test hook {@link Reactor#channelFactory}) and writing into it. The input ({@link ConnectionScript})
 * chooses the options, how reads cut the bytes, how much each write takes (nothing, a few bytes, all: back-pressure),
 * when the clock moves (so timeouts fire in the middle), whether the client ends with a FIN, and what the handler
 * does with each request: answer at once or later (from a pending action or a reactor timer), whole or streamed
 * (chunked or with a length, small or larger than the staging buffer), reading the body first or not.
 *
 * <p>Each step delivers the readiness the connection asked for (its key's interest), runs the reactor's tasks and
 * timers, some pending handler actions, and moves the clock; then a drain phase lets every write through, runs every
 * action and moves the clock a second at a time until the connection is closed. Invariants, on every input:
 * <ul>
 *   <li>nothing escapes but the transport's own refusals: no exception out of the connection, no handler or
 *       connection error logged (WARNING) by the transport, no misuse of the channel or key;</li>
 *   <li>every refusal is a named rule with its status: each {@code reject} event names a {@link ProtocolRule} or
 *       {@link Refusal} constant whose status it carries, and each refusal written has that status and reason;</li>
 *   <li>what was written parses strictly ({@link ResponseReader}) as: at most one {@code 100 Continue} per request
 *       that asked for it, the handler's answers in request order, each once, each naming its request
 *       ({@code X-Seq} and a body of method, target and sequence number), then at most one refusal, after which
 *       nothing; a response saying {@code Connection: close} is the last;</li>
 *   <li>every request the handler saw is answered, except the last one when a refusal took its place or the
 *       connection was closed under it; no request is dispatched after a refusal;</li>
 *   <li>nothing leaks: at the end the connection is closed (its channel and key too), no timer is left on the
 *       wheel, the staging buffer is free, the head parser went back to the pool once, the reactor's open count is
 *       back to zero.</li>
 * </ul>
 * Plain {@code mvn verify} replays the corpus under {@code ConnectionFuzzTestInputs/}; {@code JAZZER_FUZZ=1}
 * fuzzes (see FUZZING.md).
 */
class ConnectionFuzzTest {
    /** Steps with the script's choices at most, per input byte (then the drain phase). */
    private static final int STEPS_PER_BYTE = 4;
    /** Drain steps of one second before a connection that is still open is a finding. */
    private static final int DRAIN_STEPS = 600;
    private static final int LARGE_BODY = 20_000;

    private static final long[] CLOCK = {1_000_000_000L};
    private static final Reactor[] REACTORS = new Reactor[8];
    /** What each reactor's HTTP/1.1 connections share (its head-parser pool among them). */
    private static final Http1Shared[] SHARED = new Http1Shared[8];
    /** The small output budgets of a client that never reads (options 4-7). */
    private static final int SMALL_BUDGET = 2048;
    private static final AtomicInteger OPEN = new AtomicInteger();
    private static final Capture CAPTURE = new Capture();
    private static SocketChannel unconnected;
    private static Run current;
    private static long nextId = 1;

    @FuzzTest(maxDuration = "50s")
    void connectionInPieces(byte[] raw) throws Exception {
        ConnectionScript script = ConnectionScript.of(raw);
        Reactor reactor = reactor(script.options());
        boolean passed = false;
        try {
            new Run(reactor, script).go();
            passed = true;
        } finally {
            current = null;
            if (!passed) {
                REACTORS[script.options()] = null; // a failed input may leave state behind: start the next afresh
                OPEN.set(0);
            }
        }
    }

    // ---------------------------------------------------------------- set-up, once per options

    /** The options of {@code choice}: 0-3 as below; 4-7 the same with the small output budgets of a non-reader. */
    static ServerOptions options(int choice) {
        ServerOptions.Builder options = ServerOptions.builder().address("127.0.0.1", 0).reactors(1)
                .nanoClock(() -> CLOCK[0]);
        if ((choice & 4) != 0) {
            options.http2MaxQueuedOutputBytes(SMALL_BUDGET).outboundHighWaterBytes(SMALL_BUDGET);
        }
        return switch (choice & 3) {
            case 1 -> options.bodyAggregationBytes(8).maxBodyBytes(200).maxDiscardBytes(16).inboundWindowBytes(1024)
                    .outboundHighWaterBytes(1024).build();
            case 2 -> options.maxRequestLineBytes(64).maxHeaderBytes(256).maxHeaderCount(4).build();
            case 3 -> options.idleTimeout(Duration.ofSeconds(2)).headerTimeout(Duration.ofSeconds(1))
                    .bodyTimeout(Duration.ofSeconds(1)).writeStallTimeout(Duration.ofSeconds(1)).build();
            default -> options.build();
        };
    }

    private static Reactor reactor(int choice) throws IOException {
        if (unconnected == null) {
            CAPTURE.install();
            unconnected = SocketChannel.open();
        }
        Reactor reactor = REACTORS[choice];
        if (reactor == null) {
            ServerOptions options = options(choice);
            Http1Shared shared = Protocols.http1(options);
            reactor = new Reactor(options, exchange -> current.dispatched(exchange), OPEN, null, null,
                    Protocols.connections(options, shared));
            reactor.channelFactory = (socket, listener) -> current.channel;
            reactor.driveFromCallingThread();
            shared.returnParser(shared.borrowParser()); // the pool holds one: a leak shows as one fewer
            REACTORS[choice] = reactor;
            SHARED[choice] = shared;
        }
        reactor.driveFromCallingThread(); // Jazzer may call from another thread than the last input's
        return reactor;
    }

    /** The transport's log records: DEBUG events (its structured events) and warnings. */
    static final class Capture extends Handler {
        final List<String> events = new ArrayList<>();
        final List<LogRecord> warnings = new ArrayList<>();

        /**
         * The logger configured here, held: {@code java.util.logging} keeps loggers weakly, and one collected in a
         * long fuzz run came back at the default level, so that every later event was lost and the checks that read
         * them passed without looking (found by fuzzing; {@link Run#check} now fails when no event came).
         */
        private Logger logger;

        void install() {
            logger = Logger.getLogger("dev.fleche.transport");
            logger.setLevel(Level.FINE);
            logger.setUseParentHandlers(false);
            logger.addHandler(this);
        }

        void clear() {
            events.clear();
            warnings.clear();
        }

        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                warnings.add(record);
            } else {
                events.add(record.getMessage());
                Run run = current;
                if (run != null && run.refusedHead == null && run.connection != null
                        && record.getMessage().contains("event=reject ")) {
                    run.refusedHead = run.connection.refusalAnswersHead();
                }
            }
        }

        @Override public void flush() { }
        @Override public void close() { }
    }

    // ---------------------------------------------------------------- one input

    /** A request the handler saw. */
    static final class Seen {
        final int seq;
        final HttpExchange exchange;
        final boolean head;
        final boolean expectsContinue;
        byte[] answer;

        Seen(int seq, HttpExchange exchange) {
            this.seq = seq;
            this.exchange = exchange;
            this.head = exchange.method().equals("HEAD");
            this.expectsContinue = asksContinue(exchange);
        }
    }

    /**
     * Whether a dispatched request may get {@code 100 Continue}: {@code Expect} is a list (RFC 9110 5.6.1, empty
     * elements allowed), and on HTTP/1.1 a request with any element other than {@code 100-continue} is refused
     * ({@code 417}) before the handler sees it, so any non-empty element means it asked. (An upper bound on HTTP/2,
     * which only counts an exact {@code 100-continue}.)
     */
    static boolean asksContinue(HttpExchange exchange) {
        if (exchange.version().equals("HTTP/1.0")) {
            return false;
        }
        for (String value : exchange.headers().getAll("Expect")) {
            for (String element : value.split(",", -1)) {
                if (!element.isBlank()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** What the handler does with one request, from its choice byte. */
    record Behaviour(int bits) {
        /** 0 answer at once, 1 stream at once, 2 answer from a pending action, 3 from a reactor timer (2 ms). */
        int mode() { return bits & 0x03; }
        boolean readsBody() { return (bits & 0x04) != 0; }
        boolean streamsWithLength() { return (bits & 0x08) != 0; }
        boolean large() { return (bits & 0x10) != 0; }
        boolean twoParts() { return (bits & 0x20) != 0; }
        boolean streams() { return mode() == 1 || (bits & 0x40) != 0; }
    }

    final class Run {
        final Reactor reactor;
        final ConnectionScript script;
        final FakeChannel channel;
        final FakeKey key = new FakeKey(unconnected);
        final List<Seen> seen = new ArrayList<>();
        final ArrayDeque<Action> pending = new ArrayDeque<>();
        /** Whether the transport aborted a response the handler streamed on the reactor above the watermark. */
        boolean aborted;
        final Http1Shared shared;
        Http1Connection connection;
        /** Told at the first {@code reject} event: whether the refusal answers a {@code HEAD} request (no body). */
        Boolean refusedHead;
        /** A client that never reads, over HTTP/2: the channel's reads when the output first reached its budget. */
        int readsAtBudget = -1;

        Run(Reactor reactor, ConnectionScript script) {
            this.reactor = reactor;
            this.shared = SHARED[java.util.Arrays.asList(REACTORS).indexOf(reactor)];
            this.script = script;
            this.channel = new FakeChannel(script);
        }

        void go() throws IOException {
            CAPTURE.clear();
            current = this;
            int parsersBefore = shared.pooledParsers();
            OPEN.incrementAndGet();
            reactor.now = CLOCK[0];
            connection = new Http1Connection(reactor, null, nextId++, Origin.of(null), null, shared);
            connection.opened(key);
            int most = STEPS_PER_BYTE * script.message().length + 16;
            for (int n = 0; n < most && channel.readable() && key.isValid(); n++) {
                step(script.step(n), false);
            }
            for (int n = 0; n < DRAIN_STEPS && (key.isValid() || reactor.scheduledTasks() > 0 || !pending.isEmpty()); n++) {
                step(new ConnectionScript.Step(0xFF), true); // all writes, every action, one second at a time
            }
            assertTrue(channel.isClosed(), "connection still open after the drain: " + closeReason());
            check(parsersBefore);
        }

        private void step(ConnectionScript.Step step, boolean drain) {
            channel.allowance = script.neverReads() ? 0 : step.writeAllowance();
            int ops = 0;
            if (key.isValid()) {
                if ((key.interestOps() & SelectionKey.OP_WRITE) != 0) {
                    ops |= SelectionKey.OP_WRITE;
                }
                if ((key.interestOps() & SelectionKey.OP_READ) != 0 && channel.readable()) {
                    ops |= SelectionKey.OP_READ;
                }
            }
            if (ops != 0) {
                spine().onReady(key.ready(ops));
                reactor.finishTurn();
            }
            for (int n = drain ? pending.size() : step.handlerActions(); n > 0 && !pending.isEmpty(); n--) {
                Action action = pending.poll();
                if (!action.run()) {
                    pending.add(action);
                }
            }
            CLOCK[0] += drain ? drainAdvance(ops) : step.advanceNanos();
            reactor.now = CLOCK[0];
            reactor.finishTurn();
            checkQueued();
        }

        /**
         * What the connection holds for the client is bounded by its output budget. HTTP/2: its queued-output budget
         * (DATA is framed only into the room it leaves), plus what is not held back — a response head, an interim
         * response, a reset for each request seen — and the control frames answering the one frame being handled
         * when it was reached (at most 4 × 160 bytes here). HTTP/1.1: the high-water mark before it serves a
         * pipelined request, plus that request's whole answer (up to 20 KB and its head) or a refusal.
         */
        private void checkQueued() {
            long queued = reactor.counters().queuedOutputBytes;
            ServerOptions options = reactor.options;
            boolean http2 = key.attachment() instanceof Http2Connection;
            long bound = http2 ? options.http2MaxQueuedOutputBytes() + 160L * (seen.size() + 4)
                    : options.outboundHighWaterBytes() + LARGE_BODY + 2048;
            assertTrue(queued <= bound, "queued output " + queued + " beyond its bound " + bound);
            if (http2 && script.neverReads()) {
                // HTTP/2 stops reading at its budget: one read more at most (its frames kept, none handled)
                if (readsAtBudget < 0 && queued >= options.http2MaxQueuedOutputBytes()) {
                    readsAtBudget = channel.reads();
                } else if (readsAtBudget >= 0) {
                    assertTrue(channel.reads() <= readsAtBudget + 1, "read on at the budget: " + channel.reads()
                            + " reads, " + readsAtBudget + " when the output reached it");
                }
            }
        }

        /**
         * Draining: a second at a time while anything moves; when nothing can (no readiness, no pending action) and
         * the connection's timer is all that is left, straight to its deadline.
         */
        private long drainAdvance(int ops) {
            long second = 1_000_000_000L;
            TimerNode timer = (TimerNode) spine();
            if (ops == 0 && pending.isEmpty() && reactor.scheduledTasks() == 0 && timer.isScheduled()) {
                return Math.max(second, timer.deadline() - CLOCK[0]);
            }
            return second;
        }

        /** The connection that owns the socket now: the HTTP/1.1 one, or the HTTP/2 one it handed over to. */
        private Reactor.Attachment spine() {
            return key.attachment() instanceof Http2Connection h2 ? h2 : connection;
        }

        private String closeReason() {
            return key.attachment() instanceof Http2Connection h2 ? h2.closeReason : connection.closeReason;
        }

        // ------------------------------------------------------------ the handler

        void dispatched(HttpExchange exchange) {
            List<String> rejects = events("event=reject ");
            // HTTP/2 refuses a stream, not the connection: other streams go on
            assertTrue(rejects.isEmpty() || script.http2(), "request dispatched after a refusal: " + rejects);
            Seen request = new Seen(seen.size(), exchange);
            seen.add(request);
            Behaviour behaviour = new Behaviour(script.handlerChoice(request.seq));
            Action answer = () -> answer(request, behaviour);
            Action work = behaviour.readsBody() && exchange.hasBody() ? readBodyThen(request, answer) : answer;
            switch (behaviour.mode()) {
                case 0, 1 -> {
                    if (!work.run()) {
                        pending.add(work);
                    }
                }
                case 2 -> pending.add(work);
                default -> exchange.schedule(() -> {
                    if (!work.run()) {
                        pending.add(work);
                    }
                }, 2, TimeUnit.MILLISECONDS);
            }
        }

        /** Reads what has arrived without blocking; then {@code then} once the body is whole. */
        private Action readBodyThen(Seen request, Action then) {
            byte[] buffer = new byte[512];
            return () -> {
                HttpExchange exchange = request.exchange;
                if (!exchange.isOpen() || exchange.isResponseStarted()) {
                    return true; // the transport refused it or the client left: nothing to answer
                }
                try {
                    InputStream body = exchange.requestBody();
                    while (body.available() > 0) {
                        body.read(buffer);
                    }
                    if (!exchange.isBodyReceived()) {
                        return false; // more to come: try again later
                    }
                    if (body.read(buffer) != -1) {
                        fail("bytes after the body was received and read");
                    }
                } catch (IOException e) {
                    return true; // the body failed (a refusal or the client left)
                }
                return then.run();
            };
        }

        private boolean answer(Seen request, Behaviour behaviour) {
            HttpExchange exchange = request.exchange;
            if (exchange.isResponseStarted()) {
                return true; // the transport answered in our place (a refusal)
            }
            byte[] body = bodyFor(request, behaviour);
            request.answer = body;
            HttpFields fields = new HttpFields().add("Content-Type", "text/plain").add("X-Seq", "" + request.seq);
            if (!behaviour.streams()) {
                exchange.respond(200, fields, body);
                return true;
            }
            try (OutputStream out = exchange.startResponse(200, null, fields,
                    behaviour.streamsWithLength() ? body.length : -1)) {
                int half = behaviour.twoParts() ? body.length / 2 : body.length;
                out.write(body, 0, half);
                out.flush();
                out.write(body, half, body.length - half);
            } catch (IOException e) {
                // the connection closed, or a reactor thread cannot wait above the watermark (the transport then
                // aborts the exchange: a cut response, closed as "aborted")
                aborted |= e.getMessage().endsWith("response aborted");
            }
            return true;
        }

        private byte[] bodyFor(Seen request, Behaviour behaviour) {
            String name = request.exchange.method() + " " + request.exchange.target() + " #" + request.seq + "\n";
            StringBuilder text = new StringBuilder(name);
            while (behaviour.large() && text.length() < LARGE_BODY) {
                text.append(name);
            }
            return text.toString().getBytes(StandardCharsets.ISO_8859_1);
        }

        // ------------------------------------------------------------ checks

        private List<String> events(String prefix) {
            List<String> found = new ArrayList<>();
            for (String event : CAPTURE.events) {
                if (event.startsWith(prefix)) {
                    found.add(event);
                }
            }
            return found;
        }

        private void check(int parsersBefore) {
            if (!CAPTURE.warnings.isEmpty()) {
                LogRecord warning = CAPTURE.warnings.get(0);
                throw new AssertionError("the transport logged " + warning.getMessage(), warning.getThrown());
            }
            String reason = closeReason();
            assertNotNull(reason, "closed without a reason");
            assertTrue(!events("event=open ").isEmpty() && !events("event=close ").isEmpty(),
                    "the transport's events were not captured: " + CAPTURE.events);
            assertTrue(!reason.equals("internal-error") && !reason.equals("handler-error")
                    && (!reason.equals("aborted") || aborted), "closed as " + reason);
            checkRejects();
            if (key.attachment() instanceof Http2Connection) {
                // (an HTTP/2 script whose connection closed before its preface was whole, on a timeout, stayed
                // HTTP/1.1: checked as such)
                checkFrames(reason);
            } else {
                checkResponses(reason);
            }
            // nothing leaks
            assertTrue(!key.isValid(), "key not cancelled");
            assertEquals(0, reactor.wheel.size(), "timers left on the wheel");
            assertEquals(0, reactor.scheduledTasks(), "scheduled tasks left");
            assertEquals(0, reactor.counters().queuedOutputBytes, "queued output left counted");
            assertTrue(reactor.stagingOwner == null && reactor.staging.size() == 0, "staging buffer not released");
            assertEquals(parsersBefore, shared.pooledParsers(), "head parsers in the pool");
            assertEquals(0, OPEN.get(), "open connections");
        }

        /** Whether the connection closed after its last response was written whole (not under a request). */
        private boolean cleanClose(String closeReason) {
            return closeReason.equals("done") || closeReason.startsWith("linger-");
        }

        /** Each {@code reject} event names a rule, with that rule's status. */
        private void checkRejects() {
            for (String event : events("event=reject ")) {
                int status = Integer.parseInt(event.substring(event.indexOf("status=") + 7, event.indexOf(" reason=")));
                String rule = event.substring(event.indexOf(" rule=") + 6);
                assertEquals(ruleStatus(rule), status, event);
            }
        }

        private int ruleStatus(String name) {
            for (ProtocolRule rule : ProtocolRule.values()) {
                if (rule.name().equals(name)) {
                    return rule.status();
                }
            }
            for (Refusal refusal : Refusal.values()) {
                if (refusal.name().equals(name)) {
                    return refusal.status();
                }
            }
            throw new AssertionError("refusal without a named rule: " + name);
        }

        /** The refusals this connection may write: each rule's status and reason as the plain-text renderer has it. */
        private Set<String> refusals() {
            Set<String> all = new HashSet<>();
            for (ProtocolRule rule : ProtocolRule.values()) {
                all.add(rule.status() + " " + rule.reason() + "\n");
            }
            for (Refusal refusal : Refusal.values()) {
                if (refusal.status() != 0) {
                    all.add(refusal.status() + " " + refusal.reason(reactor.options) + "\n");
                }
            }
            return all;
        }

        /**
         * Whether a refusal with {@code status} whose body (left out: it answered {@code HEAD}) would have been
         * {@code length} bytes is one of {@link #refusals()}: a rule with that status and a reason of that length.
         */
        private boolean namesRuleByLength(int status, long length) {
            String prefix = status + " ";
            return refusals().stream().anyMatch(refusal -> refusal.startsWith(prefix)
                    && refusal.length() - prefix.length() == length);
        }

        private void checkResponses(String closeReason) {
            byte[] written = channel.written();
            ResponseReader reader = new ResponseReader(written);
            int answered = 0;
            int continues = 0;
            boolean refused = false;
            boolean last = false;
            while (!reader.atEnd()) {
                assertTrue(!last, "bytes after the last response");
                int next = answered;
                ResponseReader.Response response = reader.next(fields -> {
                    String seq = fields.get("x-seq");
                    if (seq == null) {
                        return Boolean.TRUE.equals(refusedHead); // a refusal is the last response: of that request
                    }
                    return Integer.parseInt(seq) < seen.size() && seen.get(Integer.parseInt(seq)).head;
                });
                if (response == null) {
                    break; // cut off by a close in the middle of a write: checked below
                }
                if (response.status() == 100) {
                    continues++;
                    continue;
                }
                String seq = response.field("x-seq");
                if (seq == null) {
                    if (Boolean.TRUE.equals(refusedHead)) { // no body (RFC 9112 6.3), the length it would have
                        String length = response.field("content-length");
                        assertEquals("", response.bodyText(), "a body in the refusal of HEAD");
                        assertTrue(length != null && namesRuleByLength(response.status(), Long.parseLong(length)),
                                "a refusal of HEAD that names no rule: " + response.statusLine() + ", length "
                                        + length);
                    } else {
                        assertTrue(refusals().contains(response.status() + " " + response.bodyText()),
                                "a refusal that names no rule: " + response.statusLine() + " "
                                        + response.bodyText());
                    }
                    assertEquals("close", response.field("connection"), "a refusal keeps the connection");
                    refused = true;
                    last = true;
                    continue;
                }
                assertEquals(String.valueOf(next), seq, "answers out of order or twice");
                assertTrue(next < seen.size(), "an answer to a request the handler never saw");
                Seen request = seen.get(next);
                assertNotNull(request.answer, "an answer the handler never gave: " + seq);
                String expected = new String(request.answer, StandardCharsets.ISO_8859_1);
                if (request.head) {
                    assertEquals("", response.bodyText(), "a body in the answer to HEAD");
                } else if (response.untilEnd() && !cleanClose(closeReason)) {
                    // a body delimited by the close (HTTP/1.0): when the close cut it, what came is a prefix
                    assertTrue(expected.startsWith(response.bodyText()), "the answer names another request");
                } else {
                    assertEquals(expected, response.bodyText(), "the answer names another request");
                }
                answered++;
                last = response.closes();
            }
            long asked = seen.stream().filter(s -> s.expectsContinue).count();
            assertTrue(continues <= asked, continues + " interim 100 for " + asked + " requests that asked");
            // A clean close comes after the last response was written whole: then every request the handler saw is
            // answered, but the one a refusal took the place of. Closed under a request (a timeout, the client
            // leaving, the discard limit), the answers queued behind the write (pipelined requests are served once a
            // response is queued) may be lost: what was written must still be in order and once each.
            int unanswered = seen.size() - answered;
            if (cleanClose(closeReason)) {
                assertTrue(!reader.truncated(), "a response cut short on a clean close (" + closeReason + ")");
                assertTrue(unanswered == 0 || (unanswered == 1 && refused),
                        unanswered + " requests the handler saw were not answered, yet the connection closed cleanly");
            }
        }

        // ------------------------------------------------------------ HTTP/2: the frames written

        /** A stream's response as the frames written tell it. */
        private static final class H2Response {
            int status;
            String seq;
            /** The final response's {@code content-length}, -1 without one. */
            long length = -1;
            boolean ended;
            final java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        }

        /**
         * What an HTTP/2 connection wrote is whole frames (a trailing part only when a close cut it), the server's
         * SETTINGS first, nothing after GOAWAY, a header block uninterrupted and decodable, each stream's HEADERS
         * before its DATA and nothing but RST_STREAM after its END_STREAM; each answer names its request once, each
         * answer without a name is a refusal of a named rule.
         */
        private void checkFrames(String closeReason) {
            java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(channel.written());
            dev.fleche.transport.internal.http2.hpack.HpackDecoder decoder =
                    new dev.fleche.transport.internal.http2.hpack.HpackDecoder(1 << 16, Integer.MAX_VALUE);
            java.util.Map<Integer, H2Response> streams = new java.util.HashMap<>();
            Set<String> answered = new HashSet<>();
            java.io.ByteArrayOutputStream block = null;
            int blockStream = 0;
            boolean blockEnds = false;
            boolean first = true;
            boolean goAway = false;
            while (in.remaining() >= 9) {
                int length = (in.get(in.position()) & 0xFF) << 16 | (in.get(in.position() + 1) & 0xFF) << 8
                        | in.get(in.position() + 2) & 0xFF;
                if (in.remaining() < 9 + length) {
                    break;
                }
                in.position(in.position() + 3);
                int type = in.get() & 0xFF;
                int flags = in.get() & 0xFF;
                int stream = in.getInt() & 0x7FFF_FFFF;
                byte[] payload = new byte[length];
                in.get(payload);
                String frame = "frame type " + type + " flags " + flags + " stream " + stream;
                assertTrue(!first || (type == 4 && flags == 0), "the server's SETTINGS first, not " + frame);
                first = false;
                assertTrue(!goAway, "a frame after GOAWAY: " + frame);
                assertTrue(block == null || (type == 9 && stream == blockStream), "inside a header block: " + frame);
                switch (type) {
                    case 0 -> { // DATA
                        H2Response r = streams.get(stream);
                        assertTrue(r != null && r.status >= 200 && !r.ended, "DATA before HEADERS or after the end: "
                                + frame);
                        r.body.writeBytes(payload);
                        if ((flags & 1) != 0) {
                            ended(r, answered);
                        }
                    }
                    case 1, 9 -> { // HEADERS, CONTINUATION
                        if (type == 1) {
                            assertTrue(stream % 2 == 1, "HEADERS on stream " + stream);
                            assertTrue(!streams.containsKey(stream) || !streams.get(stream).ended,
                                    "HEADERS after END_STREAM: " + frame);
                            block = new java.io.ByteArrayOutputStream();
                            blockStream = stream;
                            blockEnds = (flags & 1) != 0;
                        }
                        block.writeBytes(payload);
                        if ((flags & 4) != 0) {
                            H2Response r = streams.computeIfAbsent(stream, id -> new H2Response());
                            headers(r, decoder, block.toByteArray());
                            block = null;
                            if (blockEnds) {
                                ended(r, answered);
                            }
                        }
                    }
                    case 3 -> assertTrue(stream != 0 && length == 4, "RST_STREAM: " + frame);
                    case 4, 6 -> assertTrue(stream == 0, "SETTINGS or PING on a stream: " + frame);
                    case 7 -> goAway = stream == 0;
                    case 8 -> assertEquals(4, length, "WINDOW_UPDATE: " + frame);
                    default -> fail("a frame the server never sends: " + frame);
                }
            }
            assertTrue(!in.hasRemaining() || !closeReason.equals("done"), "a frame cut short on a clean close");
        }

        private void headers(H2Response r, dev.fleche.transport.internal.http2.hpack.HpackDecoder decoder, byte[] block) {
            java.util.Map<String, String> fields = new java.util.LinkedHashMap<>();
            try {
                decoder.decode(java.nio.ByteBuffer.wrap(block), (name, value) -> fields.putIfAbsent(name, value));
            } catch (dev.fleche.transport.internal.http2.hpack.HpackException e) {
                throw new AssertionError("a header block that does not decode: " + e.getMessage(), e);
            }
            String status = fields.get(":status");
            assertTrue(status != null && fields.keySet().iterator().next().equals(":status"), "no :status first");
            int code = Integer.parseInt(status);
            if (code >= 200) {
                assertEquals(0, r.status, "a second final response on one stream");
                r.status = code;
                r.seq = fields.get("x-seq");
                String length = fields.get("content-length");
                r.length = length == null ? -1 : Long.parseLong(length);
            }
        }

        /** A stream's response ended: the answer to the request it names, or a refusal of a named rule. */
        private void ended(H2Response r, Set<String> answered) {
            assertTrue(r.status >= 200 && !r.ended, "END_STREAM without a final response, or twice");
            r.ended = true;
            String body = r.body.toString(StandardCharsets.ISO_8859_1);
            if (r.seq == null) {
                if (body.isEmpty() && r.length < 0) {
                    // a refusal before a stream (431, 414) whose body the windows did not allow: its head alone
                    assertTrue(refusals().stream().anyMatch(refusal -> refusal.startsWith(r.status + " ")),
                            "a refusal without a body that names no rule's status: " + r.status);
                    return;
                }
                if (body.isEmpty() && r.length > 0) {
                    // a refusal of a HEAD request has no content (RFC 9110, 9.3.2), only the length it would have
                    assertTrue(seen.stream().anyMatch(request -> request.head), "a refusal without its body: "
                            + r.status);
                    assertTrue(namesRuleByLength(r.status, r.length), "a refusal of HEAD that names no rule: "
                            + r.status + ", content-length " + r.length);
                    return;
                }
                assertTrue(refusals().contains(r.status + " " + body), "a refusal that names no rule: " + r.status
                        + " " + body);
                return;
            }
            assertTrue(answered.add(r.seq), "request " + r.seq + " answered twice");
            Seen request = seen.get(Integer.parseInt(r.seq));
            assertNotNull(request.answer, "an answer the handler never gave: " + r.seq);
            String expected = request.head ? "" : new String(request.answer, StandardCharsets.ISO_8859_1);
            assertEquals(expected, body, "the answer names another request");
        }
    }

    /** Handler work that may have to wait; returns whether it is done. */
    interface Action {
        boolean run();
    }
}
