package dev.fleche.jersey.internal;

import jakarta.ws.rs.core.MediaType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@link StringBodyWriter} writes the bytes Jersey's provider writes (an {@code OutputStreamWriter}), byte for byte. */
@Timeout(10)
class StringBodyWriterTest {

    private static final List<String> TEXTS = List.of(
            "",
            "Hello, World!",
            "café ünïcödé €",
            "𝄞 a clef outside the BMP",
            "unpaired \uD834 high and \uDD1E low surrogates",
            "x".repeat(StringBodyWriter.WHOLE_LIMIT),
            "é".repeat(StringBodyWriter.WHOLE_LIMIT + 1),
            "ab€\uD834".repeat(20_000));

    private static final List<Charset> CHARSETS = List.of(StandardCharsets.UTF_8, StandardCharsets.ISO_8859_1,
            StandardCharsets.US_ASCII, StandardCharsets.UTF_16, StandardCharsets.UTF_16LE, Charset.forName("windows-1252"));

    @Test
    void writesWhatAnOutputStreamWriterWritesForEveryTextAndCharset() throws IOException {
        for (Charset charset : CHARSETS) {
            for (String text : TEXTS) {
                ByteArrayOutputStream ours = new ByteArrayOutputStream();
                StringBodyWriter.write(text, charset, ours);
                assertArrayEquals(jerseys(text, charset), ours.toByteArray(),
                        () -> charset + ", " + text.length() + " chars");
            }
        }
    }

    @Test
    void theCharsetIsTheMediaTypesParameterAndUtf8WithoutOne() {
        assertEquals(StandardCharsets.UTF_8, StringBodyWriter.charset(null));
        assertEquals(StandardCharsets.UTF_8, StringBodyWriter.charset(MediaType.TEXT_PLAIN_TYPE));
        assertEquals(StandardCharsets.ISO_8859_1,
                StringBodyWriter.charset(new MediaType("text", "plain", Map.of("charset", "iso-8859-1"))));
        assertThrows(UnsupportedCharsetException.class,
                () -> StringBodyWriter.charset(new MediaType("text", "plain", Map.of("charset", "no-such-charset"))));
    }

    @Test
    void writesOnlyStrings() {
        StringBodyWriter writer = new StringBodyWriter();
        assertEquals(true, writer.isWriteable(String.class, String.class, new java.lang.annotation.Annotation[0],
                MediaType.TEXT_PLAIN_TYPE));
        assertEquals(false, writer.isWriteable(CharSequence.class, CharSequence.class,
                new java.lang.annotation.Annotation[0], MediaType.TEXT_PLAIN_TYPE));
        assertEquals(false, writer.isWriteable(StringBuilder.class, StringBuilder.class,
                new java.lang.annotation.Annotation[0], MediaType.TEXT_PLAIN_TYPE));
    }

    /** What Jersey's {@code ReaderWriter.writeToAsString} writes. */
    private static byte[] jerseys(String text, Charset charset) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Writer writer = new OutputStreamWriter(out, charset);
        writer.write(text);
        writer.flush();
        return out.toByteArray();
    }
}
