package dev.fleche.examples.modulepath;

import dev.fleche.jersey.FlecheHttpServer;
import dev.fleche.jersey.FlecheHttpServerFactory;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;

import java.net.URI;

/**
 * Serves {@link Greetings} on {@code 127.0.0.1} and prints {@code READY <port>} once listening; stops on SIGTERM.
 * Run from the module path: {@code java --module-path ... --module
 * dev.fleche.examples.modulepath/dev.fleche.examples.modulepath.ModularServer [PORT]} (default 0: a free port).
 */
public final class ModularServer {
    private ModularServer() {
    }

    public static void main(String[] args) {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        ResourceConfig application = new ResourceConfig(Greetings.class)
                .property(ServerProperties.WADL_FEATURE_DISABLE, true);
        FlecheHttpServer server = FlecheHttpServerFactory.createServer(
                URI.create("http://127.0.0.1:" + port + "/"), application);
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "stop"));
        System.out.println("READY " + server.port());
    }
}
