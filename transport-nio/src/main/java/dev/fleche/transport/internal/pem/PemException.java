package dev.fleche.transport.internal.pem;

/**
 * Key material that cannot be used, with a message an operator can act on: the file, the block, the format and what
 * is wrong (a key in a format not supported names the format and the command that converts it). Never carries a
 * stack trace of its own: a bad file is the operator's to fix, not a fault of the server.
 */
public final class PemException extends Exception {
    public PemException(String message) {
        super(message, null, false, false);
    }

    public PemException(String message, Throwable cause) {
        super(message + (cause.getMessage() == null ? "" : ": " + cause.getMessage()), null, false, false);
    }
}
