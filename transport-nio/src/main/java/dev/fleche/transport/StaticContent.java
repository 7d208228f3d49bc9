package dev.fleche.transport;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Static files served at a path prefix beside the application: a directory, or a prefix of the class path (inside a
 * jar too). Served by a {@link StaticHandler}, made for you by {@link HttpServer} from
 * {@link ServerOptions.Builder#staticContent}, or by the Jersey container from its {@code fleche.jersey.staticContent}
 * property. A request whose path starts with {@code prefix} is answered here, before the application runs; every
 * other path stays the application's. Immutable; built by {@link #directory} or {@link #classPath}, validated by
 * {@link Builder#build()}.
 *
 * <table>
 *   <caption>Settings, defaults and meaning</caption>
 *   <tr><th>setting</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@code prefix}</td><td>(given)</td><td>the path prefix, e.g. {@code /static/} or {@code /}; a request for
 *       the prefix without its last slash is redirected to it</td></tr>
 *   <tr><td>{@code directory} / {@code classPath}</td><td>(given)</td><td>where the files are: a directory (its real
 *       path, links resolved, taken once at start), or a non-empty class-path resource prefix such as
 *       {@code static} or {@code META-INF/resources} with the class loader that finds it</td></tr>
 *   <tr><td>{@code index}</td><td>{@code index.html}</td><td>what a directory serves (its path must end with
 *       {@code /}; without it, {@code 301} to it); {@code null}: nothing. Never a listing</td></tr>
 *   <tr><td>{@code cacheControl}</td><td>{@code no-cache}</td><td>{@code Cache-Control} of every file (clients keep
 *       a copy and revalidate it: {@code 304} while it has not changed); {@code null}: none</td></tr>
 *   <tr><td>{@code immutableNames}</td><td>{@value #FINGERPRINTED}</td><td>file names that carry a hash of their
 *       content (fingerprinted, {@code app.3f9a2c1b.js}) get {@value #IMMUTABLE} instead; {@code null}: none</td></tr>
 *   <tr><td>{@code precompressed}</td><td>{@code false}</td><td>serve {@code name.br} or {@code name.gz} in place of
 *       {@code name} when it exists and the client accepts {@code br} or {@code gzip}, with
 *       {@code Content-Encoding}; every response of the prefix then says {@code Vary: Accept-Encoding}</td></tr>
 *   <tr><td>{@code fallback}</td><td>{@code null}</td><td>a file (path under the root, e.g. {@code index.html})
 *       served with {@code 200} for every {@code GET}/{@code HEAD} of a missing file: a single-page application's
 *       routes</td></tr>
 *   <tr><td>{@code fallThrough}</td><td>{@code false}</td><td>a request the prefix cannot answer with a file (another
 *       method, a missing or refused path) goes to the application instead of {@code 404}/{@code 405}: for
 *       {@code /} beside an application's own paths</td></tr>
 *   <tr><td>{@code hidden}</td><td>{@code false}</td><td>whether names starting with {@code .} are served
 *       ({@code .git}, {@code .env}); otherwise they are {@code 404}</td></tr>
 *   <tr><td>{@code linksOutside}</td><td>{@code false}</td><td>directories: whether a symbolic link may lead out of
 *       the root; otherwise such a path is {@code 404}. Links within the root are followed</td></tr>
 *   <tr><td>{@code mediaTypes}</td><td>none</td><td>extensions added to (or replacing in) the built-in table of
 *       {@code Content-Type}s, e.g. {@code "webmanifest" -> "application/manifest+json"}</td></tr>
 *   <tr><td>{@code maxCachedFileBytes}</td><td>1 MiB</td><td>files and class-path resources up to this size are
 *       kept in memory once read (off the reactors) and answered from memory on them, with no read and no hand-off
 *       (a directory's files in direct memory, sent from there with no copy into the heap); a file's copy is valid
 *       while its size and modification time are those of the lookup every request makes. Larger files are sent
 *       from the file on every request</td></tr>
 *   <tr><td>{@code maxCacheBytes}</td><td>16 MiB</td><td>the most bytes kept in memory for this prefix; beyond it
 *       the least recently used are dropped</td></tr>
 *   <tr><td>{@code maxCachedNames}</td><td>4,096</td><td>the most names kept for this prefix (class path: also what
 *       a name is — a resource, a folder, missing — learnt off the reactor once); beyond it the least recently used
 *       are forgotten</td></tr>
 * </table>
 *
 * @param prefix             the path prefix, starting and ending with {@code /}
 * @param directory          the root directory, or null for the class path
 * @param classPath          the class-path resource prefix without leading or trailing {@code /}, or null
 * @param classLoader        the class loader of {@code classPath}, or null for a directory
 * @param index              the index file name of a directory, or null
 * @param cacheControl       the {@code Cache-Control} value, or null
 * @param immutableNames     the names that get {@value #IMMUTABLE}, or null
 * @param precompressed      whether {@code .br} and {@code .gz} siblings are served
 * @param fallback           the path of the fallback file under the root, or null
 * @param fallThrough        whether what the prefix cannot answer goes to the next handler
 * @param hidden             whether dot-files are served
 * @param linksOutside       whether symbolic links may lead out of the root directory
 * @param mediaTypes         extensions (lower case, no dot) to media types, added to the built-in table
 * @param maxCachedFileBytes the largest file or class-path resource kept in memory
 * @param maxCacheBytes      the most bytes kept in memory for this prefix
 * @param maxCachedNames     the most names kept for this prefix
 */
public record StaticContent(String prefix, Path directory, String classPath, ClassLoader classLoader, String index,
                            String cacheControl, Pattern immutableNames, boolean precompressed, String fallback,
                            boolean fallThrough, boolean hidden, boolean linksOutside, Map<String, String> mediaTypes,
                            int maxCachedFileBytes, long maxCacheBytes, int maxCachedNames) {

    /** The default of {@code immutableNames}: a dot or dash, 8 or more hex digits or base-36 letters, an extension. */
    public static final String FINGERPRINTED = ".*[.-][0-9a-zA-Z]{8,}\\.[0-9a-zA-Z]+";
    /** The {@code Cache-Control} of a fingerprinted name: a year, never revalidated (RFC 8246). */
    public static final String IMMUTABLE = "public, max-age=31536000, immutable";

    /** Checks every setting; use {@link #directory} or {@link #classPath} rather than this constructor. */
    public StaticContent {
        Objects.requireNonNull(prefix, "prefix");
        if (!prefix.startsWith("/") || !prefix.endsWith("/")) {
            throw new IllegalArgumentException("prefix must start and end with /, was \"" + prefix + "\"");
        }
        for (int i = 0; i < prefix.length(); i++) {
            char c = prefix.charAt(i);
            if (c <= ' ' || c >= 0x7F || c == '%' || c == '?' || c == '#' || c == '\\') {
                throw new IllegalArgumentException("prefix must be a plain path (no %, ?, #, \\ or spaces): " + prefix);
            }
        }
        if (prefix.contains("//") || prefix.contains("/./") || prefix.contains("/../")) {
            throw new IllegalArgumentException("prefix must be a normal path: " + prefix);
        }
        if ((directory == null) == (classPath == null)) {
            throw new IllegalArgumentException("one of directory and classPath, not both");
        }
        if (classPath != null) {
            Objects.requireNonNull(classLoader, "classLoader");
            if (classPath.isEmpty() || classPath.startsWith("/") || classPath.endsWith("/")
                    || classPath.contains("..") || classPath.contains("\\")) {
                throw new IllegalArgumentException("classPath must be a non-empty resource prefix without leading or"
                        + " trailing / (the whole class path is never served), was \"" + classPath + "\"");
            }
        }
        if (index != null && (index.isEmpty() || index.contains("/") || index.startsWith("."))) {
            throw new IllegalArgumentException("index must be a plain file name, was \"" + index + "\"");
        }
        if (fallback != null && (fallback.isEmpty() || fallback.startsWith("/") || fallback.contains(".."))) {
            throw new IllegalArgumentException("fallback must be a path under the root, was \"" + fallback + "\"");
        }
        if (maxCachedFileBytes < 0) {
            throw new IllegalArgumentException("maxCachedFileBytes must be >= 0, was " + maxCachedFileBytes);
        }
        if (maxCacheBytes < maxCachedFileBytes) {
            throw new IllegalArgumentException("maxCacheBytes must be >= maxCachedFileBytes, was " + maxCacheBytes);
        }
        if (maxCachedNames < 1) {
            throw new IllegalArgumentException("maxCachedNames must be >= 1, was " + maxCachedNames);
        }
        TreeMap<String, String> types = new TreeMap<>();
        (mediaTypes == null ? Map.<String, String>of() : mediaTypes).forEach((extension, type) -> {
            if (extension.isEmpty() || extension.contains(".") || type == null || type.isBlank()) {
                throw new IllegalArgumentException("media type for \"" + extension + "\": " + type);
            }
            types.put(extension.toLowerCase(Locale.ROOT), type);
        });
        mediaTypes = java.util.Collections.unmodifiableMap(types);
    }

    /** Serves the directory {@code root} at {@code prefix} ({@code /static/}); tune it with the builder. */
    public static Builder directory(String prefix, Path root) {
        return new Builder(prefix, Objects.requireNonNull(root, "root"), null, null);
    }

    /**
     * Serves the class-path resources under {@code resourcePrefix} ({@code static}, {@code META-INF/resources}),
     * found by the thread's context class loader (else this class's), at {@code prefix}.
     */
    public static Builder classPath(String prefix, String resourcePrefix) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        return classPath(prefix, resourcePrefix, loader != null ? loader : StaticContent.class.getClassLoader());
    }

    /** Serves the resources under {@code resourcePrefix} of {@code loader} at {@code prefix}. */
    public static Builder classPath(String prefix, String resourcePrefix, ClassLoader loader) {
        return new Builder(prefix, null, Objects.requireNonNull(resourcePrefix, "resourcePrefix"),
                Objects.requireNonNull(loader, "loader"));
    }

    /** Builds {@link StaticContent}; every setter returns {@code this}. */
    public static final class Builder {
        private final String prefix;
        private final Path directory;
        private final String classPath;
        private final ClassLoader classLoader;
        private String index = "index.html";
        private String cacheControl = "no-cache";
        private Pattern immutableNames = Pattern.compile(FINGERPRINTED);
        private boolean precompressed;
        private String fallback;
        private boolean fallThrough;
        private boolean hidden;
        private boolean linksOutside;
        private final Map<String, String> mediaTypes = new TreeMap<>();
        private int maxCachedFileBytes = 1024 * 1024;
        private long maxCacheBytes = 16L * 1024 * 1024;
        private int maxCachedNames = 4096;

        private Builder(String prefix, Path directory, String classPath, ClassLoader classLoader) {
            this.prefix = prefix;
            this.directory = directory;
            this.classPath = classPath;
            this.classLoader = classLoader;
        }

        /** The file a directory serves; null serves none (a directory is then 404). */
        public Builder index(String value) { index = value; return this; }
        /** The {@code Cache-Control} of every file but fingerprinted ones; null sends none. */
        public Builder cacheControl(String value) { cacheControl = value; return this; }
        /** File names that get {@link #IMMUTABLE}; null: none. */
        public Builder immutableNames(Pattern value) { immutableNames = value; return this; }
        /** Serves {@code .br} / {@code .gz} siblings to clients that accept them. */
        public Builder precompressed(boolean value) { precompressed = value; return this; }
        /** The file served for a missing one (single-page applications), e.g. {@code index.html}; null: none. */
        public Builder fallback(String value) { fallback = value; return this; }
        /** What the prefix cannot answer with a file goes to the next handler (the application). */
        public Builder fallThrough(boolean value) { fallThrough = value; return this; }
        /** Serves names starting with a dot. */
        public Builder hidden(boolean value) { hidden = value; return this; }
        /** Lets symbolic links lead out of the root directory. */
        public Builder linksOutside(boolean value) { linksOutside = value; return this; }
        /** {@code extension} (no dot) is served as {@code mediaType}. */
        public Builder mediaType(String extension, String mediaType) {
            mediaTypes.put(extension, mediaType);
            return this;
        }
        public Builder maxCachedFileBytes(int value) { maxCachedFileBytes = value; return this; }
        public Builder maxCacheBytes(long value) { maxCacheBytes = value; return this; }
        public Builder maxCachedNames(int value) { maxCachedNames = value; return this; }

        /** Validates and returns the settings; throws {@link IllegalArgumentException} naming a bad one. */
        public StaticContent build() {
            return new StaticContent(prefix, directory, classPath, classLoader, index, cacheControl, immutableNames,
                    precompressed, fallback, fallThrough, hidden, linksOutside, mediaTypes, maxCachedFileBytes,
                    maxCacheBytes, maxCachedNames);
        }
    }
}
