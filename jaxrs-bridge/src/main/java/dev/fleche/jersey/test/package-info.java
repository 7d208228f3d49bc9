/**
 * Jersey test framework support: {@link dev.fleche.jersey.test.FlecheTestContainerFactory} runs
 * {@code JerseyTest} on Fleche. Needs {@code jersey-test-framework-core} on the class path (an optional
 * dependency of this module).
 */
package dev.fleche.jersey.test;
