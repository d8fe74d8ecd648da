package io.qdrant.esgateway.application.port.in;

import io.qdrant.esgateway.domain.index.CatalogView;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Read answers (search, count, each search of an msearch) answered from the cache shared by every replica when it
 * holds a current one. Modes: {@link Mode#OFF} computes every answer and coordinates nothing; {@link Mode#ON} serves
 * and publishes; {@link Mode#COORDINATE} takes tickets and publishes but never serves (for rollout and diagnosis).
 */
public interface ResponseCaching {

    /** {@code QEG_RESPONSE_CACHE}. */
    enum Mode {
        OFF, ON, COORDINATE
    }

    /** How an answer is kept: its bytes, or empty when it must not be kept (a partial answer); and back. */
    interface Codec<A> {
        Optional<byte[]> encode(A answer);

        A decode(byte[] bytes);
    }

    /**
     * Counts since start, for {@code /metrics}. {@code notAdmitted}: computed answers not published because their
     * request was not computed often enough lately on this replica.
     */
    record Counts(long hits, long misses, long published, long staleTickets, long tooLarge, long uncacheable,
                  long errors, long notAdmitted) {
    }

    /** Coordinates nothing: every answer computed. */
    ResponseCaching OFF = new ResponseCaching() {
        @Override
        public Mode mode() {
            return Mode.OFF;
        }

        @Override
        public <A> A read(String target, CatalogView.Options options, String request, Supplier<A> compute,
                          Codec<A> codec) {
            return compute.get();
        }

        @Override
        public Counts counts() {
            return new Counts(0, 0, 0, 0, 0, 0, 0, 0);
        }
    };

    Mode mode();

    /**
     * The answer to {@code request} over {@code target}: the shared one when current, else {@code compute}'s (then
     * published under the generations read before it ran).
     *
     * @param request the normalised request: everything but the target that changes the answer, as text
     */
    <A> A read(String target, CatalogView.Options options, String request, Supplier<A> compute, Codec<A> codec);

    Counts counts();
}
