package dev.fleche.validation.internal;

import java.util.List;
import java.util.Locale;
import java.util.MissingResourceException;
import java.util.ResourceBundle;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Chooses the locale of validation messages from the client's {@code Accept-Language}: the best-ranked language
 * that a message bundle ({@code ValidationMessages} of the application, or Hibernate Validator's) has, or
 * English, the language of the base bundles. Without a match the base bundles are used: never the server's
 * default locale, so that answers do not depend on the machine.
 *
 * <p>Only ISO 639 languages are looked up, and the answers are cached per language, so the cache is bounded.
 */
final class Locales {
    static final String BASE_LANGUAGE = "en";
    private static final String[] BUNDLES = {"ValidationMessages", "org.hibernate.validator.ValidationMessages"};
    private static final Set<String> ISO_LANGUAGES = Set.of(Locale.getISOLanguages());
    private static final ConcurrentHashMap<String, Boolean> SUPPORTED = new ConcurrentHashMap<>();

    private Locales() {
    }

    /** The locale for a client accepting {@code languages} (best first); {@link Locale#ROOT} for the base. */
    static Locale choose(List<Locale> languages) {
        for (Locale locale : languages) {
            String language = locale.getLanguage();
            if (language.isEmpty() || "*".equals(language)) {
                break;
            }
            if (BASE_LANGUAGE.equals(language)) {
                return Locale.ROOT;
            }
            if (ISO_LANGUAGES.contains(language) && SUPPORTED.computeIfAbsent(language, Locales::hasBundle)) {
                return locale;
            }
        }
        return Locale.ROOT;
    }

    private static boolean hasBundle(String language) {
        Locale locale = Locale.forLanguageTag(language);
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader == null) {
            loader = Locales.class.getClassLoader();
        }
        ResourceBundle.Control exact = ResourceBundle.Control.getNoFallbackControl(
                ResourceBundle.Control.FORMAT_PROPERTIES);
        for (String name : BUNDLES) {
            try {
                if (language.equals(ResourceBundle.getBundle(name, locale, loader, exact).getLocale().getLanguage())) {
                    return true;
                }
            } catch (MissingResourceException e) {
                // this bundle does not exist at all
            }
        }
        return false;
    }
}
