package dev.fleche.transport.http1;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.function.Supplier;

/**
 * Feeds one input to a fresh parser (or decoder) in every way: whole, split in two at each position, and one
 * byte at a time. Asserts that every way ends the same, and returns that ending: {@code "complete"},
 * {@code "incomplete"}, or the name of the violated rule.
 */
final class Feeding {

    private Feeding() {
    }

    static String head(Supplier<RequestHeadParser> parsers, String raw) {
        return allWays(raw, pieces -> {
            RequestHeadParser parser = parsers.get();
            for (byte[] piece : pieces) {
                int pos = 0;
                while (pos < piece.length && !parser.isComplete()) {
                    pos = parser.parse(piece, pos, piece.length);
                }
            }
            return parser.isComplete() ? "complete" : "incomplete";
        });
    }

    static String body(Supplier<ChunkedDecoder> decoders, String raw) {
        return allWays(raw, pieces -> {
            ChunkedDecoder decoder = decoders.get();
            for (byte[] piece : pieces) {
                int pos = 0;
                while (pos < piece.length && !decoder.isDone()) {
                    pos = decoder.decode(piece, pos, piece.length, (b, o, n) -> { });
                }
            }
            return decoder.isDone() ? "complete" : "incomplete";
        });
    }

    interface Run {
        String feed(byte[][] pieces) throws RequestException;
    }

    private static String allWays(String raw, Run run) {
        byte[] message = MessageDriver.bytes(raw);
        String whole = outcome(run, new byte[][] {message});
        for (int at = 0; at <= message.length; at++) {
            byte[][] pieces = {Arrays.copyOfRange(message, 0, at), Arrays.copyOfRange(message, at, message.length)};
            assertEquals(whole, outcome(run, pieces), "split at " + at);
        }
        byte[][] single = new byte[message.length][];
        for (int i = 0; i < message.length; i++) {
            single[i] = new byte[] {message[i]};
        }
        assertEquals(whole, outcome(run, single), "one byte at a time");
        return whole;
    }

    private static String outcome(Run run, byte[][] pieces) {
        try {
            return run.feed(pieces);
        } catch (RequestException e) {
            return e.rule().name();
        }
    }
}
