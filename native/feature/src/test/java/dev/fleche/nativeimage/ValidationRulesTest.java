package dev.fleche.nativeimage;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the validation rules register for constrained classes, constraints and validators. */
@Timeout(30)
class ValidationRulesTest {
    @Retention(RetentionPolicy.RUNTIME)
    @Constraint(validatedBy = EvenValidator.class)
    public @interface Even {
        String message() default "must be even";

        Class<?>[] groups() default {};

        Class<? extends Payload>[] payload() default {};
    }

    public static class EvenValidator implements ConstraintValidator<Even, Integer> {
        @Override
        public boolean isValid(Integer value, ConstraintValidatorContext context) {
            return value == null || value % 2 == 0;
        }
    }

    public static class Item {
        @NotBlank
        @Size(max = 10)
        public String title;
        @Even
        public Integer count;
    }

    public static class Service {
        public void find(@Positive long id) {
        }

        public void save(@Valid Item item) {
        }
    }

    public static class Unconstrained {
        public String title;
    }

    private final RecordingRegistrar registrar = new RecordingRegistrar();
    private final ValidationRules rules = new ValidationRules(registrar);

    @Test
    void aConstrainedBeanItsConstraintsAndTheirValidatorsAreRegistered() {
        assertTrue(rules.reached(Item.class));
        assertTrue(registrar.has("field " + Item.class.getName() + "#title"));
        assertTrue(registrar.has("method " + NotBlank.class.getName() + "#message()"), "attributes read reflectively");
        assertTrue(registrar.has("proxy " + Size.class.getName()));
        assertTrue(registrar.has("constructor " + EvenValidator.class.getName() + "()"), "validatedBy");
    }

    @Test
    void parameterConstraintsAndCascadesMakeAClassConstrained() {
        assertTrue(rules.reached(Service.class));
        assertTrue(registrar.has("method " + Service.class.getName() + "#find(long)"));
        assertTrue(registrar.has("method " + Positive.class.getName() + "#groups()"));
    }

    @Test
    void aValidatorIsConstructible() {
        assertTrue(rules.reached(EvenValidator.class));
        assertTrue(registrar.has("constructor " + EvenValidator.class.getName() + "()"));
    }

    @Test
    void anUnconstrainedClassGetsNothing() {
        assertFalse(rules.reached(Unconstrained.class));
        assertTrue(registrar.lines.isEmpty(), registrar.lines::toString);
    }
    @Test
    void messageBundlesAreRegisteredWithEveryLanguageAndTheirFiles() {
        RecordingRegistrar registrar = new RecordingRegistrar();
        ValidationRules.bundles(getClass().getClassLoader().getUnnamedModule(), java.util.List.of(
                "org/hibernate/validator/ValidationMessages.properties",
                "org/hibernate/validator/ValidationMessages_de.properties",
                "org/hibernate/validator/ValidationMessages_zh_TW.properties",
                "ValidationMessages_fr.properties", "ValidationMessagesExtra.properties",
                "org/hibernate/validator/ValidationMessages.class"), registrar);
        assertTrue(registrar.has("bundle org.hibernate.validator.ValidationMessages [, de, zh_TW]"),
                registrar.lines::toString);
        assertTrue(registrar.has("bundle ValidationMessages [fr]"));
        // the files themselves: the builder does not register them for a bundle of the unnamed module
        assertTrue(registrar.has("resource org/hibernate/validator/ValidationMessages_de.properties"));
        assertTrue(registrar.has("resource org/hibernate/validator/ValidationMessages.properties"));
        assertTrue(registrar.has("resource ValidationMessages_fr.properties"));
        assertFalse(registrar.lines.toString().contains("Extra"), "another bundle whose name starts alike");
        assertFalse(registrar.lines.toString().contains(".class"));
    }
}
