package dev.fleche.transport.internal.channel;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Thrown by {@link TlsChannel#read} when a client speaks plain HTTP to the TLS port (its first byte is a letter, as
 * a request method is, where a TLS handshake record starts with {@code 0x16 0x03}). By then the channel has queued
 * {@link #response} raw — unencrypted, the client could not read anything else — and, once it is written, ends its
 * output (TCP FIN). The connection treats this as a refusal that closes: it calls {@link TlsChannel#flush} until
 * it returns {@code true} (usually at once: the socket's send buffer is empty this early), then closes the way it
 * closes after any refusal. Reads after this return the client's raw bytes, for a lingering close to discard.
 */
public final class PlaintextRequestException extends IOException {
    private static final long serialVersionUID = 1L;
    private static final byte[] BODY = "This port speaks HTTPS.\n".getBytes(StandardCharsets.US_ASCII);
    /** RFC 9110 5.6.7. */
    private static final DateTimeFormatter IMF_FIXDATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US);

    PlaintextRequestException() {
        super("plain HTTP on a TLS port: answered 400 in plain text");
    }

    /** The whole plaintext response: {@code 400}, {@code Date}, {@code Connection: close}, a one-line body. */
    static byte[] response(Instant now) {
        String head = "HTTP/1.1 400 Bad Request\r\n"
                + "Date: " + IMF_FIXDATE.format(now.atOffset(ZoneOffset.UTC)) + "\r\n"
                + "Content-Type: text/plain; charset=us-ascii\r\n"
                + "Content-Length: " + BODY.length + "\r\n"
                + "Connection: close\r\n"
                + "\r\n";
        byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[headBytes.length + BODY.length];
        System.arraycopy(headBytes, 0, all, 0, headBytes.length);
        System.arraycopy(BODY, 0, all, headBytes.length, BODY.length);
        return all;
    }
}
