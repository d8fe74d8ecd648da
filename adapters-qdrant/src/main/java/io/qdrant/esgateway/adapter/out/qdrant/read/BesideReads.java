package io.qdrant.esgateway.adapter.out.qdrant.read;

import io.qdrant.esgateway.application.port.out.DocumentStore.Read;
import io.qdrant.esgateway.application.port.out.DocumentStore.ReadValue;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;

/**
 * Several reads of one request on the calling thread with their Qdrant calls side by side
 * ({@link io.qdrant.esgateway.application.port.out.DocumentStore#readTogether}): a read that is one call (a search
 * that is only its exact count) is prepared as a {@link QdrantClient.Beside} and goes with the first call of the first
 * read that makes calls of its own (a {@code terms} aggregation's facet): its request is written right after that
 * call's request, its answer read right after that call's answer — the two calls overlap at Qdrant with no thread.
 *
 * <p>Every read runs (as when each ran on a thread of its own); the values come in order, and the failure thrown is
 * that of the first read in order that failed, so a later read's failure never hides an earlier one's. Only one
 * prepared read goes beside; any other (or one no call carried: the carrier failed before its first call, or went a
 * way that does not carry it) is made whole as a call of its own when its value is asked for.
 */
public final class BesideReads {
    private BesideReads() {
    }

    /** One read as the store runs it. */
    public sealed interface Step {
        /** Answered without a call (no total asked for, a filter that matches nothing). */
        record Done(ReadValue value) implements Step {
        }

        /** One call prepared to go beside another read's first call; {@code value} reads its result (once). */
        record Beside(QdrantClient.Beside<?> call, Supplier<ReadValue> value) implements Step {
        }

        /** Calls of its own; {@code run} sends the given beside (null: none) with its first call, if it can. */
        record Own(Function<QdrantClient.Beside<?>, ReadValue> run) implements Step {
        }

        /** Failed before any call (a 400 of its checks). */
        record Failed(RuntimeException failure) implements Step {
        }
    }

    /** A read's value or its failure. */
    private record Outcome(ReadValue value, RuntimeException failure) {
    }

    /**
     * Runs the reads: each prepared by {@code steps} (a thrown failure is that read's), the read with calls of its own
     * in order, the first of them carrying the first prepared call; then the prepared calls' results.
     */
    public static List<ReadValue> run(List<Read> reads, Function<Read, Step> steps) {
        List<Step> prepared = new ArrayList<>(reads.size());
        for (Read read : reads) {
            try {
                prepared.add(steps.apply(read));
            } catch (RuntimeException e) {
                prepared.add(new Step.Failed(e));
            }
        }
        QdrantClient.Beside<?> carried = null;
        for (Step step : prepared) {
            if (step instanceof Step.Beside b) {
                carried = b.call();
                break;
            }
        }
        Outcome[] outcomes = new Outcome[prepared.size()];
        for (int i = 0; i < prepared.size(); i++) {
            if (prepared.get(i) instanceof Step.Own own) {
                QdrantClient.Beside<?> with = carried;
                carried = null; // only the first read with calls of its own carries it
                outcomes[i] = outcome(() -> own.run().apply(with));
            }
        }
        for (int i = 0; i < prepared.size(); i++) {
            outcomes[i] = switch (prepared.get(i)) {
                case Step.Done done -> new Outcome(done.value(), null);
                case Step.Beside beside -> outcome(beside.value());
                case Step.Own own -> outcomes[i];
                case Step.Failed failed -> new Outcome(null, failed.failure());
            };
        }
        List<ReadValue> values = new ArrayList<>(outcomes.length);
        for (Outcome o : outcomes) {
            if (o.failure() != null) {
                throw o.failure();
            }
            values.add(o.value());
        }
        return values;
    }

    private static Outcome outcome(Supplier<ReadValue> read) {
        try {
            return new Outcome(read.get(), null);
        } catch (RuntimeException e) {
            return new Outcome(null, e);
        }
    }
}
