/**
 * Build-time support for native images of Jersey applications on Fleche: a GraalVM Feature the native-image
 * builder loads from this jar's {@code META-INF/native-image/dev.fleche/fleche-native-image/native-image.properties},
 * and that metadata file's neighbours. Nothing here is for applications to call.
 */
module dev.fleche.nativeimage {
    requires org.graalvm.nativeimage;
    // The builder instantiates the Feature by name.
    exports dev.fleche.nativeimage;
}
