/**
 * Every way the transport refuses a request or gives up on a client, named once, for both protocols.
 *
 * <p>Owns: {@code Refusal} (limits, timeouts, the overload answer, handler failures, the PROXY header's and the HTTP/2
 * budgets' refusals, each with its status and reason), {@code StaticRule} (static content's answers),
 * {@code RefusalRules} (every rule's name, for {@code ServerMetrics}; the parser's {@code ProtocolRule} among them),
 * {@code Deadline} (every timer of a connection, with what it ends), {@code Deadlines} (which of a connection's timers
 * is due) and {@code RateWindow} (a minimum data rate over windows).
 *
 * <p>May import: the request syntax ({@code ProtocolRule}), the public API. Nothing else of the internals.
 */
package dev.fleche.transport.internal.rules;
