package dev.fleche.conformance.h2;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The h2spec cases (by h2spec's own identifier, such as {@code http2/6.5.3/1}) whose requirement a test covers;
 * README.md's table maps each of them here, and {@code MappingTableTest} holds the table and these annotations to
 * each other. A test without it checks something h2spec does not.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
public @interface H2spec {
    String[] value();
}
