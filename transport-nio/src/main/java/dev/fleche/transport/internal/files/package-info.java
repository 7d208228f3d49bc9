/**
 * Static content ({@code StaticContent}, {@code StaticHandler}): files of a directory or of the class path, served
 * at a path prefix before the handler, on either protocol.
 *
 * <p>Owns: {@code StaticMount} (one prefix: lookup, conditions, ranges, the answer), {@code RequestPath} (the path taken
 * apart safely), {@code DirectoryFiles} and {@code ClassPathFiles}, {@code SmallFiles} (the cache),
 * {@code Conditions}, {@code HttpDates}, {@code MediaTypes}, {@code AcceptEncoding}, {@code Representation},
 * {@code Sources}.
 *
 * <p>May import: {@code exchange} ({@code StaticTransfers}, {@code PacedBody}), {@code rules}, the public API. Never a
 * protocol: what an exchange can take (a file region, a paced body) it asks the exchange.
 */
package dev.fleche.transport.internal.files;
