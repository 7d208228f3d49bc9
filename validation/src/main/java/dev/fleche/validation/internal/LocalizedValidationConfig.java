package dev.fleche.validation.internal;

import jakarta.validation.MessageInterpolator;
import jakarta.validation.Validation;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.ext.ContextResolver;
import org.glassfish.jersey.server.validation.ValidationConfig;

import java.util.Locale;

/**
 * Gives Jersey's validator a message interpolator that speaks the request's language (see {@link Locales}).
 * Jersey builds its validator once per resolver, so the interpolator looks the language up on every message,
 * through the request-scoped {@link HttpHeaders} proxy; outside a request it uses the base bundles.
 */
final class LocalizedValidationConfig implements ContextResolver<ValidationConfig> {
    @Context
    private HttpHeaders headers;
    private volatile ValidationConfig config;

    @Override
    public ValidationConfig getContext(Class<?> type) {
        if (type != ValidationConfig.class) {
            return null;
        }
        ValidationConfig c = config;
        if (c == null) {
            MessageInterpolator standard = Validation.byDefaultProvider().configure()
                    .getDefaultMessageInterpolator();
            c = new ValidationConfig().messageInterpolator(new RequestLocaleInterpolator(standard));
            config = c;
        }
        return c;
    }

    private Locale requestLocale() {
        try {
            return Locales.choose(headers.getAcceptableLanguages());
        } catch (RuntimeException e) { // not in a request scope
            return Locale.ROOT;
        }
    }

    private final class RequestLocaleInterpolator implements MessageInterpolator {
        private final MessageInterpolator delegate;

        RequestLocaleInterpolator(MessageInterpolator delegate) {
            this.delegate = delegate;
        }

        @Override
        public String interpolate(String template, Context context) {
            return delegate.interpolate(template, context, requestLocale());
        }

        @Override
        public String interpolate(String template, Context context, Locale locale) {
            return delegate.interpolate(template, context, locale);
        }
    }
}
