package dev.fleche.conformance.h2;

import dev.fleche.conformance.h2.client.H2Connection;

import java.io.IOException;
import java.io.UncheckedIOException;

/** The two ways the suite reaches the server; every case runs over both. */
public enum Transport {
    /** Clear text, HTTP/2 by prior knowledge (RFC 9113 3.3). */
    H2C,
    /** TLS with ALPN {@code h2} (RFC 9113 3.2). */
    TLS;

    /** A new connection, TLS handshake done and {@code h2} negotiated; nothing of HTTP/2 sent yet. */
    H2Connection open() {
        try {
            if (this == H2C) {
                return H2Connection.plain(Servers.address(this));
            }
            H2Connection connection = H2Connection.tls(Servers.address(this), Servers.clientContext());
            if (!"h2".equals(connection.alpn())) {
                connection.close();
                throw new AssertionError("ALPN settled on " + connection.alpn() + ", not h2 (RFC 9113 3.2)");
            }
            return connection;
        } catch (IOException e) {
            throw new UncheckedIOException("could not connect over " + this, e);
        }
    }

    /** A new connection past its handshake: prefaces and SETTINGS ({@code settings}: id, value pairs) exchanged. */
    H2Connection connect(int... settings) {
        H2Connection connection = open();
        try {
            return connection.handshake(settings);
        } catch (RuntimeException | Error e) {
            connection.close();
            throw e;
        }
    }
}
