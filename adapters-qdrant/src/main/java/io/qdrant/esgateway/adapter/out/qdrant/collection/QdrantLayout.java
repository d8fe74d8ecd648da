package io.qdrant.esgateway.adapter.out.qdrant.collection;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;
import io.qdrant.esgateway.adapter.out.qdrant.QdrantStores;

/**
 * How an index lives in Qdrant: collection names, point ids and payload keys.
 *
 * <p>Payload of a document point:
 * <ul>
 *   <li>{@code _id} — the Elasticsearch {@code _id} (keyword index);</li>
 *   <li>{@code _src} — the {@code _source} as its exact JSON text (big numbers, key order and lone surrogates survive,
 *       which a JSON payload would not guarantee); read by {@code get} and {@code fetch};</li>
 *   <li>{@code _source} — the same source as a JSON object, so that the complete scan can ask Qdrant for only the
 *       top-level keys it needs ({@code with_payload} include lists);</li>
 *   <li>{@code _version}, {@code _seq_no}, {@code _primary_term} — the version triple; {@code _seq_no} (integer range
 *       index) is also the point's position in index order ({@link #position});</li>
 *   <li>{@code _f} — the values as Elasticsearch indexes them, one array per field path ({@code _f."title.raw"}),
 *       already converted to the mapped type by the domain (keywords past {@code ignore_above} left out, dates as epoch
 *       milliseconds, numbers rounded to float/half_float precision); filters run on these, so that they see what an
 *       Elasticsearch query sees, arrays flattened as Elasticsearch flattens them;</li>
 *   <li>{@code _t}, {@code _n} — analysed tokens of text fields and field lengths, for full-text matching and BM25
 *       statistics ({@link io.qdrant.esgateway.adapter.out.qdrant.payload.TextPayload}).</li>
 * </ul>
 * One more point per collection, with the fixed id {@link #META_POINT}, holds the highest sequence number written
 * ({@code _qeg_max_seq_no}); every read excludes it with {@code must_not has_id}.
 */
public final class QdrantLayout {
    public static final String ID = "_id";
    public static final String SOURCE_TEXT = "_src";
    public static final String SOURCE = "_source";
    public static final String VERSION = "_version";
    public static final String SEQ_NO = "_seq_no";
    public static final String PRIMARY_TERM = "_primary_term";
    /** The routing value a document was written with; absent when it had none. */
    public static final String ROUTING = "_routing";
    public static final String FIELDS = "_f";
    public static final String MAX_SEQ_NO = "_qeg_max_seq_no";
    /** The metadata point: the nil UUID, which no version-5 id can be. */
    public static final String META_POINT = "00000000-0000-0000-0000-000000000000";

    private static final Pattern UNSAFE_NAME = Pattern.compile("[^a-z0-9_-]");
    /** A fresh SHA-1 digest, never updated: cloned for each point id. */
    private static final MessageDigest SHA1 = sha1();

    private QdrantLayout() {
    }

    /** The {@link #ROUTING} of a point's payload: empty when the document was written without one. */
    public static java.util.Optional<String> routing(com.fasterxml.jackson.databind.JsonNode payload) {
        com.fasterxml.jackson.databind.JsonNode r = payload.get(ROUTING);
        return r != null && r.isTextual() ? java.util.Optional.of(r.asText()) : java.util.Optional.empty();
    }

    /** The collection of a concrete index with the default prefix. */
    public static String collection(IndexMetadata index) {
        return collection(QdrantStores.Settings.DEFAULT_PREFIX, index);
    }

    /**
     * The collection of a concrete index: the prefix, its (sanitised) name and its uuid, so a re-created index
     * starts empty.
     */
    public static String collection(String prefix, IndexMetadata index) {
        String uuid = index.uuid();
        if (uuid == null || !bare(uuid)) {
            throw new IllegalArgumentException("index [" + index.name() + "] has uuid [" + uuid
                    + "], which is not URL-safe base64");
        }
        String name = safeName(index.name());
        if (name.length() > 100) {
            name = name.substring(0, 100);
        }
        return prefix + name + "-" + uuid;
    }

    /** Whether {@code s} is non-empty and only {@code [A-Za-z0-9_-]} (a loop: this runs on every call to Qdrant). */
    private static boolean bare(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-')) {
                return false;
            }
        }
        return true;
    }

    /** The name lower-cased with every character outside {@code [a-z0-9_-]} replaced by {@code _}. */
    private static String safeName(String indexName) {
        String lower = indexName.toLowerCase(Locale.ROOT);
        for (int i = 0; i < lower.length(); i++) {
            char c = lower.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-')) {
                return UNSAFE_NAME.matcher(lower).replaceAll("_");
            }
        }
        return lower;
    }

    /** The point id of a document: a version-5 (SHA-1, name-based) UUID of the index uuid and the {@code _id}. */
    public static String pointId(IndexMetadata index, String id) {
        try {
            MessageDigest sha1 = (MessageDigest) SHA1.clone(); // a clone costs less than a provider lookup
            sha1.update(index.uuid().getBytes(StandardCharsets.UTF_8));
            sha1.update((byte) 0);
            sha1.update(id.getBytes(StandardCharsets.UTF_8));
            byte[] hash = sha1.digest();
            hash[6] = (byte) ((hash[6] & 0x0f) | 0x50);
            hash[8] = (byte) ((hash[8] & 0x3f) | 0x80);
            long msb = 0;
            long lsb = 0;
            for (int i = 0; i < 8; i++) {
                msb = (msb << 8) | (hash[i] & 0xff);
                lsb = (lsb << 8) | (hash[8 + i] & 0xff);
            }
            return new UUID(msb, lsb).toString();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("the JDK's SHA-1 can be cloned", e);
        }
    }

    private static MessageDigest sha1() {
        try {
            return MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is part of every JDK", e);
        }
    }

    /**
     * A point's position in index order: its {@code _seq_no} (the sequence number of the document's live version, so
     * ascending positions are the order in which the live versions were written, Elasticsearch's order on one shard).
     * Read from the record's payload, which every read that needs positions includes ({@link #SEQ_NO}); the scroll
     * in index order puts it there from the record's {@code order_value}.
     */
    public static long position(com.fasterxml.jackson.databind.JsonNode record) {
        com.fasterxml.jackson.databind.JsonNode seqNo = record.path("payload").get(SEQ_NO);
        if (seqNo == null || !seqNo.canConvertToLong()) {
            throw new IllegalStateException("a record read without its [" + SEQ_NO + "] payload");
        }
        return seqNo.asLong();
    }

    /**
     * The payload index that serves index order: an integer range index on {@link #SEQ_NO} (Qdrant's {@code order_by}
     * needs one); no value lookup, as no filter matches a sequence number.
     */
    public static com.fasterxml.jackson.databind.node.ObjectNode seqNoSchema() {
        com.fasterxml.jackson.databind.node.ObjectNode s = com.fasterxml.jackson.databind.node.JsonNodeFactory
                .instance.objectNode();
        s.put("type", "integer");
        s.put("lookup", false);
        s.put("range", true);
        return s;
    }

    /**
     * One payload-path segment: bare when it is only letters, digits, {@code _} and {@code -}; otherwise
     * double-quoted (guide §11.2: {@code @timestamp}, dots, spaces, brackets).
     */
    public static String segment(String key) {
        if (bare(key)) {
            return key;
        }
        if (key.indexOf('"') >= 0 || key.indexOf('\\') >= 0) {
            throw GatewayException.unsupported("a field name with a double quote or backslash ([" + key
                    + "]) on the Qdrant backend");
        }
        return "\"" + key + "\"";
    }

    /** The payload path of an Elasticsearch field's indexed values: {@code _f.<field>} with the field quoted. */
    public static String fieldPath(String field) {
        return FIELDS + "." + segment(field);
    }

    /** The payload path of a top-level key of the source. */
    public static String sourcePath(String topLevelKey) {
        return SOURCE + "." + segment(topLevelKey);
    }
}
