package dev.fleche.transport.internal.files;

import dev.fleche.transport.ErrorRenderer;
import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.HttpHandler;
import dev.fleche.transport.StaticContent;
import dev.fleche.transport.internal.rules.StaticRule;
import dev.fleche.transport.internal.exchange.StaticTransfers;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * One {@link StaticContent} prefix at work: takes a request under the prefix from the reactor, finds the file
 * ({@link RequestPath}, then {@link DirectoryFiles} or {@link ClassPathFiles}), applies the validators and the range
 * ({@link Conditions}) and answers: {@code 304}, {@code 412}, {@code 416}, a {@code HEAD}'s head, or the body — on
 * plain HTTP/1.1 from the file to the socket ({@code StaticTransfers.respondFile}), otherwise read on the reader
 * threads and paced by the client ({@code StaticTransfers.respondPaced}), or from memory for a small file. Every other
 * answer names its {@link StaticRule}, or, with {@code fallThrough}, leaves the request to the next handler.
 *
 * <pre>
 *   method ─ not GET/HEAD ─▶ 405 (fall-through: next)
 *   path ─▶ RequestPath ─ refused ─▶ 400 / 404 (fall-through: next)
 *        ─▶ lookup ─┬─ directory without "/" ─▶ 301 to it
 *                   ├─ directory ─▶ its index ─┐
 *                   ├─ file ───────────────────┼─▶ sibling .br/.gz? ─▶ conditions ─▶ 304 | 412 | 416 | 200 | 206
 *                   └─ missing ─▶ fallback ─────┘                       (missing, no fallback: 404, or next)
 *   class path, a name not known yet: learnt on a reader thread, then the same steps again on the reactor
 * </pre>
 */
public final class StaticMount {
    private static final byte[] EMPTY = new byte[0];

    private final StaticContent content;
    private final String prefix;
    private final MediaTypes types;
    private final DirectoryFiles directory;
    private final ClassPathFiles classPath;
    /** A directory's small files, kept in memory (null for the class path, which has its own cache). */
    private final SmallFiles smallFiles;
    private final Executor readers;
    private final List<String> fallbackNames;

    /** Checks the content's root (a directory must exist) and keeps {@code readers} for the reads off the reactor. */
    public StaticMount(StaticContent content, Executor readers) {
        this.content = content;
        this.prefix = content.prefix();
        this.types = new MediaTypes(content.mediaTypes());
        this.directory = content.directory() == null ? null
                : new DirectoryFiles(content.directory(), content.linksOutside());
        this.classPath = content.classPath() == null ? null
                : new ClassPathFiles(content.classPath(), content.classLoader(), content.maxCachedFileBytes(),
                        content.maxCacheBytes(), content.maxCachedNames());
        this.smallFiles = directory == null ? null : new SmallFiles(content.maxCachedFileBytes(),
                content.maxCacheBytes(), content.maxCachedNames());
        this.readers = readers;
        this.fallbackNames = content.fallback() == null ? null : Arrays.asList(content.fallback().split("/"));
    }

    public StaticContent content() {
        return content;
    }

    /** Whether {@code path} is this prefix's: under it, or the prefix without its last slash. */
    public boolean claims(String path) {
        return path.startsWith(prefix) || (prefix.length() > 1 && path.length() == prefix.length() - 1
                && prefix.startsWith(path));
    }

    /** Serves {@code exchange}, whose path this prefix {@link #claims}; on the reactor. */
    public void serve(HttpExchange exchange, HttpHandler next) throws Exception {
        String method = exchange.method();
        if (!method.equals("GET") && !method.equals("HEAD")) {
            if (content.fallThrough()) {
                next(exchange, next);
            } else {
                refuse(exchange, StaticRule.STATIC_METHOD_NOT_ALLOWED, "Allow", "GET, HEAD");
            }
            return;
        }
        String path = exchange.path();
        if (path.length() < prefix.length()) {
            redirect(exchange, prefix);
            return;
        }
        RequestPath request = RequestPath.parse(path.substring(prefix.length()), content.hidden());
        if (request.refusal() != null) {
            missing(exchange, next, request.refusal());
        } else if (directory != null) {
            serveFile(exchange, request, next);
        } else {
            serveResource(exchange, request, next, Map.of());
        }
    }

    // ---------------------------------------------------------------- a directory

    private void serveFile(HttpExchange exchange, RequestPath request, HttpHandler next) throws Exception {
        DirectoryFiles.Lookup lookup = directory.find(request.segments());
        Representation found = null;
        StaticRule rule = StaticRule.STATIC_NOT_FOUND;
        if (lookup instanceof DirectoryFiles.Found file && !request.directory()) {
            found = variant(exchange, file, lastName(request.segments()));
        } else if (lookup instanceof DirectoryFiles.Directory folder) {
            if (!request.directory()) {
                redirect(exchange, exchange.path() + "/");
                return;
            }
            DirectoryFiles.Found index = content.index() == null ? null : directory.file(folder.path(), content.index());
            found = index == null ? null : variant(exchange, index, content.index());
        } else if (lookup instanceof DirectoryFiles.Missing missing && missing.outside()) {
            rule = StaticRule.STATIC_OUTSIDE_ROOT;
        }
        if (found == null && fallbackNames != null && rule == StaticRule.STATIC_NOT_FOUND
                && directory.find(fallbackNames) instanceof DirectoryFiles.Found fallback) {
            found = variant(exchange, fallback, lastName(fallbackNames));
        }
        if (found == null) {
            missing(exchange, next, rule);
            return;
        }
        answer(exchange, found);
    }

    /** The file, or its precompressed sibling when the prefix serves them and the client takes that coding. */
    private Representation variant(HttpExchange exchange, DirectoryFiles.Found file, String name) {
        if (content.precompressed()) {
            String accepted = exchange.headers().get("Accept-Encoding");
            String fileName = file.path().getFileName().toString();
            for (String[] coding : CODINGS) {
                if (AcceptEncoding.accepts(accepted, coding[0])) {
                    DirectoryFiles.Found sibling = directory.file(file.path().getParent(), fileName + coding[1]);
                    if (sibling != null) {
                        return DirectoryFiles.representation(name, sibling, coding[0]);
                    }
                }
            }
        }
        return DirectoryFiles.representation(name, file, null);
    }

    /** The codings of precompressed siblings, best first: the coding and the file's suffix. */
    private static final String[][] CODINGS = {{"br", ".br"}, {"gzip", ".gz"}};

    private static String lastName(List<String> names) {
        return names.isEmpty() ? "" : names.get(names.size() - 1);
    }

    // ---------------------------------------------------------------- the class path

    /**
     * Serves a class-path request from what is known of its names ({@code learnt}, then the cache); a name not known
     * yet is learnt on a reader thread, and the request comes back here on the reactor.
     */
    private void serveResource(HttpExchange exchange, RequestPath request, HttpHandler next,
            Map<String, ClassPathFiles.Entry> learnt) throws Exception {
        String name = classPath.name(String.join("/", request.segments()));
        Lookup lookup = new Lookup(learnt);
        ClassPathFiles.Entry entry = lookup.entry(name);
        Representation found = null;
        if (entry instanceof ClassPathFiles.Resource resource && !request.directory()) {
            found = resourceVariant(exchange, lookup, name, resource, lastName(request.segments()));
        } else if (entry instanceof ClassPathFiles.Folder) {
            if (!request.directory()) {
                redirect(exchange, exchange.path() + "/");
                return;
            }
            if (content.index() != null) {
                String index = name + "/" + content.index();
                if (lookup.entry(index) instanceof ClassPathFiles.Resource resource) {
                    found = resourceVariant(exchange, lookup, index, resource, content.index());
                }
            }
        }
        if (found == null && lookup.complete() && fallbackNames != null
                && lookup.entry(classPath.name(content.fallback())) instanceof ClassPathFiles.Resource resource) {
            found = resourceVariant(exchange, lookup, classPath.name(content.fallback()), resource,
                    lastName(fallbackNames));
        }
        if (!lookup.complete()) {
            learn(exchange, request, next, learnt, lookup.unknown);
        } else if (found == null) {
            missing(exchange, next, StaticRule.STATIC_NOT_FOUND);
        } else {
            answer(exchange, found);
        }
    }

    private Representation resourceVariant(HttpExchange exchange, Lookup lookup, String name,
            ClassPathFiles.Resource resource, String requested) {
        if (content.precompressed()) {
            String accepted = exchange.headers().get("Accept-Encoding");
            for (String[] coding : CODINGS) {
                if (AcceptEncoding.accepts(accepted, coding[0])
                        && lookup.entry(name + coding[1]) instanceof ClassPathFiles.Resource sibling) {
                    return representation(requested, sibling, coding[0]);
                }
            }
        }
        return representation(requested, resource, null);
    }

    private static Representation representation(String name, ClassPathFiles.Resource resource, String encoding) {
        String etag = encoding == null ? resource.etag()
                : resource.etag().substring(0, resource.etag().length() - 1) + "-" + encoding + "\"";
        return new Representation(name, encoding, resource.size(), resource.modifiedSeconds(), etag, null,
                resource.bytes(), resource.bytes() == null ? resource.url() : null);
    }

    /** The entries a request needs, from what it learnt and the cache; remembers the first unknown name. */
    private final class Lookup {
        private final Map<String, ClassPathFiles.Entry> learnt;
        String unknown;

        Lookup(Map<String, ClassPathFiles.Entry> learnt) {
            this.learnt = learnt;
        }

        ClassPathFiles.Entry entry(String name) {
            if (unknown != null) {
                return null; // the rest waits until that one is known
            }
            ClassPathFiles.Entry entry = learnt.get(name);
            if (entry == null) {
                entry = classPath.cached(name);
            }
            if (entry == null) {
                unknown = name;
            }
            return entry;
        }

        boolean complete() {
            return unknown == null;
        }
    }

    /** Learns {@code name} on a reader thread, then serves the request again on its reactor. */
    private void learn(HttpExchange exchange, RequestPath request, HttpHandler next,
            Map<String, ClassPathFiles.Entry> learnt, String name) {
        try {
            readers.execute(() -> {
                Map<String, ClassPathFiles.Entry> more = new HashMap<>(learnt);
                more.put(name, classPath.load(name));
                exchange.execute(() -> onReactor(exchange, () -> serveResource(exchange, request, next, more)));
            });
        } catch (RejectedExecutionException e) {
            exchange.abort(); // the server is stopping
        }
    }

    /** Runs {@code work} for {@code exchange} outside the transport's dispatch: a failure answers 500 itself. */
    private static void onReactor(HttpExchange exchange, Work work) {
        try {
            work.run();
        } catch (Exception | Error e) {
            System.getLogger("dev.fleche.transport").log(System.Logger.Level.WARNING,
                    "event=handler-error conn=" + exchange.connectionId(), e);
            if (!exchange.isResponseStarted()) {
                try {
                    exchange.respond(500, new HttpFields(1).add("Content-Type", "text/plain; charset=utf-8"),
                            "internal server error\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    return;
                } catch (IllegalStateException raced) {
                    // answered meanwhile
                }
            }
            exchange.abort();
        }
    }

    private interface Work {
        void run() throws Exception;
    }

    // ---------------------------------------------------------------- answers

    /** Validators, conditions, range; then the head or the body. */
    private void answer(HttpExchange exchange, Representation found) throws IOException {
        String lastModified = found.modifiedSeconds() >= 0 ? HttpDates.format(found.modifiedSeconds()) : null;
        String cacheControl = cacheControl(found.name());
        Conditions conditions = Conditions.evaluate(exchange.headers(), found.etag(), found.modifiedSeconds(),
                found.size());
        if (conditions.status() == 304) {
            HttpFields fields = new HttpFields(4);
            validators(fields, found, lastModified, cacheControl);
            exchange.respond(304, fields, EMPTY);
            return;
        }
        if (conditions.status() == 412) {
            refuse(exchange, StaticRule.STATIC_PRECONDITION_FAILED, null, null);
            return;
        }
        if (conditions.status() == 416) {
            refuse(exchange, StaticRule.STATIC_RANGE_NOT_SATISFIABLE, "Content-Range", "bytes */" + found.size());
            return;
        }
        HttpFields fields = new HttpFields(10).add("Content-Type", types.of(found.name()));
        if (found.encoding() != null) {
            fields.add("Content-Encoding", found.encoding());
        }
        validators(fields, found, lastModified, cacheControl);
        fields.add("Accept-Ranges", "bytes").add("X-Content-Type-Options", "nosniff");
        if (conditions.status() == 206) {
            fields.add("Content-Range", "bytes " + conditions.first() + "-"
                    + (conditions.first() + conditions.length() - 1) + "/" + found.size());
        }
        body(exchange, found, conditions, fields);
    }

    /** The fields a {@code 304} repeats (RFC 9110 15.4.5): {@code Vary}, the validators, {@code Cache-Control}. */
    private void validators(HttpFields fields, Representation found, String lastModified, String cacheControl) {
        if (content.precompressed()) {
            fields.add("Vary", "Accept-Encoding");
        }
        if (lastModified != null) {
            fields.add("Last-Modified", lastModified);
        }
        fields.add("ETag", found.etag());
        if (cacheControl != null) {
            fields.add("Cache-Control", cacheControl);
        }
    }

    private String cacheControl(String name) {
        if (content.immutableNames() != null && content.immutableNames().matcher(name).matches()) {
            return StaticContent.IMMUTABLE;
        }
        return content.cacheControl();
    }

    private void body(HttpExchange exchange, Representation found, Conditions conditions, HttpFields fields)
            throws IOException {
        int status = conditions.status();
        long length = conditions.length();
        if (exchange.method().equals("HEAD")) {
            exchange.startResponse(status, fields, length).close(); // HEAD: the length, no body (both protocols)
        } else if (length == 0) {
            exchange.respond(status, fields, EMPTY);
        } else if (found.bytes() != null) {
            exchange.respond(status, fields, slice(found.bytes(), conditions));
        } else if (found.resource() != null) {
            StaticTransfers.respondPaced(exchange, status, fields, length,
                    Sources.resource(found.resource(), conditions.first()), readers);
        } else if (smallFiles.takes(found.size())) {
            ByteBuffer kept = smallFiles.get(found.file(), found.etag());
            if (kept != null) {
                StaticTransfers.respondBuffer(exchange, status, fields, slice(kept, conditions));
            } else {
                readSmallFile(exchange, found, conditions, fields);
            }
        } else if (StaticTransfers.takesFileRegions(exchange)) {
            FileChannel file;
            try {
                file = FileChannel.open(found.file(), StandardOpenOption.READ);
            } catch (IOException | SecurityException e) {
                refuse(exchange, StaticRule.STATIC_NOT_FOUND, null, null); // gone since it was found
                return;
            }
            StaticTransfers.respondFile(exchange, status, fields, file, conditions.first(), length, found.size());
        } else {
            StaticTransfers.respondPaced(exchange, status, fields, length,
                    Sources.file(found.file(), conditions.first(), found.size()), readers);
        }
    }

    /** The bytes of {@code whole} the conditions ask for: all of them, or the range's copy. */
    private static byte[] slice(byte[] whole, Conditions conditions) {
        return conditions.length() == whole.length ? whole
                : Arrays.copyOfRange(whole, (int) conditions.first(), (int) (conditions.first() + conditions.length()));
    }

    /** The part of {@code whole} (a view of a kept file) the conditions ask for: all of it, or the range's slice. */
    private static ByteBuffer slice(ByteBuffer whole, Conditions conditions) {
        return conditions.length() == whole.remaining() ? whole
                : whole.slice((int) conditions.first(), (int) conditions.length());
    }

    /** A small file not in memory yet: read on a reader thread, kept, and answered from there. */
    private void readSmallFile(HttpExchange exchange, Representation found, Conditions conditions, HttpFields fields) {
        try {
            readers.execute(() -> {
                ByteBuffer kept;
                try {
                    kept = smallFiles.load(found.file(), found.etag(), found.size());
                } catch (IOException | RuntimeException | OutOfMemoryError e) {
                    kept = null; // OutOfMemoryError: no direct memory left for it now
                }
                if (kept == null) {
                    exchange.abort(); // changed or gone since its head was decided: cut, never a wrong length
                } else {
                    StaticTransfers.respondBuffer(exchange, conditions.status(), fields, slice(kept, conditions));
                }
            });
        } catch (RejectedExecutionException e) {
            exchange.abort(); // the server is stopping
        }
    }

    private static void redirect(HttpExchange exchange, String location) {
        String query = exchange.query();
        HttpFields fields = new HttpFields(1).add("Location", query == null ? location : location + "?" + query);
        exchange.respond(301, fields, EMPTY);
    }

    /** Nothing to serve for this request: the next handler's with fall-through, else refused by {@code rule}. */
    private void missing(HttpExchange exchange, HttpHandler next, StaticRule rule) throws Exception {
        if (content.fallThrough()) {
            next(exchange, next);
        } else {
            refuse(exchange, rule, null, null);
        }
    }

    /** The next handler's, or {@code 404} when there is none. */
    static void next(HttpExchange exchange, HttpHandler next) throws Exception {
        if (next != null) {
            next.handle(exchange);
        } else {
            refuse(exchange, StaticRule.STATIC_NOT_FOUND, null, null);
        }
    }

    /** {@code 404}: what no prefix and no next handler answers. */
    public static void refuseMissing(HttpExchange exchange) {
        refuse(exchange, StaticRule.STATIC_NOT_FOUND, null, null);
    }

    /** Answers {@code rule} in the server's error format, with one more field when {@code name} is not null. */
    static void refuse(HttpExchange exchange, StaticRule rule, String name, String value) {
        StaticTransfers.refused(exchange, rule);
        ErrorRenderer.Body body = StaticTransfers.errorRenderer(exchange).render(rule.status(), rule.reason());
        HttpFields fields = new HttpFields(2).add("Content-Type", body.contentType());
        if (name != null) {
            fields.add(name, value);
        }
        exchange.respond(rule.status(), fields, body.bytes());
    }
}
