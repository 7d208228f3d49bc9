package dev.fleche.transport.internal.pem;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The blocks of a PEM file (RFC 7468): {@code -----BEGIN LABEL-----}, Base64 lines, {@code -----END LABEL-----}.
 * Text outside blocks is ignored (OpenSSL writes "Bag Attributes" and comments there); inside, the Base64 must be
 * strict, and RFC 1421 header lines ({@code Proc-Type: 4,ENCRYPTED}) are kept so that an encrypted legacy key can be
 * named as such. A block without its END line (a file cut while it was written) is an error.
 */
public final class PemBlocks {
    /** One block: its label ({@code CERTIFICATE}, {@code PRIVATE KEY}, ...), its header lines and its bytes. */
    public record Block(String label, List<String> headers, byte[] der) {
    }

    private static final String BEGIN = "-----BEGIN ";
    private static final String END = "-----END ";
    private static final String DASHES = "-----";

    private PemBlocks() {
    }

    /**
     * Every block of {@code text}, in order.
     *
     * @param source how messages name the file ({@code tls.crt})
     */
    public static List<Block> parse(byte[] text, String source) throws PemException {
        String[] lines = new String(text, StandardCharsets.US_ASCII).split("\r?\n", -1);
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (!line.startsWith(BEGIN)) {
                continue;
            }
            String label = label(line, BEGIN, source, i);
            List<String> headers = new ArrayList<>();
            StringBuilder base64 = new StringBuilder();
            int j = i + 1;
            for (; j < lines.length; j++) {
                String body = lines[j].strip();
                if (body.startsWith(END)) {
                    break;
                }
                if (body.startsWith(BEGIN)) {
                    throw new PemException(source + ": BEGIN " + label + " on line " + (i + 1)
                            + " has no END line before the next BEGIN (a file cut while it was written?)");
                }
                if (body.indexOf(':') > 0) {
                    headers.add(body);
                } else {
                    base64.append(body);
                }
            }
            if (j == lines.length) {
                throw new PemException(source + ": BEGIN " + label + " on line " + (i + 1)
                        + " has no END line (a file cut while it was written?)");
            }
            String endLabel = label(lines[j].strip(), END, source, j);
            if (!endLabel.equals(label)) {
                throw new PemException(source + ": BEGIN " + label + " ends with END " + endLabel);
            }
            try {
                blocks.add(new Block(label, List.copyOf(headers), Base64.getDecoder().decode(base64.toString())));
            } catch (IllegalArgumentException e) {
                throw new PemException(source + ": the " + label + " block on line " + (i + 1)
                        + " is not valid Base64");
            }
            i = j;
        }
        return blocks;
    }

    private static String label(String line, String prefix, String source, int index) throws PemException {
        if (!line.endsWith(DASHES) || line.length() < prefix.length() + DASHES.length()) {
            throw new PemException(source + ": malformed PEM boundary on line " + (index + 1));
        }
        return line.substring(prefix.length(), line.length() - DASHES.length());
    }
}
