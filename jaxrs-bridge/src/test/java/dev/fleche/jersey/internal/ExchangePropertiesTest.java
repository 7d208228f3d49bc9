package dev.fleche.jersey.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleche.jersey.FlecheProperties;
import org.glassfish.jersey.message.internal.TracingLogger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Request properties: the two kept in fields (Jersey's tracing logger, the held entity) behave as any other
 * property, a {@code null} value removes a property, and a built-in one is shadowed rather than removed.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ExchangePropertiesTest {
    private final FakeExchange exchange = new FakeExchange();
    private final ExchangeProperties properties = new ExchangeProperties(exchange, null);

    @Test
    void theFieldPropertiesAreSetReadListedAndRemovedLikeTheOthers() {
        Object logger = new Object();
        Object held = new Object();
        List<String> before = List.copyOf(properties.getPropertyNames());
        assertFalse(before.contains(TracingLogger.PROPERTY_NAME));
        assertFalse(before.contains(ExchangeProperties.HELD));

        properties.setProperty(TracingLogger.PROPERTY_NAME, logger);
        properties.setProperty(ExchangeProperties.HELD, held);
        properties.setProperty("app", "value");
        assertEquals(logger, properties.getProperty(TracingLogger.PROPERTY_NAME));
        assertEquals(held, properties.getProperty(ExchangeProperties.HELD));
        assertEquals("value", properties.getProperty("app"));
        assertTrue(properties.getPropertyNames().containsAll(
                List.of(TracingLogger.PROPERTY_NAME, ExchangeProperties.HELD, "app")));

        properties.removeProperty(ExchangeProperties.HELD);
        properties.setProperty(TracingLogger.PROPERTY_NAME, null);
        assertNull(properties.getProperty(ExchangeProperties.HELD));
        assertNull(properties.getProperty(TracingLogger.PROPERTY_NAME));
        assertFalse(properties.getPropertyNames().contains(ExchangeProperties.HELD));
        assertFalse(properties.getPropertyNames().contains(TracingLogger.PROPERTY_NAME));
    }

    @Test
    void aNullValueRemovesAnApplicationProperty() {
        properties.setProperty("app", "value");
        properties.setProperty("app", null);
        assertNull(properties.getProperty("app"));
        assertFalse(properties.getPropertyNames().contains("app"));
    }

    @Test
    void aBuiltInPropertyIsShadowedNotRemoved() {
        assertEquals(exchange.remoteAddress(), properties.getProperty(FlecheProperties.REMOTE_ADDRESS));
        properties.removeProperty(FlecheProperties.REMOTE_ADDRESS);
        assertNull(properties.getProperty(FlecheProperties.REMOTE_ADDRESS));
        properties.setProperty(FlecheProperties.REMOTE_ADDRESS, "elsewhere");
        assertEquals("elsewhere", properties.getProperty(FlecheProperties.REMOTE_ADDRESS));
    }
}
