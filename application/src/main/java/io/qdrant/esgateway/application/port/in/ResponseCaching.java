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

    /**
     * A read request as the cache keys it. {@link #text} is everything but the target that changes the answer; made
     * only when the cache needs it (a request this replica has not computed lately and will not publish needs none).
     * {@link #hint} is 64 bits of the same request, made at once: equal requests have equal hints, so a hint says
     * cheaply whether the request was seen lately; two requests may share one, so it never stands for the request
     * where an answer depends on it.
     */
    interface Request {
        /** The normalised request (made once, when first asked for). */
        String text();

        long hint();

        /** Whether the answer may depend on the time it is computed at: the request mentions {@code now}. */
        boolean dependsOnNow();

        /**
         * Whether the request may refer to a stored script ({@code "script":{"id":…}}): its answer depends on the
         * script's source as stored when it runs, which no catalog version or generation follows.
         */
        boolean dependsOnStoredScripts();

        /** A request given as its normalised text, its hint a hash of it. */
        static Request of(String text) {
            long hint = 0x9E3779B97F4A7C15L;
            for (int i = 0; i < text.length(); i++) {
                hint = (hint ^ text.charAt(i)) * 0x100000001B3L;
            }
            return new Text(text, hint, textDependsOnNow(text), textDependsOnStoredScripts(text));
        }

        /** {@link #dependsOnNow} of a request's text (or of any text the answer depends on). */
        static boolean textDependsOnNow(String text) {
            return text.contains("now");
        }

        /** {@link #dependsOnStoredScripts} of a request's text: an {@code "id"} key and a script anywhere in it. */
        static boolean textDependsOnStoredScripts(String text) {
            return text.contains("\"id\":") && text.contains("script");
        }
    }

    /** A request given as its text, with what {@link Request#of} derives from it. */
    record Text(String text, long hint, boolean dependsOnNow, boolean dependsOnStoredScripts) implements Request {
    }

    /** Coordinates nothing: every answer computed. */
    ResponseCaching OFF = new ResponseCaching() {
        @Override
        public Mode mode() {
            return Mode.OFF;
        }

        @Override
        public <A> A read(String target, CatalogView.Options options, Request request, Supplier<A> compute,
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
     * @param request the request: everything but the target that changes the answer
     */
    <A> A read(String target, CatalogView.Options options, Request request, Supplier<A> compute, Codec<A> codec);

    /** {@link #read} of a request given as its normalised text. */
    default <A> A read(String target, CatalogView.Options options, String request, Supplier<A> compute,
                       Codec<A> codec) {
        return read(target, options, Request.of(request), compute, codec);
    }

    Counts counts();
}
