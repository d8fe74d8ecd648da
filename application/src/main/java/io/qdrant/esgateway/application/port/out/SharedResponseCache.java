package io.qdrant.esgateway.application.port.out;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Read answers shared by every gateway replica, with generation tickets. Each index (by uuid) has a data generation
 * that every write moves ({@link #bump}) before it is acknowledged. A {@link #lookup} returns the entry for a key
 * only when it was published under the generations current now, and in any case a {@link Ticket}: the generations
 * it read. {@link #publish} keeps an answer only if those generations are still current, checked and stored in one
 * atomic step, so an answer computed while a write ran is never served after that write is acknowledged.
 *
 * <p>Implementations: Valkey/Redis (shared by replicas) and an in-memory one; both pass
 * {@code SharedResponseCacheContract}. Failures of the cache's server are {@code BACKEND_UNAVAILABLE}.
 */
public interface SharedResponseCache {

    /**
     * The generations a lookup read, in the order of {@code indices}: what a miss's answer is published under.
     *
     * @param key     the entry's key (the normalised request and its catalog state, hashed by the caller)
     * @param indices the uuids of every index the request reads
     * @param epoch   the cache's epoch the generations were read in (a cache whose server can come back with older
     *                generations starts a new one then); empty when the cache has none
     */
    record Ticket(String key, List<String> indices, List<Long> generations, String epoch) {
        public Ticket {
            indices = List.copyOf(indices);
            generations = List.copyOf(generations);
            Generations.check(indices, generations, epoch);
        }

        /** A ticket without an epoch. */
        public Ticket(String key, List<String> indices, List<Long> generations) {
            this(key, indices, generations, "");
        }
    }

    /**
     * The generations of {@code indices} in one epoch, for no key yet: a ticket once the key is made
     * ({@link #ticket}).
     */
    record Generations(List<String> indices, List<Long> generations, String epoch) {
        public Generations {
            indices = List.copyOf(indices);
            generations = List.copyOf(generations);
            check(indices, generations, epoch);
        }

        /** One generation per index, and an epoch (empty when the cache has none). */
        static void check(List<String> indices, List<Long> generations, String epoch) {
            if (indices.size() != generations.size()) {
                throw new IllegalArgumentException("one generation per index");
            }
            java.util.Objects.requireNonNull(epoch, "epoch");
        }

        public Ticket ticket(String key) {
            return new Ticket(key, indices, generations, epoch);
        }

        /** Whether {@code ticket} was taken under exactly these generations (whatever its key). */
        public boolean of(Ticket ticket) {
            return indices.equals(ticket.indices()) && generations.equals(ticket.generations())
                    && epoch.equals(ticket.epoch());
        }
    }

    /** A lookup's outcome: the ticket, and the entry when it was published under exactly those generations. */
    record Lookup(Ticket ticket, Optional<byte[]> answer) {
    }

    /** What {@link #publish} did. */
    enum Published {
        /** Stored: served to lookups while the ticket's generations stay current (and the entry lives). */
        PUBLISHED,
        /** Not stored: a generation moved since the ticket was taken. */
        STALE_TICKET,
        /** Not stored: larger than the per-entry limit. */
        TOO_LARGE
    }

    /** The entry for {@code key} if it is current for {@code indices}, and the generations read (one round trip). */
    Lookup lookup(String key, List<String> indices);

    /**
     * {@link #lookup}, done only if each of {@code checked} holds the value at the same position of {@code values}
     * on the cache's server now, checked in the same atomic step and round trip; empty when one does not (nothing
     * was looked up). A cache that cannot check such keys answers empty, and the caller does without.
     */
    default Optional<Lookup> lookupIf(String key, List<String> indices, List<String> checked, List<String> values) {
        return Optional.empty();
    }

    /**
     * The generations {@link #lookupIf} would return in its ticket now, when this replica knows them without asking
     * the cache's server: a cache that keeps every replica told of each generation move before the move is
     * acknowledged (a lease) knows the current generations of what it looked up before. Empty when it does not know
     * them all, or a checked value differs from the one it knows; the caller then looks up as usual. No key is
     * needed: a request that is computed and never published makes none.
     */
    default Optional<Generations> knownGenerations(List<String> indices, List<String> checked, List<String> values) {
        return Optional.empty();
    }

    /** {@link #knownGenerations} as the ticket for {@code key}. */
    default Optional<Ticket> knownTicket(String key, List<String> indices, List<String> checked, List<String> values) {
        return knownGenerations(indices, checked, values).map(g -> g.ticket(key));
    }

    /** Stores {@code answer} under the ticket's key only if every generation of the ticket is still current. */
    Published publish(Ticket ticket, byte[] answer);

    /**
     * Moves the data generation of each index on (one round trip for all of them). A writer calls it after its write
     * is visible and before it acknowledges it; when it fails the write must not be acknowledged.
     */
    void bump(Collection<String> indices);

    /** Throws {@code BACKEND_UNAVAILABLE} unless the cache's server answers now. */
    void ping();
}
