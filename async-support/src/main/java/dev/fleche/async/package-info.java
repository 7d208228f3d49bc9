/**
 * Asynchronous Jakarta REST on Fleche: what users touch.
 *
 * <ul>
 *   <li>{@link dev.fleche.async.FlecheAsyncFeature} — registered automatically (Jersey auto-discovery); turns on
 *       SSE heartbeats where configured ({@link dev.fleche.async.SseHeartbeat} or
 *       {@value dev.fleche.async.FlecheAsyncFeature#SSE_HEARTBEAT}).</li>
 *   <li>{@link dev.fleche.async.LongPollTopic} — long-poll fan-out: waiters per key, one publish resumes them
 *       all; timed-out and disconnected waiters are dropped.</li>
 * </ul>
 *
 * <p>Suspend/resume, timeouts on the reactor timers, disconnect detection ({@code ConnectionCallback}) and
 * flushing of chunked/SSE output are done by the container ({@code fleche-jaxrs-bridge}); the request's
 * {@link dev.fleche.jersey.ClientConnection} gives asynchronous code the same reactor timers and disconnect
 * signal. See the module README.
 */
package dev.fleche.async;
