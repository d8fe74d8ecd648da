package io.qdrant.esgateway.domain.index;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/** Named indices, aliases and catalog snapshots for the index tests. */
public final class IndexFixtures {
    /** 2023-11-14T22:13:20Z, the creation date of every fixture index. */
    public static final Instant CREATED = Instant.ofEpochMilli(1_700_000_000_000L);

    private IndexFixtures() {
    }

    /** An index with default settings and no mappings; its uuid is {@code <name>-uuid}. */
    public static IndexMetadata index(String name) {
        return new IndexMetadata(name, name + "-uuid", CREATED, IndexSettings.DEFAULTS, Mappings.EMPTY);
    }

    public static IndexMetadata index(String name, IndexSettings settings) {
        return new IndexMetadata(name, name + "-uuid", CREATED, settings, Mappings.EMPTY);
    }

    /** An alias that says nothing about writes ({@code is_write_index} absent). */
    public static AliasMetadata alias(String alias, String index) {
        return AliasMetadata.plain(alias, index);
    }

    /** An alias with an explicit {@code is_write_index}. */
    public static AliasMetadata alias(String alias, String index, boolean isWriteIndex) {
        return new AliasMetadata(alias, index, Optional.empty(), Optional.empty(), Optional.of(isWriteIndex),
                Optional.empty());
    }

    public static List<IndexMetadata> indices(String... names) {
        return Arrays.stream(names).map(IndexFixtures::index).toList();
    }

    /** A catalog at version 1 with these indices and aliases. */
    public static CatalogView catalog(List<IndexMetadata> indices, AliasMetadata... aliases) {
        TreeMap<String, IndexMetadata> byName = new TreeMap<>();
        indices.forEach(i -> byName.put(i.name(), i));
        return new CatalogView(1, byName, List.of(aliases));
    }

    public static List<String> names(List<IndexMetadata> indices) {
        return indices.stream().map(IndexMetadata::name).toList();
    }
}
