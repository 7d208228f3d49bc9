/**
 * A modular Jersey application on Fleche: it reads the four Fleche modules as named modules and opens its
 * resources to Jersey, HK2 and Hibernate Validator, which construct, inject and validate them reflectively.
 */
module dev.fleche.examples.modulepath {
    requires dev.fleche.jersey;
    requires dev.fleche.async;
    requires dev.fleche.validation;
    requires jakarta.validation;

    opens dev.fleche.examples.modulepath;
}
