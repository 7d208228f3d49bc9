/** Hello on the raw transport, as a named module: runs from the module path and links into a jlink image. */
module dev.fleche.examples.transporthello {
    requires dev.fleche.transport;
}
