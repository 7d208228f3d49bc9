package dev.fleche.conformance.tck.h2c;

import jakarta.ws.rs.RuntimeType;
import jakarta.ws.rs.core.Configuration;
import jakarta.ws.rs.core.Feature;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** A client's configuration with default values for properties it does not set; everything else as it is. */
final class DefaultedConfiguration implements Configuration {
    private final Configuration configuration;
    private final Map<String, Object> properties;

    DefaultedConfiguration(Configuration configuration, Map<String, Object> defaults) {
        this.configuration = configuration;
        Map<String, Object> merged = new HashMap<>(defaults);
        configuration.getProperties().forEach((name, value) -> {
            if (value != null) {
                merged.put(name, value);
            }
        });
        this.properties = Collections.unmodifiableMap(merged);
    }

    @Override
    public RuntimeType getRuntimeType() {
        return configuration.getRuntimeType();
    }

    @Override
    public Map<String, Object> getProperties() {
        return properties;
    }

    @Override
    public Object getProperty(String name) {
        return properties.get(name);
    }

    @Override
    public Collection<String> getPropertyNames() {
        return properties.keySet();
    }

    @Override
    public boolean isEnabled(Feature feature) {
        return configuration.isEnabled(feature);
    }

    @Override
    public boolean isEnabled(Class<? extends Feature> featureClass) {
        return configuration.isEnabled(featureClass);
    }

    @Override
    public boolean isRegistered(Object component) {
        return configuration.isRegistered(component);
    }

    @Override
    public boolean isRegistered(Class<?> componentClass) {
        return configuration.isRegistered(componentClass);
    }

    @Override
    public Map<Class<?>, Integer> getContracts(Class<?> componentClass) {
        return configuration.getContracts(componentClass);
    }

    @Override
    public Set<Class<?>> getClasses() {
        return configuration.getClasses();
    }

    @Override
    public Set<Object> getInstances() {
        return configuration.getInstances();
    }
}
