/**
 * Jersey on Fleche: the {@link dev.fleche.jersey.FlecheContainer Container}, the server factory, the
 * {@code SeBootstrap} web server and {@link dev.fleche.jersey.NonBlocking @NonBlocking}. See the module README for
 * the ways in, the threading contract and the request properties.
 *
 * <p>This package holds only what users touch; each type is public for one reason:
 * <table>
 *   <caption>Why each type is public</caption>
 *   <tr><th>type</th><th>why users touch it</th></tr>
 *   <tr><td>{@code FlecheContainer}</td><td>the Jersey {@code Container}: mounted on a transport they build</td></tr>
 *   <tr><td>{@code FlecheHttpServerFactory}, {@code FlecheHttpServer}</td><td>the usual way in (Jersey's
 *       {@code GrizzlyHttpServerFactory} shape): create, start, stop</td></tr>
 *   <tr><td>{@code FlecheContainerProvider}, {@code FlecheWebServerProvider}, {@code FlecheWebServer}</td><td>found
 *       by Jersey through {@code META-INF/services} ({@code ContainerFactory}, {@code SeBootstrap}); the web server
 *       is chosen by name in {@code jersey.config.server.webServerProvider}</td></tr>
 *   <tr><td>{@code FlecheProperties}</td><td>the names of the settings they put in the application's
 *       configuration</td></tr>
 *   <tr><td>{@code NonBlocking}</td><td>the annotation on a resource method that runs on the reactor</td></tr>
 *   <tr><td>{@code ClientConnection}</td><td>read from a request property by code that outlives the resource
 *       method</td></tr>
 *   <tr><td>{@code FlecheRequestIds}, {@code RequestTrace}</td><td>registered for request ids and W3C Trace Context;
 *       read from a request property</td></tr>
 *   <tr><td>{@code Health}, {@code HealthCheck}</td><td>registered for liveness and readiness; their checks</td></tr>
 *   <tr><td>{@code Drain}, {@code DrainPolicy}</td><td>the stop sequence behind a load balancer, and its
 *       timing</td></tr>
 *   <tr><td>{@code FlecheMetrics}</td><td>registered for Micrometer metrics</td></tr>
 * </table>
 *
 * <p>Everything else is in {@code dev.fleche.jersey.internal}. The public types that use the internals
 * ({@code FlecheContainer}, {@code FlecheHttpServer}, {@code Health}, ...) are never imported by them: the internals
 * import only the public types that import nothing of theirs (the property names, {@code ClientConnection},
 * {@code HealthCheck}, {@code NonBlocking}, {@code RequestTrace}), and take what they need of the others — a
 * health's paths, phase and checks, a server's stop — as values and functions.
 */
package dev.fleche.jersey;
