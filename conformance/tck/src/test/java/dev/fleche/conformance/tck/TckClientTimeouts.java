package dev.fleche.conformance.tck;

import org.apache.commons.httpclient.params.DefaultHttpParams;
import org.apache.commons.httpclient.params.HttpMethodParams;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Bounds how long a TCK client waits for a response, so that a server that never answers makes that one test
 * fail (with a read time-out naming the request) instead of hanging the whole run. Jersey's client (over
 * {@code HttpURLConnection}) takes {@code sun.net.client.defaultReadTimeout} from the Surefire configuration;
 * this extension gives the same bound to Commons HttpClient 3, the TCK's other client. The bound is generous
 * ({@value #READ_TIMEOUT_MILLIS} ms): no TCK test waits that long for a response on purpose.
 */
public final class TckClientTimeouts implements BeforeAllCallback {
    static final int READ_TIMEOUT_MILLIS = 60_000;

    static {
        DefaultHttpParams.getDefaultParams().setIntParameter(HttpMethodParams.SO_TIMEOUT, READ_TIMEOUT_MILLIS);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        // the static initialiser did the work when JUnit loaded the extension
    }
}
