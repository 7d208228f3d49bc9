package dev.fleche.transport;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.concurrent.CountDownLatch;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A static file server for tests that need their own JVM (a small heap): {@code StaticServerMain DIR [KEYSTORE
 * PASSWORD]} serves {@code DIR} at {@code /files/} on a free loopback port, over TLS (ALPN {@code h2} and
 * {@code http/1.1}) with the PKCS#12 key store when given, prints {@code READY <port>} and serves until killed.
 */
public final class StaticServerMain {
    private StaticServerMain() {
    }

    public static void main(String[] args) throws Exception {
        ServerOptions.Builder options = ServerOptions.builder().address("127.0.0.1", 0).reactors(1)
                .staticContent(StaticContent.directory("/files/", Path.of(args[0])).build());
        if (args.length == 3) {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(Path.of(args[1]))) {
                keys.load(in, args[2].toCharArray());
            }
            KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(keys, args[2].toCharArray());
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(factory.getKeyManagers(), null, null);
            options.tls(TlsOptions.builder(context).build());
        }
        HttpServer server = HttpServer.create(options.build(),
                exchange -> exchange.respond(404, new HttpFields(0), new byte[0])).start();
        System.out.println("READY " + server.port());
        new CountDownLatch(1).await();
    }
}
