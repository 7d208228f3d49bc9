package dev.fleche.nativeimage.elsewhere;

/** A record in a package without components (a library's, for {@code JaxrsRulesTest}). */
public record LibraryRecord(String value) {
}
