package io.qdrant.esgateway.compat.harness;

import java.util.List;
import java.util.Set;

/**
 * One scenario file: setup requests (sent to both sides, must succeed on both, answers not compared), then cases whose
 * answers are compared in order. The format is described in docs/testing.md.
 *
 * @param id          the file name without {@code .yaml}; known differences refer to it
 * @param engines     the engines this scenario runs against (default: all)
 * @param normalise   extra masks for every case of the scenario, each with its reason
 */
public record Scenario(String id, String description, Set<Engine> engines, List<Normalizer.Rule> normalise,
                       List<Step> setup, List<Case> cases) {

    /** A setup request. {@code requires} names gateway capabilities; see {@link Capabilities}. */
    public record Step(RequestSpec request, Set<String> requires) {
    }

    /**
     * A compared request.
     *
     * @param compareHeaders response headers compared besides status and body (names in lower case)
     * @param capture        values each side's answer gives to later requests of that side: name → JSON Pointer into
     *                       the answer's body; a later path or body says {@code {{name}}} (e.g. a scroll id)
     */
    public record Case(String name, RequestSpec request, List<String> compareHeaders, List<Normalizer.Rule> normalise,
                       Set<Engine> engines, Set<String> requires, java.util.Map<String, String> capture) {
        public Case {
            capture = java.util.Map.copyOf(capture);
        }

        public Case(String name, RequestSpec request, List<String> compareHeaders, List<Normalizer.Rule> normalise,
                    Set<Engine> engines, Set<String> requires) {
            this(name, request, compareHeaders, normalise, engines, requires, java.util.Map.of());
        }
    }
}
