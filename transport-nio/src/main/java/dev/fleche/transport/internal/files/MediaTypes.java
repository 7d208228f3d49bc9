package dev.fleche.transport.internal.files;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code Content-Type} of a file, from its extension: one table, text types with {@code charset=utf-8} (files
 * are taken to be UTF-8; a page in another charset says so itself or gets its own entry), anything unknown
 * {@code application/octet-stream} (with {@code X-Content-Type-Options: nosniff}, a browser will not guess).
 */
final class MediaTypes {
    static final String UNKNOWN = "application/octet-stream";
    private static final String UTF8 = "; charset=utf-8";
    private static final Map<String, String> BUILT_IN = new HashMap<>();

    static {
        text("html", "text/html");
        text("htm", "text/html");
        text("css", "text/css");
        text("js", "text/javascript"); // RFC 9239
        text("mjs", "text/javascript");
        text("txt", "text/plain");
        text("csv", "text/csv");
        text("md", "text/markdown");
        text("xml", "text/xml");
        text("vtt", "text/vtt");
        put("json", "application/json");
        put("map", "application/json");
        put("webmanifest", "application/manifest+json");
        put("wasm", "application/wasm");
        put("pdf", "application/pdf");
        put("zip", "application/zip");
        put("gz", "application/gzip");
        put("tar", "application/x-tar");
        put("svg", "image/svg+xml");
        put("png", "image/png");
        put("jpg", "image/jpeg");
        put("jpeg", "image/jpeg");
        put("gif", "image/gif");
        put("webp", "image/webp");
        put("avif", "image/avif");
        put("ico", "image/vnd.microsoft.icon");
        put("bmp", "image/bmp");
        put("woff", "font/woff");
        put("woff2", "font/woff2");
        put("ttf", "font/ttf");
        put("otf", "font/otf");
        put("mp3", "audio/mpeg");
        put("ogg", "audio/ogg");
        put("wav", "audio/wav");
        put("mp4", "video/mp4");
        put("webm", "video/webm");
    }

    private final Map<String, String> table;

    /** The built-in table with {@code extra} (extension to media type, as given) added over it. */
    MediaTypes(Map<String, String> extra) {
        if (extra.isEmpty()) {
            table = BUILT_IN;
        } else {
            table = new HashMap<>(BUILT_IN);
            table.putAll(extra);
        }
    }

    private static void text(String extension, String type) {
        BUILT_IN.put(extension, type + UTF8);
    }

    private static void put(String extension, String type) {
        BUILT_IN.put(extension, type);
    }

    /** The media type of the file {@code name}. */
    String of(String name) {
        int dot = name.lastIndexOf('.');
        if (dot < 0 || dot == name.length() - 1) {
            return UNKNOWN;
        }
        String type = table.get(name.substring(dot + 1));
        if (type == null) {
            type = table.get(name.substring(dot + 1).toLowerCase(Locale.ROOT));
        }
        return type != null ? type : UNKNOWN;
    }
}
