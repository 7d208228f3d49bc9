package dev.fleche.jersey.internal;

import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.HttpFields;

import java.net.InetAddress;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Builds Jersey's base and request URIs. Base URI = scheme + host + base path (root path and application path,
 * ending in {@code /}); the host is the {@code Host} header (the transport gives the absolute-form authority
 * first), else the address the connection was accepted on. With {@code trustForwarded} the forwarding headers
 * may change the scheme and host. Request URI = the same scheme and host + the raw path + the raw query.
 *
 * <p>Parsing a URI is a real cost at high request rates (about a microsecond and a half for a short one), so both
 * are cached. Base URIs per host value (one map per scheme), bounded (cleared when full) so that random
 * {@code Host} values cannot grow them. Request URIs in a direct-mapped table of {@value #REQUEST_SLOTS} slots keyed
 * by base, raw path and raw query: a request for a target seen recently reuses its (immutable) URI; any other
 * replaces the slot's entry, so the table never grows.
 */
public final class BaseUris {
    /** A parsed base URI and the {@code scheme://authority} prefix its request URIs start with. */
    public record Base(URI uri, String prefix) {
    }

    static final int MAX_CACHED = 256;
    static final int REQUEST_SLOTS = 256;

    /** A request URI and what it was built from. */
    private record Target(Base base, String path, String query, URI uri) {
    }

    private final String basePath;
    private final boolean trustForwarded;
    private final ConcurrentHashMap<String, Base> http = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Base> https = new ConcurrentHashMap<>();
    /** Racy by design: entries are immutable, a lost update only costs a parse. */
    private final Target[] targets = new Target[REQUEST_SLOTS];

    BaseUris(String basePath, boolean trustForwarded) {
        this.basePath = basePath;
        this.trustForwarded = trustForwarded;
    }

    /** The base URI of {@code exchange}. */
    public Base base(HttpExchange exchange) throws BadRequest {
        boolean secure = exchange.isSecure();
        String host = exchange.host();
        if (trustForwarded) {
            Forwarded forwarded = Forwarded.of(exchange.headers());
            if (forwarded.proto() != null) {
                secure = forwarded.proto().equalsIgnoreCase("https");
            }
            if (forwarded.host() != null) {
                host = forwarded.host();
            }
        }
        if (host == null || host.isEmpty()) {
            host = authority(exchange.localAddress());
        }
        ConcurrentHashMap<String, Base> cache = secure ? https : http;
        Base base = cache.get(host);
        if (base == null) {
            base = create(secure ? "https" : "http", host);
            if (cache.size() >= MAX_CACHED) {
                cache.clear();
            }
            cache.put(host, base);
        }
        return base;
    }

    /**
     * The absolute request URI: {@code base}'s scheme and host, the raw path and the raw query (may be null); the
     * same instance as for an earlier request with the same three while it is still in the table.
     */
    public URI requestUri(Base base, String path, String query) throws BadRequest {
        int hash = path.hashCode() * 31 + (query == null ? 0 : query.hashCode());
        int slot = (hash ^ (hash >>> 16)) & (REQUEST_SLOTS - 1);
        Target cached = targets[slot];
        if (cached != null && cached.base == base && cached.path.equals(path)
                && (query == null ? cached.query == null : query.equals(cached.query))) {
            return cached.uri;
        }
        URI uri = parse(base, path, query);
        targets[slot] = new Target(base, path, query, uri);
        return uri;
    }

    private static URI parse(Base base, String path, String query) throws BadRequest {
        String text = query == null ? base.prefix() + path : base.prefix() + path + '?' + query;
        try {
            return URI.create(text);
        } catch (IllegalArgumentException e) {
            // Clients send some characters unencoded (a query of JSON, say); Jersey's other containers
            // percent-encode them before building the URI, and so do we, on this rare path only.
            String encoded = query == null ? base.prefix() + encodeIllegal(path)
                    : base.prefix() + encodeIllegal(path) + '?' + encodeIllegal(query);
            try {
                return URI.create(encoded);
            } catch (IllegalArgumentException stillInvalid) {
                throw new BadRequest("request target is not a valid URI", stillInvalid);
            }
        }
    }

    /**
     * {@code raw} with the characters {@link URI} refuses in a path or query percent-encoded: {@code " < > \ ^ `
     * { | }}, a {@code %} not starting an escape, and bytes above 0x7F (the request target arrives as ISO-8859-1
     * text, one char per byte). Everything else, escapes included, stays as sent.
     */
    static String encodeIllegal(String raw) {
        StringBuilder out = new StringBuilder(raw.length() + 16);
        for (int i = 0, n = raw.length(); i < n; i++) {
            char c = raw.charAt(i);
            boolean illegal = c > 0x7E || c <= 0x20 || "\"<>\\^`{|}".indexOf(c) >= 0
                    || (c == '%' && !(i + 2 < n && isHex(raw.charAt(i + 1)) && isHex(raw.charAt(i + 2))));
            if (illegal) {
                out.append('%').append(HEX[(c >> 4) & 0xF]).append(HEX[c & 0xF]);
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private static boolean isHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    /** Hosts currently cached (both schemes). */
    int cachedHosts() {
        return http.size() + https.size();
    }

    private Base create(String scheme, String host) throws BadRequest {
        String prefix = scheme + "://" + host;
        URI uri;
        try {
            uri = URI.create(prefix + basePath);
        } catch (IllegalArgumentException e) {
            throw new BadRequest("host is not a valid URI authority", e);
        }
        if (uri.getHost() == null || uri.getRawUserInfo() != null) {
            throw new BadRequest("host is not a valid URI authority", null);
        }
        return new Base(uri, prefix);
    }

    /** {@code host:port} of an address, with brackets around an IPv6 literal. */
    static String authority(InetSocketAddress address) {
        if (address == null) {
            return "localhost"; // a Unix domain socket: no address; a request without a host is a local one
        }
        InetAddress ip = address.getAddress();
        String host = ip != null ? ip.getHostAddress() : address.getHostString();
        if (ip instanceof Inet6Address) {
            int zone = host.indexOf('%');
            host = "[" + (zone >= 0 ? host.substring(0, zone) : host) + "]";
        }
        return host + ":" + address.getPort();
    }

    /** The forwarding information of a request: RFC 7239 {@code Forwarded} first, else {@code X-Forwarded-*}. */
    record Forwarded(String proto, String host) {
        private static final Forwarded NONE = new Forwarded(null, null);

        static Forwarded of(HttpFields headers) {
            String forwarded = headers.get("Forwarded");
            if (forwarded != null) {
                return parse(firstElement(forwarded));
            }
            String proto = firstValue(headers.get("X-Forwarded-Proto"));
            String host = firstValue(headers.get("X-Forwarded-Host"));
            String port = firstValue(headers.get("X-Forwarded-Port"));
            if (host != null && port != null && !hasPort(host) && port.chars().allMatch(Character::isDigit)) {
                host = host + ":" + port;
            }
            return proto == null && host == null ? NONE : new Forwarded(checkedProto(proto), host);
        }

        /** Parses {@code name=value} pairs of one element ({@code ;}-separated, values possibly quoted). */
        private static Forwarded parse(String element) {
            String proto = null;
            String host = null;
            for (String pair : element.split(";")) {
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    continue;
                }
                String name = pair.substring(0, eq).trim();
                String value = unquote(pair.substring(eq + 1).trim());
                if (name.equalsIgnoreCase("proto")) {
                    proto = checkedProto(value);
                } else if (name.equalsIgnoreCase("host") && !value.isEmpty()) {
                    host = value;
                }
            }
            return new Forwarded(proto, host);
        }

        /** The first element of a {@code Forwarded} list: up to the first comma outside quotes. */
        private static String firstElement(String value) {
            boolean quoted = false;
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c == '"') {
                    quoted = !quoted;
                } else if (c == ',' && !quoted) {
                    return value.substring(0, i);
                }
            }
            return value;
        }

        private static String unquote(String value) {
            if (value.length() >= 2 && value.charAt(0) == '"' && value.charAt(value.length() - 1) == '"') {
                return value.substring(1, value.length() - 1);
            }
            return value;
        }

        private static String firstValue(String value) {
            if (value == null) {
                return null;
            }
            int comma = value.indexOf(',');
            String first = (comma >= 0 ? value.substring(0, comma) : value).trim();
            return first.isEmpty() ? null : first;
        }

        private static String checkedProto(String proto) {
            return proto != null && (proto.equalsIgnoreCase("http") || proto.equalsIgnoreCase("https")) ? proto : null;
        }

        private static boolean hasPort(String host) {
            int close = host.lastIndexOf(']');
            return host.indexOf(':', close + 1) >= 0;
        }
    }
}
