package dev.fleche.jersey.internal;

import dev.fleche.jersey.ClientConnection;
import dev.fleche.jersey.FlecheProperties;
import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.TlsInfo;
import org.glassfish.jersey.internal.PropertiesDelegate;
import org.glassfish.jersey.message.internal.TracingLogger;

import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The request properties of one exchange. {@value FlecheProperties#REMOTE_ADDRESS},
 * {@value FlecheProperties#LOCAL_ADDRESS}, {@value FlecheProperties#CONNECTION} and, on a TLS connection with a
 * verified client certificate, {@value FlecheProperties#CLIENT_CERTIFICATES} are made only when asked for; the
 * map for other properties is created on the first {@code setProperty}. The two that every request sets — Jersey's
 * tracing logger ({@code TracingLogger.PROPERTY_NAME}) and the entity held by {@code LengthBuffer} — are fields, so
 * that a request which sets nothing else makes no map. Setting a property to {@code null} removes it, as
 * {@code ContainerRequestContext.setProperty} says. Used by one request at a time, like Jersey's own.
 */
public final class ExchangeProperties implements PropertiesDelegate {
    private static final List<String> BUILT_IN = List.of(FlecheProperties.REMOTE_ADDRESS,
            FlecheProperties.LOCAL_ADDRESS, FlecheProperties.CONNECTION);

    /**
     * Internal: the {@link HttpExchange} itself, for the bridge's own filters (Jersey wraps the properties
     * delegate, so they cannot reach this object); not listed in {@link #getPropertyNames()}.
     */
    static final String EXCHANGE = "dev.fleche.jersey.internal.exchange";
    /** The request property holding the entity's {@code LengthBuffer.Collector}, whose bytes go out at commit. */
    static final String HELD = "dev.fleche.jersey.internal.LengthBuffer.held";

    /**
     * Where {@value FlecheProperties#CONNECTION} comes from: the exchange's response writer, which makes its
     * {@link ClientConnection} when first asked.
     */
    public interface Connections {
        /** The exchange's connection view, made on first use. */
        ClientConnection connection();
    }

    private final HttpExchange exchange;
    private final Connections connections;
    private Map<String, Object> map;
    /** {@code TracingLogger.PROPERTY_NAME}: set by Jersey on every request, tracing or not. */
    private Object tracingLogger;
    /** {@link #HELD}: set on every response with an entity. */
    private Object held;

    public ExchangeProperties(HttpExchange exchange, Connections connections) {
        this.exchange = exchange;
        this.connections = connections;
    }

    @Override
    public Object getProperty(String name) {
        if (HELD.equals(name)) {
            return held;
        }
        if (TracingLogger.PROPERTY_NAME.equals(name)) {
            return tracingLogger;
        }
        if (map != null && map.containsKey(name)) {
            return map.get(name);
        }
        if (FlecheProperties.REMOTE_ADDRESS.equals(name)) {
            return exchange.remoteAddress();
        }
        if (EXCHANGE.equals(name)) {
            return exchange;
        }
        if (FlecheProperties.LOCAL_ADDRESS.equals(name)) {
            return exchange.localAddress();
        }
        if (FlecheProperties.CONNECTION.equals(name)) {
            return connections.connection();
        }
        if (FlecheProperties.CLIENT_CERTIFICATES.equals(name)) {
            return clientCertificates();
        }
        if (FlecheProperties.PROXY.equals(name)) {
            return exchange.proxy();
        }
        return null;
    }

    /** Whether {@code name} is a property this class makes when asked for (a {@code null} shadows it). */
    private static boolean builtIn(String name) {
        return BUILT_IN.contains(name) || FlecheProperties.CLIENT_CERTIFICATES.equals(name)
                || FlecheProperties.PROXY.equals(name);
    }

    /** The verified client chain, the client's own certificate first (a new array each time), or null. */
    private X509Certificate[] clientCertificates() {
        TlsInfo tls = exchange.tls();
        if (tls == null || tls.peerCertificates().isEmpty()) {
            return null;
        }
        return tls.peerCertificates().toArray(X509Certificate[]::new);
    }

    @Override
    public Collection<String> getPropertyNames() {
        List<String> names = new ArrayList<>(BUILT_IN.size() + (map == null ? 0 : map.size()));
        names.addAll(BUILT_IN);
        if (tracingLogger != null) {
            names.add(TracingLogger.PROPERTY_NAME);
        }
        if (held != null) {
            names.add(HELD);
        }
        if (clientCertificates() != null) {
            names.add(FlecheProperties.CLIENT_CERTIFICATES);
        }
        if (exchange.proxy() != null) {
            names.add(FlecheProperties.PROXY);
        }
        if (map != null) {
            for (String name : map.keySet()) {
                if (!names.contains(name)) {
                    names.add(name);
                }
            }
        }
        return names;
    }

    @Override
    public void setProperty(String name, Object value) {
        if (HELD.equals(name)) {
            held = value;
        } else if (TracingLogger.PROPERTY_NAME.equals(name)) {
            tracingLogger = value;
        } else if (value == null && !builtIn(name)) {
            removeProperty(name);
        } else {
            if (map == null) {
                map = new HashMap<>();
            }
            map.put(name, value);
        }
    }

    @Override
    public void removeProperty(String name) {
        if (HELD.equals(name)) {
            held = null;
        } else if (TracingLogger.PROPERTY_NAME.equals(name)) {
            tracingLogger = null;
        } else if (builtIn(name)) {
            setProperty(name, null); // shadows the built-in value
        } else if (map != null) {
            map.remove(name);
        }
    }
}
