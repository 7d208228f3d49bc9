package dev.fleche.jersey;

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
