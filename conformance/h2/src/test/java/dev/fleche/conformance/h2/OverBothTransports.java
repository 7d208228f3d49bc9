package dev.fleche.conformance.h2;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** A case run twice: over {@link Transport#H2C} and over {@link Transport#TLS} (its one parameter). */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest(name = "over {0}")
@EnumSource(Transport.class)
public @interface OverBothTransports {
}
