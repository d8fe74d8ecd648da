package io.qdrant.esgateway.domain.sort;

import io.qdrant.esgateway.domain.json.JsonValue;
import java.util.Optional;

/** One sort key of a search, as Elasticsearch defines it. */
public sealed interface SortSpec {

    enum Order {
        ASC, DESC
    }

    Order order();

    /** {@code _score}: descending by default. */
    record Score(Order order) implements SortSpec {
    }

    /** {@code _doc}: index order (the cheapest sort; with search_after, the natural tiebreaker). */
    record Doc(Order order) implements SortSpec {
    }

    /** How a multi-valued field picks the value it sorts by. */
    enum Mode {
        MIN, MAX, SUM, AVG, MEDIAN
    }

    /** Where documents without a value go: {@code _last} (default), {@code _first}, or as if they had this value. */
    sealed interface Missing {
        record Last() implements Missing {
        }

        record First() implements Missing {
        }

        record Value(JsonValue value) implements Missing {
        }
    }

    /**
     * A field sort. {@code mode} defaults to {@code min} ascending and {@code max} descending; {@code unmappedType}
     * lets an index without the field sort as if it were mapped with that type; {@code format} renders date sort
     * values.
     */
    record Field(String field, Order order, Missing missing, Optional<Mode> mode, Optional<String> unmappedType,
                 Optional<String> format) implements SortSpec {
        public Mode effectiveMode() {
            return mode.orElse(order == Order.ASC ? Mode.MIN : Mode.MAX);
        }
    }

    /** The value type of a {@code _script} sort. */
    enum ScriptType {
        NUMBER, STRING
    }

    /**
     * A {@code _script} sort: each document's key is the script's value ({@code number} or {@code string});
     * {@code source} is the script's source, or null until a stored script ({@code id}) is read from the catalog.
     */
    record Script(ScriptType type, io.qdrant.esgateway.domain.script.Script script, String source, Order order)
            implements SortSpec {
        /** This sort with the source of its stored script. */
        public Script withSource(String storedSource) {
            return new Script(type, script, storedSource, order);
        }
    }
}
