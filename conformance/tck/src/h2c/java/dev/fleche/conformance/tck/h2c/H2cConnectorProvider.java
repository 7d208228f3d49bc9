package dev.fleche.conformance.tck.h2c;

import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.core.Configuration;
import org.glassfish.jersey.client.ClientProperties;
import org.glassfish.jersey.client.spi.Connector;
import org.glassfish.jersey.client.spi.ConnectorProvider;
import org.glassfish.jersey.jnh.connector.JavaNetHttpClientProperties;
import org.glassfish.jersey.jnh.connector.JavaNetHttpConnector;

import java.net.http.HttpClient;
import java.util.HashMap;
import java.util.Map;

/**
 * The h2c leg's connector for every Jakarta REST client the TCK builds: Jersey's JDK {@code HttpClient} connector
 * ({@code jersey-jnh-connector}) told to speak HTTP/2, which on {@code http://} it reaches by {@code Upgrade: h2c}
 * (RFC 7540 3.2). Jersey's {@code ClientConfig} takes the first {@code ConnectorProvider} in
 * {@code META-INF/services} when a client names none, which is how the TCK's unchanged clients get it; this file
 * is on the test class path only with {@code -Ptck-h2c} ({@code conformance/run-tck.sh --h2c}).
 *
 * <p>Two settings a client does not give itself are filled in: the HTTP version ({@code HTTP_2}), and the 60 s
 * read time-out that {@code sun.net.client.defaultReadTimeout} gives the default connector on the HTTP/1.1 leg.
 * The connector is wrapped by {@link H2cConnector}, which makes sure a request with a body does not open the
 * connection (see there).
 */
public final class H2cConnectorProvider implements ConnectorProvider {
    static final int READ_TIMEOUT_MILLIS = 60_000;
    static final int CONNECT_TIMEOUT_MILLIS = 10_000;

    @Override
    public Connector getConnector(Client client, Configuration configuration) {
        Map<String, Object> defaults = new HashMap<>();
        defaults.put(JavaNetHttpClientProperties.HTTP_VERSION, HttpClient.Version.HTTP_2);
        defaults.put(ClientProperties.READ_TIMEOUT, READ_TIMEOUT_MILLIS);
        defaults.put(ClientProperties.CONNECT_TIMEOUT, CONNECT_TIMEOUT_MILLIS);
        Configuration withDefaults = new DefaultedConfiguration(configuration, defaults);
        return new H2cConnector(new JavaNetHttpConnector(client, withDefaults));
    }
}
