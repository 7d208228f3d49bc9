package dev.fleche.transport;

import dev.fleche.transport.internal.files.StaticMount;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Serves {@link StaticContent} at its prefixes and hands every other request to the next handler: the static files
 * of an application, answered by the transport before the application runs. {@link HttpServer} puts one in front of
 * its handler when {@link ServerOptions#staticContent()} names prefixes; make one yourself to put static content in
 * front of a handler of your own.
 *
 * <pre>{@code
 * HttpServer.create(ServerOptions.builder().port(8080).build(),
 *         StaticHandler.of(myHandler, StaticContent.directory("/assets/", Path.of("web")).build()));
 * }</pre>
 *
 * <p>What a prefix answers (each case is one access-log rule when it is not the file): {@code GET} and {@code HEAD}
 * (other methods {@code 405} with {@code Allow}); a strong {@code ETag} and {@code Last-Modified}, and
 * {@code If-None-Match} / {@code If-Modified-Since} answered {@code 304}, {@code If-Match} /
 * {@code If-Unmodified-Since} that fail answered {@code 412}; one {@code Range} of bytes, with
 * {@code If-Range}, answered {@code 206}, or {@code 416} when none of its bytes exist; {@code Content-Type} from a
 * table ({@code charset=utf-8} for text), {@code X-Content-Type-Options: nosniff}, {@code Accept-Ranges: bytes};
 * {@code Cache-Control} per prefix ({@link StaticContent#IMMUTABLE} for fingerprinted names); precompressed
 * {@code .br} / {@code .gz} siblings by {@code Accept-Encoding}, with {@code Vary}; a directory's index (a path
 * naming a directory without its last {@code /} is redirected, {@code 301}, to it); an optional fallback file for a
 * single-page application; never a listing. Paths are taken apart safely: dot segments, encoded separators,
 * backslashes, NUL, malformed percent-encodings or UTF-8 (overlong forms included) are {@code 400}; dot-files and
 * symbolic links out of the root {@code 404}. Errors are in the server's {@link ErrorRenderer} format.
 *
 * <p>How bytes go: on plain HTTP/1.1 from the file to the socket ({@code FileChannel.transferTo}, no copy through
 * the heap); over TLS and HTTP/2, and for class-path resources, read on reader threads ({@code fleche-files-N}, at
 * most one per core, ended after 30 s idle and by {@link #close()}) in parts of 128 KiB, at most
 * {@code max(2, outboundHighWaterBytes / 128 KiB)} buffers per response, under the connection's backpressure and
 * flow control: a client that reads slowly holds buffers, never a thread. Files up to
 * {@link StaticContent#maxCachedFileBytes()} are kept in memory and answered from there. A
 * file that changes size while it is sent ends its response cut short (the connection closes; HTTP/2: the stream is
 * reset), never with a wrong {@code Content-Length}. File lookups ({@code lstat}, {@code open}) run on the reactor,
 * as nginx makes them; reads of file contents never do.
 *
 * <p>It serves the transport's own exchanges (those {@link HttpServer} passes its handler) and is thread-safe. The
 * handler {@link HttpServer} makes from {@link ServerOptions#staticContent()} is closed when the server stops; close
 * one you made yourself after the server that runs it has stopped.
 */
public final class StaticHandler implements HttpHandler, AutoCloseable {
    private final HttpHandler next;
    private final List<StaticContent> contents;
    /** Longest prefix first: the most specific claims a path. */
    private final StaticMount[] mounts;
    private final ThreadPoolExecutor readers;

    private StaticHandler(HttpHandler next, List<StaticContent> contents) {
        this.next = next;
        this.contents = List.copyOf(contents);
        int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
        this.readers = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                readerThreads());
        readers.allowCoreThreadTimeOut(true);
        List<StaticContent> ordered = new ArrayList<>(this.contents);
        ordered.sort(Comparator.comparingInt((StaticContent c) -> c.prefix().length()).reversed());
        mounts = new StaticMount[ordered.size()];
        for (int i = 0; i < mounts.length; i++) {
            for (int j = 0; j < i; j++) {
                if (ordered.get(j).prefix().equals(ordered.get(i).prefix())) {
                    throw new IllegalArgumentException("two static contents at " + ordered.get(i).prefix());
                }
            }
            mounts[i] = new StaticMount(ordered.get(i), readers);
        }
    }

    /**
     * Serves {@code contents} and hands what no prefix claims to {@code next} ({@code null}: {@code 404}).
     *
     * @throws IllegalArgumentException when a directory does not exist, or two contents share a prefix
     */
    public static StaticHandler of(HttpHandler next, List<StaticContent> contents) {
        Objects.requireNonNull(contents, "contents");
        return new StaticHandler(next, contents);
    }

    /** {@link #of(HttpHandler, List)} with the contents given one by one. */
    public static StaticHandler of(HttpHandler next, StaticContent... contents) {
        return of(next, List.of(contents));
    }

    /** The static contents served, as given. */
    public List<StaticContent> contents() {
        return contents;
    }

    /** The handler of every request no prefix claims, or null. */
    public HttpHandler next() {
        return next;
    }

    @Override
    public void handle(HttpExchange exchange) throws Exception {
        String path = exchange.path();
        for (StaticMount mount : mounts) {
            if (mount.claims(path)) {
                mount.serve(exchange, next);
                return;
            }
        }
        if (next != null) {
            next.handle(exchange);
        } else {
            StaticMount.refuseMissing(exchange);
        }
    }

    /**
     * Ends the reader threads once the reads already asked of them have run (they would otherwise end after 30 s
     * idle); a read asked afterwards is refused and its response cut. Call it after the server has stopped.
     * Idempotent.
     */
    @Override
    public void close() {
        readers.shutdown();
    }

    private static ThreadFactory readerThreads() {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, "fleche-files-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
