package dev.fleche.transport.internal.channel;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.security.Security;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * A TLS 1.3 client, run in its own JVM by {@link TlsChannelTest}, whose keys must be updated every 16 KiB it
 * encrypts ({@code jdk.tls.keyLimits} is a JVM-wide security property, read once, hence the JVM of its own): it
 * sends {@code args[1]} bytes to the echo server on port {@code args[0]}, each KeyUpdate asking the server to
 * update its keys too, checks the echo, and prints {@code ECHOED <n>}. It trusts any server: a test's loopback peer.
 */
public final class KeyUpdateClient {
    private KeyUpdateClient() {
    }

    public static void main(String[] args) throws Exception {
        Security.setProperty("jdk.tls.keyLimits",
                "AES/GCM/NoPadding KeyUpdate 2^14, ChaCha20-Poly1305 KeyUpdate 2^14");
        int port = Integer.parseInt(args[0]);
        byte[] data = new byte[Integer.parseInt(args[1])];
        new Random(7).nextBytes(data);
        SSLContext context = SSLContext.getInstance("TLSv1.3");
        context.init(null, new TrustManager[] {new TrustingManager()}, null);
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory()
                .createSocket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(20_000);
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setProtocols(new String[] {"TLSv1.3"});
            socket.setSSLParameters(parameters);
            OutputStream out = socket.getOutputStream();
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    for (int off = 0; off < data.length; off += 4096) {
                        out.write(data, off, Math.min(4096, data.length - off));
                    }
                    out.flush();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            InputStream in = socket.getInputStream();
            byte[] echoed = in.readNBytes(data.length);
            writer.join();
            if (!Arrays.equals(data, echoed)) {
                System.out.println("MISMATCH after " + echoed.length + " bytes");
                System.exit(1);
            }
            System.out.println("ECHOED " + echoed.length);
        }
    }

    private static final class TrustingManager extends X509ExtendedTrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
