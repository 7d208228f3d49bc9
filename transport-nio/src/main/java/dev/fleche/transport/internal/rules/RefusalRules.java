package dev.fleche.transport.internal.rules;

import dev.fleche.transport.http1.ProtocolRule;

import java.util.ArrayList;
import java.util.List;

/**
 * The names refusals are counted under ({@code ServerMetrics.refusalsByRule}): the parser's {@link ProtocolRule}s,
 * then the transport's own {@link Refusal}s, then static content's {@link StaticRule}s.
 */
public final class RefusalRules {
    private static final List<String> NAMES = ruleNames();

    private RefusalRules() {
    }

    /** Every rule name a refusal can be counted under: the parser's rules, then the transport's own. */
    public static List<String> names() {
        return NAMES;
    }

    private static List<String> ruleNames() {
        List<String> names = new ArrayList<>();
        for (ProtocolRule rule : ProtocolRule.values()) {
            names.add(rule.name());
        }
        for (Refusal refusal : Refusal.values()) {
            if (refusal != Refusal.HANDLER_FAILED && refusal != Refusal.INVALID_RESPONSE_HEAD) {
                names.add(refusal.name()); // those two answer the handler's failure, not the request: not refusals
            }
        }
        for (StaticRule rule : StaticRule.values()) {
            names.add(rule.name());
        }
        return List.copyOf(names);
    }
}
