package dev.fleche.transport.internal.http1;

import dev.fleche.transport.internal.channel.ConnectionChannel;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.http1.RequestHead;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * How a clear-text HTTP/1.1 connection recognises that its client wants HTTP/2: the first line of the connection
 * preface (prior knowledge, RFC 9113 3.3: to HTTP/1.1 a request of version HTTP/2.0) or {@code Upgrade: h2c} with
 * {@code HTTP2-Settings} (RFC 7540 3.2). What HTTP/2 shows of itself to HTTP/1.1, so nothing of the HTTP/2 package:
 * decides nothing; {@link Http2Handover} asks for its connection, and hands the socket over through {@link ToHttp2}.
 * Stateless.
 */
public final class Http2Entry {
    private Http2Entry() {
    }

    /** What the first bytes of a connection are to the preface. */
    public enum Preface { HTTP2, PARTIAL, NOT }

    /**
     * The preface's first line, {@code PRI * HTTP/2.0}: a client that sends it speaks HTTP/2 (to HTTP/1.1 it is a
     * version it does not serve), so the connection goes to HTTP/2, which checks the rest of the preface and
     * answers a wrong one with {@code GOAWAY PROTOCOL_ERROR} (RFC 9113 3.4).
     */
    private static final byte[] PREFACE_LINE = "PRI * HTTP/2.0\r\n".getBytes(StandardCharsets.US_ASCII);

    /** The answer to an upgrade, before the server's SETTINGS. */
    public static final byte[] SWITCHING_PROTOCOLS = ("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\n"
            + "Upgrade: h2c\r\n\r\n").getBytes(StandardCharsets.US_ASCII);

    public static Preface preface(byte[] bytes, int offset, int end) {
        int n = Math.min(end - offset, PREFACE_LINE.length);
        for (int i = 0; i < n; i++) {
            if (bytes[offset + i] != PREFACE_LINE[i]) {
                return Preface.NOT;
            }
        }
        return n == PREFACE_LINE.length ? Preface.HTTP2 : Preface.PARTIAL;
    }

    /**
     * Whether {@code head} asks to upgrade to h2c and may: the entry is on, the connection is clear text, the
     * request is HTTP/1.1 without a body (a body would have to be read as HTTP/1.1 first; such a request is served
     * as HTTP/1.1, which RFC 7540 3.2 allows), {@code Upgrade} names {@code h2c}, and {@code Connection} names both
     * {@code Upgrade} and {@code HTTP2-Settings}.
     */
    public static boolean upgradeAsked(ServerOptions options, ConnectionChannel channel, RequestHead head) {
        if (!options.http2Upgrade() || channel.tlsInfo() != null || head.hasBody() || head.minorVersion() != 1) {
            return false;
        }
        return hasToken(head.headers().getAll("Upgrade"), "h2c")
                && hasToken(head.headers().getAll("Connection"), "upgrade")
                && hasToken(head.headers().getAll("Connection"), "http2-settings")
                && head.headers().getAll("HTTP2-Settings").size() == 1;
    }

    /** The decoded {@code HTTP2-Settings} (base64url, RFC 7540 3.2.1), or null when not valid. */
    public static byte[] upgradeSettings(RequestHead head) {
        String value = head.headers().get("HTTP2-Settings").trim();
        try {
            byte[] payload = Base64.getUrlDecoder().decode(value);
            return payload.length % 6 == 0 ? payload : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static boolean hasToken(List<String> values, String token) {
        for (String value : values) {
            for (String part : value.split(",")) {
                if (part.trim().equalsIgnoreCase(token)) {
                    return true;
                }
            }
        }
        return false;
    }
}
