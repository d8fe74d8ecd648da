package io.qdrant.esgateway.domain.plan;

/**
 * How one part of a search answer is computed: natively by the backend, or by the gateway over a complete scan of
 * the matching documents, with the reason why (for logs and the {@code qeg_plan_path_total} metric).
 */
public sealed interface ExecutionPath {

    /** Short, bounded label for metrics. */
    String label();

    /** The machine-readable reason code (bounded; {@code native} for the native path). */
    String reason();

    record Native() implements ExecutionPath {
        @Override
        public String label() {
            return "native";
        }

        @Override
        public String reason() {
            return "covered";
        }
    }

    /** @param reason a bounded code ({@code order_kind}, …); {@code detail} says it in words for the debug log */
    record Scan(String reason, String detail) implements ExecutionPath {
        @Override
        public String label() {
            return "scan";
        }
    }

    ExecutionPath NATIVE = new Native();
}
