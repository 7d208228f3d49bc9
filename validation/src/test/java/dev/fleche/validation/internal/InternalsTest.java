package dev.fleche.validation.internal;

import jakarta.ws.rs.core.MediaType;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Unit tests of the small decisions: secrets, echoable values, languages, negotiation. */
class InternalsTest {

    @Test
    void namesThatLookSecret() {
        for (String name : List.of("password", "newPassword", "user.password", "X-Api-Token", "apiKey", "api_key",
                "Authorization", "client_secret", "credentials[0].value", "sessionId", "Cookie", "pin", "userPin",
                "otp", "cvv", "privateKey", "refresh-token")) {
            assertTrue(Secrets.looksSecret(name), name);
        }
        for (String name : List.of("name", "email", "items[0].quantity", "X-Tenant", "page", "shipping", "id",
                "description", "tags[1]")) {
            assertFalse(Secrets.looksSecret(name), name);
        }
    }

    @Test
    void onlyShortScalarsAreEchoed() {
        assertEquals("abc", Secrets.echoable("q", "abc"));
        assertEquals(5, Secrets.echoable("n", 5));
        assertEquals(true, Secrets.echoable("b", true));
        assertEquals("NEW", Secrets.echoable("state", Thread.State.NEW));
        assertNull(Secrets.echoable("q", "x".repeat(Secrets.MAX_ECHO_CHARS + 1)));
        assertNull(Secrets.echoable("items", List.of(1)));
        assertNull(Secrets.echoable("customer", new Object()));
        assertNull(Secrets.echoable("password", "hunter2"));
        assertNull(Secrets.echoable("q", null));
    }

    @Test
    void languages() {
        assertEquals(Locale.GERMAN, Locales.choose(List.of(Locale.GERMAN)));
        assertEquals(Locale.forLanguageTag("de-CH"), Locales.choose(List.of(Locale.forLanguageTag("de-CH"))));
        assertEquals(Locale.ROOT, Locales.choose(List.of(Locale.ENGLISH, Locale.GERMAN)));
        assertEquals(Locale.FRENCH, Locales.choose(List.of(Locale.forLanguageTag("sw"), Locale.FRENCH)));
        assertEquals(Locale.ROOT, Locales.choose(List.of(Locale.forLanguageTag("sw"))));
        assertEquals(Locale.ROOT, Locales.choose(List.of()));
    }

    @Test
    void negotiation() {
        assertEquals(ProblemResponder.PROBLEM_JSON, ProblemResponder.negotiate(List.of()));
        assertEquals(ProblemResponder.PROBLEM_JSON, ProblemResponder.negotiate(List.of(MediaType.WILDCARD_TYPE)));
        assertEquals(MediaType.APPLICATION_JSON_TYPE,
                ProblemResponder.negotiate(List.of(MediaType.APPLICATION_JSON_TYPE)));
        assertEquals(ProblemResponder.TEXT_UTF8, ProblemResponder.negotiate(List.of(MediaType.TEXT_HTML_TYPE)));
        assertEquals(ProblemResponder.PROBLEM_JSON,
                ProblemResponder.negotiate(List.of(MediaType.APPLICATION_OCTET_STREAM_TYPE)));
    }
}
