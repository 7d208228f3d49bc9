package dev.fleche.jersey.internal;

import dev.fleche.jersey.FlecheProperties;
import dev.fleche.transport.HttpExchange;
import org.glassfish.jersey.internal.PropertiesDelegate;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The request properties of one exchange. {@value FlecheProperties#REMOTE_ADDRESS} and
 * {@value FlecheProperties#LOCAL_ADDRESS} are read from the exchange only when asked for; the map for other
 * properties is created on the first {@code setProperty}. Used by one request at a time, like Jersey's own.
 */
final class ExchangeProperties implements PropertiesDelegate {
    private final HttpExchange exchange;
    private Map<String, Object> map;

    ExchangeProperties(HttpExchange exchange) {
        this.exchange = exchange;
    }

    @Override
    public Object getProperty(String name) {
        if (map != null && map.containsKey(name)) {
            return map.get(name);
        }
        if (FlecheProperties.REMOTE_ADDRESS.equals(name)) {
            return exchange.remoteAddress();
        }
        if (FlecheProperties.LOCAL_ADDRESS.equals(name)) {
            return exchange.localAddress();
        }
        return null;
    }

    @Override
    public Collection<String> getPropertyNames() {
        List<String> names = new ArrayList<>(2 + (map == null ? 0 : map.size()));
        names.add(FlecheProperties.REMOTE_ADDRESS);
        names.add(FlecheProperties.LOCAL_ADDRESS);
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
        if (map == null) {
            map = new HashMap<>();
        }
        map.put(name, value);
    }

    @Override
    public void removeProperty(String name) {
        if (FlecheProperties.REMOTE_ADDRESS.equals(name) || FlecheProperties.LOCAL_ADDRESS.equals(name)) {
            setProperty(name, null); // shadows the built-in value
        } else if (map != null) {
            map.remove(name);
        }
    }
}
