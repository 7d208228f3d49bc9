package dev.fleche.examples.service;

import dev.fleche.jersey.DrainPolicy;
import dev.fleche.transport.AccessLog;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * The service's settings, read once by {@code main} from the environment (the container way) and the command
 * line; everything else gets them from here.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>source</th><th>meaning</th><th>default</th></tr>
 *   <tr><td>first argument, else {@code PORT}</td><td>TCP port on all interfaces; 0 picks a free one</td><td>8080</td></tr>
 *   <tr><td>{@code DATABASE_URL}</td><td>JDBC URL of the to-do store: H2 (one process) or PostgreSQL
 *       ({@code jdbc:postgresql://host:5432/db?user=...&password=...}: replicas share it, {@code /changes} fans
 *       out; see {@link Database})</td><td>{@code jdbc:h2:mem:todos;DB_CLOSE_DELAY=-1}</td></tr>
 *   <tr><td>{@code DRAIN_DELAY_SECONDS}</td><td>serve on after readiness went 503 (SIGTERM)</td><td>5</td></tr>
 *   <tr><td>{@code DRAIN_GRACE_SECONDS}</td><td>time for requests in flight once the listener closed</td><td>10</td></tr>
 *   <tr><td>{@code BIND_HOST}</td><td>address to listen on</td><td>{@code 0.0.0.0}</td></tr>
 *   <tr><td>{@code FLECHE_ACCESS_LOG}</td><td>the access log: {@code json}, {@code common} or {@code combined}
 *       writes lines of that format to standard output; a path (anything with a {@code /}) writes JSON lines to
 *       that file, rotated at 100 MiB, 5 kept; {@code off} or empty: none</td><td>none</td></tr>
 *   <tr><td>{@code BIND_PATH}, {@code TLS_CERT_FILE}, {@code TLS_KEY_FILE}, {@code TLS_CA_FILE},
 *       {@code TLS_RELOAD_SECONDS}, {@code TLS_MIN_VALID_DAYS}, {@code PROXY_PROTOCOL}</td><td>a Unix domain socket,
 *       HTTPS from PEM files rotated without a restart, the PROXY protocol: {@link ListenerConfig}</td><td>none</td></tr>
 * </table>
 *
 * @param host      the address to bind
 * @param port      the port to bind (0: any free one)
 * @param jdbcUrl   the to-do database
 * @param drain     the drain on SIGTERM
 * @param accessLog the transport's access log, or null for none
 * @param listener  the socket, TLS and PROXY settings
 */
public record ServiceConfig(String host, int port, String jdbcUrl, DrainPolicy drain, AccessLog accessLog,
                            ListenerConfig listener) {
    /** The {@code System.Logger} the service routes to standard output, one raw line per message. */
    public static final String ACCESS_LOGGER = "dev.fleche.access";

    public ServiceConfig {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0..65535: " + port);
        }
        if (jdbcUrl == null || !(jdbcUrl.startsWith("jdbc:h2:") || jdbcUrl.startsWith("jdbc:postgresql:"))) {
            throw new IllegalArgumentException("DATABASE_URL must be an H2 (jdbc:h2:...) or PostgreSQL "
                    + "(jdbc:postgresql://host:5432/db?user=...&password=...) JDBC URL: " + jdbcUrl);
        }
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("host must not be blank");
        }
    }

    /** The settings from {@code args} and {@code env} (see the table). */
    public static ServiceConfig from(String[] args, Map<String, String> env) {
        String port = args.length > 0 ? args[0] : env.getOrDefault("PORT", "8080");
        return new ServiceConfig(env.getOrDefault("BIND_HOST", "0.0.0.0"),
                integer("port", port),
                env.getOrDefault("DATABASE_URL", "jdbc:h2:mem:todos;DB_CLOSE_DELAY=-1"),
                new DrainPolicy(seconds(env, "DRAIN_DELAY_SECONDS", 5), seconds(env, "DRAIN_GRACE_SECONDS", 10)),
                accessLog(env.get("FLECHE_ACCESS_LOG")), ListenerConfig.from(env));
    }

    /** The access log {@code FLECHE_ACCESS_LOG} asks for (see the table), or null. */
    static AccessLog accessLog(String value) {
        if (value == null || value.isBlank() || value.trim().equalsIgnoreCase("off")) {
            return null;
        }
        String setting = value.trim();
        if (setting.contains("/")) {
            return AccessLog.builder().format(AccessLog.Format.JSON).file(Path.of(setting)).build();
        }
        AccessLog.Format format;
        try {
            format = AccessLog.Format.valueOf(setting.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("FLECHE_ACCESS_LOG must be json, common, combined, off or a file "
                    + "path: " + value, e);
        }
        return AccessLog.builder().format(format).logger(ACCESS_LOGGER).build();
    }

    private static Duration seconds(Map<String, String> env, String name, int otherwise) {
        String value = env.get(name);
        return Duration.ofMillis(Math.round((value == null ? otherwise : number(name, value)) * 1000));
    }

    private static double number(String name, String value) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a number of seconds: " + value, e);
        }
    }

    private static int integer(String name, String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be an integer: " + value, e);
        }
    }
}
