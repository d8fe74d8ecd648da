package io.qdrant.esgateway.adapter.out.catalog.redis;

import io.qdrant.esgateway.domain.index.AliasMetadata;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The catalog's records as stored in Valkey/Redis: one hash per kind of catalog object ({@link Kind}), one field
 * per object, its value a JSON object that carries its encoding version in {@code "v"}. A record of a version this
 * gateway does not know (written by a newer one), one that does not parse, one stored under a field that is not its
 * own key, or a set of records that contradict each other (two indices with one uuid, an alias named like an index,
 * an alias on an index that does not exist) make the whole snapshot unreadable: it is refused, never half-read.
 */
final class CatalogRecords {
    /** The encoding version every record is written with. */
    static final long VERSION = 1;

    /**
     * The supported catalog size: past it a change is refused (ES's {@code validation_exception}) and a larger stored
     * catalog is refused on load, before any of it is sent.
     */
    record Limits(int indices, int aliases, int recordBytes, long snapshotBytes) {
        /** 10,000 indices, 50,000 aliases, 1 MiB per record (an index with its mappings), 64 MiB in all. */
        static final Limits DEFAULT = new Limits(10_000, 50_000, 1 << 20, 64L << 20);

        int max(Kind kind) {
            return switch (kind) {
                case INDEX -> indices;
                case ALIAS -> aliases;
            };
        }
    }

    /** A kind of catalog object: its hash, after the key prefix. */
    enum Kind {
        INDEX("catalog:index"),
        ALIAS("catalog:alias");

        final String hash;

        Kind(String hash) {
            this.hash = hash;
        }
    }

    /** A record that cannot be read: the message names the kind, the field and what is wrong. */
    static final class CorruptRecord extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CorruptRecord(String message) {
            super(message);
        }
    }

    private CatalogRecords() {
    }

    // ------------------------------------------------------------------------------------------ keys

    /** The field of an index: its name. */
    static String indexField(String name) {
        return name;
    }

    /** The field of an alias: index and alias name, which never contain {@code /}. */
    static String aliasField(AliasMetadata alias) {
        return alias.index() + "/" + alias.alias();
    }

    // ------------------------------------------------------------------------------------------ encoding

    static String encode(IndexMetadata index) {
        JsonObjectBuilder settings = JsonObjectBuilder.object();
        index.settings().toFlatMap().forEach(settings::put);
        return Json.write(JsonObjectBuilder.object()
                .put("v", VERSION)
                .put("name", index.name())
                .put("uuid", index.uuid())
                .put("created", index.creationDate().toEpochMilli())
                .put("settings", settings)
                .put("mappings", index.mappings().toJson())
                .build());
    }

    static String encode(AliasMetadata alias) {
        JsonObjectBuilder b = JsonObjectBuilder.object()
                .put("v", VERSION)
                .put("alias", alias.alias())
                .put("index", alias.index());
        alias.indexRouting().ifPresent(r -> b.put("index_routing", r));
        alias.searchRouting().ifPresent(r -> b.put("search_routing", r));
        alias.isWriteIndex().ifPresent(w -> b.put("is_write_index", w));
        alias.isHidden().ifPresent(h -> b.put("is_hidden", h));
        alias.filter().ifPresent(f -> b.put("filter", f));
        return Json.write(b.build());
    }

    // ------------------------------------------------------------------------------------------ decoding

    /**
     * The view of the raw records of every kind (field → value), validated whole.
     *
     * @throws CorruptRecord naming the first problem found
     */
    static CatalogView decode(long version, Map<Kind, Map<String, String>> records) {
        return decode(version, records, Map.of());
    }

    /**
     * As above, reusing the index of {@code known} (record text → index, from the previous snapshot) for a record
     * whose text is unchanged: a change of one index does not parse every other index's mappings again.
     */
    static CatalogView decode(long version, Map<Kind, Map<String, String>> records, Map<String, IndexMetadata> known) {
        TreeMap<String, IndexMetadata> indices = new TreeMap<>();
        Map<String, String> uuids = new HashMap<>();
        records.getOrDefault(Kind.INDEX, Map.of()).forEach((field, value) -> {
            IndexMetadata reused = known.get(value);
            IndexMetadata index = reused != null && field.equals(indexField(reused.name())) ? reused
                    : decodeIndex(field, value);
            String other = uuids.putIfAbsent(index.uuid(), index.name());
            if (other != null) {
                throw new CorruptRecord("indices [" + other + "] and [" + index.name() + "] share the uuid ["
                        + index.uuid() + "]");
            }
            indices.put(index.name(), index);
        });
        List<AliasMetadata> aliases = new ArrayList<>();
        records.getOrDefault(Kind.ALIAS, Map.of()).forEach((field, value) -> {
            AliasMetadata alias = decodeAlias(field, value);
            if (!indices.containsKey(alias.index())) {
                throw new CorruptRecord("alias [" + alias.alias() + "] names index [" + alias.index()
                        + "], which does not exist");
            }
            if (indices.containsKey(alias.alias())) {
                throw new CorruptRecord("alias [" + alias.alias() + "] has the name of an index");
            }
            aliases.add(alias);
        });
        aliases.sort(java.util.Comparator.comparing(AliasMetadata::alias).thenComparing(AliasMetadata::index));
        return new CatalogView(version, indices, aliases);
    }

    static IndexMetadata decodeIndex(String field, String value) {
        JsonObject o = record(Kind.INDEX, field, value);
        try {
            String name = string(o, "name");
            if (!field.equals(indexField(name))) {
                throw new CorruptRecord("index record [" + field + "] holds index [" + name + "]");
            }
            Map<String, String> flat = new LinkedHashMap<>();
            if (!(o.members().get("settings") instanceof JsonObject settings)) {
                throw new IllegalArgumentException("[settings] is not an object");
            }
            settings.members().forEach((key, setting) -> flat.put(key, JsonReads.text(setting).orElseThrow(
                    () -> new IllegalArgumentException("setting [" + key + "] is not a scalar"))));
            if (!(o.members().get("mappings") instanceof JsonObject mappings)) {
                throw new IllegalArgumentException("[mappings] is not an object");
            }
            long created = JsonReads.integer(member(o, "created"))
                    .orElseThrow(() -> new IllegalArgumentException("[created] is not an integer"));
            return new IndexMetadata(name, string(o, "uuid"), Instant.ofEpochMilli(created),
                    IndexSettings.fromFlatMap(flat), Mappings.parse(mappings));
        } catch (CorruptRecord e) {
            throw e;
        } catch (RuntimeException e) {
            throw new CorruptRecord("index record [" + field + "] is unreadable: " + e.getMessage());
        }
    }

    static AliasMetadata decodeAlias(String field, String value) {
        JsonObject o = record(Kind.ALIAS, field, value);
        try {
            AliasMetadata alias = new AliasMetadata(string(o, "alias"), string(o, "index"),
                    optionalString(o, "index_routing"), optionalString(o, "search_routing"),
                    optionalBool(o, "is_write_index"), optionalBool(o, "is_hidden"),
                    Optional.ofNullable(o.members().get("filter")).map(f -> (JsonObject) f));
            if (!field.equals(aliasField(alias))) {
                throw new CorruptRecord("alias record [" + field + "] holds alias [" + alias.alias() + "] on ["
                        + alias.index() + "]");
            }
            return alias;
        } catch (CorruptRecord e) {
            throw e;
        } catch (RuntimeException e) {
            throw new CorruptRecord("alias record [" + field + "] is unreadable: " + e.getMessage());
        }
    }

    /** The JSON object of a record of a known encoding version. */
    private static JsonObject record(Kind kind, String field, String value) {
        JsonValue parsed;
        try {
            parsed = Json.parse(value);
        } catch (RuntimeException e) {
            throw new CorruptRecord(kind.name().toLowerCase(java.util.Locale.ROOT) + " record [" + field
                    + "] is not JSON: " + e.getMessage());
        }
        if (!(parsed instanceof JsonObject o)) {
            throw new CorruptRecord(kind.name().toLowerCase(java.util.Locale.ROOT) + " record [" + field
                    + "] is not a JSON object");
        }
        Optional<Long> version = Optional.ofNullable(o.members().get("v")).flatMap(JsonReads::integer);
        if (version.isEmpty() || version.get() != VERSION) {
            throw new CorruptRecord(kind.name().toLowerCase(java.util.Locale.ROOT) + " record [" + field
                    + "] has encoding version [" + version.map(String::valueOf).orElse("none")
                    + "]; this gateway reads version [" + VERSION + "]");
        }
        return o;
    }

    private static JsonValue member(JsonObject o, String name) {
        JsonValue v = o.members().get(name);
        if (v == null) {
            throw new IllegalArgumentException("[" + name + "] is missing");
        }
        return v;
    }

    private static String string(JsonObject o, String name) {
        if (member(o, name) instanceof JsonValue.JsonString s) {
            return s.value();
        }
        throw new IllegalArgumentException("[" + name + "] is not a string");
    }

    private static Optional<String> optionalString(JsonObject o, String name) {
        return o.members().containsKey(name) ? Optional.of(string(o, name)) : Optional.empty();
    }

    private static Optional<Boolean> optionalBool(JsonObject o, String name) {
        if (!o.members().containsKey(name)) {
            return Optional.empty();
        }
        if (o.members().get(name) instanceof JsonValue.JsonBool b) {
            return Optional.of(b.value());
        }
        throw new IllegalArgumentException("[" + name + "] is not a boolean");
    }
}
