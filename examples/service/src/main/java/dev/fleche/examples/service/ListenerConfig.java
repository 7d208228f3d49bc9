package dev.fleche.examples.service;

import dev.fleche.jersey.HealthCheck;
import dev.fleche.transport.PemFiles;
import dev.fleche.transport.ProxyProtocol;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.TlsOptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where and how the service listens beyond host and port — the edges of a deployment, read from the environment:
 * a Unix domain socket for a sidecar, HTTPS from a mounted TLS Secret (rotated without a restart), the PROXY protocol
 * behind a layer-4 load balancer.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>variable</th><th>meaning</th><th>default</th></tr>
 *   <tr><td>{@code BIND_PATH}</td><td>listen on a Unix domain socket at this path instead of {@code BIND_HOST} and
 *       the port (mode {@code rw-rw----}, deleted at stop); {@code READY unix:<path>} is printed</td><td>none</td></tr>
 *   <tr><td>{@code TLS_CERT_FILE}, {@code TLS_KEY_FILE}</td><td>serve HTTPS with this PEM certificate chain and
 *       private key (a Kubernetes TLS Secret's {@code tls.crt} and {@code tls.key}); read again every
 *       {@code TLS_RELOAD_SECONDS} and rotated without a restart</td><td>none: HTTP</td></tr>
 *   <tr><td>{@code TLS_CA_FILE}</td><td>PEM CA certificates; client certificates are then required and verified
 *       against them (mutual TLS)</td><td>none</td></tr>
 *   <tr><td>{@code TLS_RELOAD_SECONDS}</td><td>seconds between reads of the PEM files; 0: never</td><td>10</td></tr>
 *   <tr><td>{@code TLS_MIN_VALID_DAYS}</td><td>readiness is down when the served certificate expires within this many
 *       days (a rotation that did not happen); 0: no such check</td><td>0</td></tr>
 *   <tr><td>{@code PROXY_PROTOCOL}</td><td>comma-separated CIDR ranges of the load balancers: every connection then
 *       begins with a PROXY header (v1 or v2) from one of them, and its client address is the request's</td>
 *       <td>none: off</td></tr>
 * </table>
 *
 * @param bindPath      the Unix domain socket, or null for TCP
 * @param certFile      the PEM certificate chain, or null for plain HTTP
 * @param keyFile       the PEM private key (with {@code certFile})
 * @param caFile        the PEM CA bundle for client certificates, or null
 * @param reload        how often the PEM files are read again
 * @param minValidDays  readiness margin on the certificate's expiry, in days (0: none)
 * @param proxySources  the PROXY protocol's trusted sources; empty: off
 */
public record ListenerConfig(Path bindPath, Path certFile, Path keyFile, Path caFile, Duration reload,
                             int minValidDays, List<String> proxySources) {

    public ListenerConfig {
        if ((certFile == null) != (keyFile == null)) {
            throw new IllegalArgumentException("TLS_CERT_FILE and TLS_KEY_FILE go together");
        }
        if (caFile != null && certFile == null) {
            throw new IllegalArgumentException("TLS_CA_FILE needs TLS_CERT_FILE and TLS_KEY_FILE");
        }
        if (minValidDays < 0 || reload.isNegative()) {
            throw new IllegalArgumentException("TLS_MIN_VALID_DAYS and TLS_RELOAD_SECONDS must not be negative");
        }
        proxySources = List.copyOf(proxySources);
        if (!proxySources.isEmpty()) {
            ProxyProtocol.builder().trust(proxySources).build(); // fails naming a bad range
        }
    }

    /** The settings of {@code env} (see the table). */
    public static ListenerConfig from(Map<String, String> env) {
        String proxy = env.getOrDefault("PROXY_PROTOCOL", "").trim();
        return new ListenerConfig(path(env, "BIND_PATH"), path(env, "TLS_CERT_FILE"), path(env, "TLS_KEY_FILE"),
                path(env, "TLS_CA_FILE"), Duration.ofSeconds(integer(env, "TLS_RELOAD_SECONDS", 10)),
                integer(env, "TLS_MIN_VALID_DAYS", 0),
                proxy.isEmpty() ? List.of() : Arrays.asList(proxy.split("\\s*,\\s*")));
    }

    /** The PEM files, read and checked now; null without TLS. */
    public PemFiles pemFiles() {
        if (certFile == null) {
            return null;
        }
        try {
            return PemFiles.builder(certFile, keyFile).trustBundle(caFile).reloadInterval(reload).build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code options} with the socket, TLS from {@code pem} (may be null) and the PROXY protocol. */
    public ServerOptions apply(ServerOptions options, PemFiles pem) {
        ServerOptions.Builder builder = options.toBuilder();
        if (pem != null) {
            builder.tls(TlsOptions.builder(pem).clientAuth(caFile == null ? TlsOptions.ClientAuth.NONE
                    : TlsOptions.ClientAuth.NEED).build());
        }
        if (!proxySources.isEmpty()) {
            builder.proxyProtocol(ProxyProtocol.builder().trust(proxySources).build());
        }
        return builder.build();
    }

    /** The server URI: {@code http(s)://host:port/}, or {@code http(s)+unix://<socket>/} with {@code BIND_PATH}. */
    public URI uri(String host, int port) {
        String scheme = certFile == null ? "http" : "https";
        if (bindPath != null) {
            return URI.create(scheme + "+unix://" + URLEncoder.encode(bindPath.toAbsolutePath().toString(),
                    StandardCharsets.UTF_8) + "/");
        }
        return URI.create(scheme + "://" + host + ":" + port + "/");
    }

    /** The readiness check on the certificate's expiry, or null when there is none to make. */
    public HealthCheck certificateCheck(PemFiles pem) {
        return pem == null || minValidDays == 0 ? null
                : HealthCheck.certificateExpiry(pem, Duration.ofDays(minValidDays));
    }

    private static Path path(Map<String, String> env, String name) {
        String value = env.get(name);
        return value == null || value.isBlank() ? null : Path.of(value.trim());
    }

    private static int integer(Map<String, String> env, String name, int otherwise) {
        String value = env.get(name);
        try {
            return value == null || value.isBlank() ? otherwise : Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name.toUpperCase(Locale.ROOT) + " must be an integer: " + value, e);
        }
    }
}
