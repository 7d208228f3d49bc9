package dev.fleche.jersey;

import dev.fleche.transport.PemFiles;

import java.time.Duration;
import java.util.Objects;

/**
 * One application check behind readiness (a database answers, a queue is reachable), registered with
 * {@link Health.Builder#check(String, HealthCheck)}. It runs on every readiness probe, on the probing request's
 * thread: keep it quick and bounded (a query with a timeout, not a retry loop). Throwing counts as down, with the
 * exception's message as detail.
 */
@FunctionalInterface
public interface HealthCheck {
    /** The check's verdict now. */
    Result check() throws Exception;

    /**
     * A check that is down when the certificate {@code pem} serves expires within {@code margin} (a rotation that
     * did not happen: cert-manager renews well before, at two thirds of the lifetime by default), so that a replica
     * about to serve an expired certificate leaves the load balancer and an alert on readiness fires. Follows the
     * rotations {@code pem} takes; measured on its clock.
     */
    static HealthCheck certificateExpiry(PemFiles pem, Duration margin) {
        Objects.requireNonNull(pem, "pem");
        Objects.requireNonNull(margin, "margin");
        return () -> {
            String detail = pem.certificates().get(0).getSubjectX500Principal().getName() + " expires "
                    + pem.notAfter();
            return pem.expiresWithin(margin) ? Result.down(detail + ", within " + margin.toDays() + " days")
                    : new Result(true, detail);
        };
    }

    /**
     * A verdict: up or down, with a short detail (may be empty) that the readiness body shows.
     *
     * @param up     whether the checked thing works
     * @param detail one line for an operator; never null
     */
    record Result(boolean up, String detail) {
        public Result {
            if (detail == null) {
                throw new IllegalArgumentException("detail must not be null (use \"\")");
            }
        }

        /** Up, no detail. */
        public static Result ok() {
            return new Result(true, "");
        }

        /** Down, with why. */
        public static Result down(String detail) {
            return new Result(false, detail);
        }
    }
}
