package dev.fleche.nativeimage;

import org.graalvm.nativeimage.hosted.Feature;

/**
 * The builder's entry point (named in this jar's {@code native-image.properties}): the metadata a Jersey
 * application on Fleche needs, derived from what the image reaches. Every class the analysis reaches goes through
 * {@link JaxrsRules} (Jakarta REST components, injection points, entities, parameter types, proxies) and
 * {@link ValidationRules} (Bean Validation); before the analysis, {@link ServiceFiles} adds Jersey's service files,
 * {@link ValidationRules#bundles} the validator's message bundles and {@link JbossLoggingRules} its generated
 * loggers. {@link JerseyDefaultProviders} leaves Jersey's XML, image and data-source providers
 * out of the image.
 */
public final class JaxrsReachabilityFeature implements Feature {
    @Override
    public String getDescription() {
        return "Fleche: reflection for the Jakarta REST components, injection points and entities the image reaches";
    }

    @Override
    public void beforeAnalysis(BeforeAnalysisAccess access) {
        Registrar registrar = new Registrar.Builder();
        JaxrsRules jaxrs = new JaxrsRules(registrar, access.findClassByName("org.glassfish.hk2.api.ProxyCtl"));
        ValidationRules validation = new ValidationRules(registrar);
        access.registerSubtypeReachabilityHandler((duringAnalysis, type) -> {
            jaxrs.reached(type);
            validation.reached(type);
        }, Object.class);
        JbossLoggingRules.register(access, registrar);
        ServiceFiles.register(access, registrar);
        ValidationRules.bundles(access, registrar);
    }
}
