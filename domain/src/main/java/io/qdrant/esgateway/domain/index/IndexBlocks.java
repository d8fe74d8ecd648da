package io.qdrant.esgateway.domain.index;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An index's {@code index.blocks.*} settings and the operations they refuse, as Elasticsearch 8.15 defines its
 * index blocks: {@code read_only} (writes and metadata changes), {@code read_only_allow_delete} (the same, but the
 * index may be deleted), {@code read} (searches and gets), {@code write} (document writes) and {@code metadata}
 * (reading and changing settings, mappings and aliases). Each value is kept as it was set ({@code false} included),
 * since Elasticsearch shows a lifted block as {@code "false"}.
 */
public record IndexBlocks(Optional<Boolean> readOnly, Optional<Boolean> readOnlyAllowDelete, Optional<Boolean> read,
                          Optional<Boolean> write, Optional<Boolean> metadata) {
    public static final IndexBlocks NONE = new IndexBlocks(Optional.empty(), Optional.empty(), Optional.empty(),
            Optional.empty(), Optional.empty());
    public static final String PREFIX = "index.blocks.";

    /** What an operation does to an index, as Elasticsearch's block levels name it. */
    public enum Level {
        READ, WRITE, METADATA_READ, METADATA_WRITE
    }

    /** One block: Elasticsearch's id, description, status and the levels it refuses. */
    private enum Block {
        READ_ONLY(5, "index read-only (api)", false, List.of(Level.WRITE, Level.METADATA_WRITE)),
        READ(7, "index read (api)", false, List.of(Level.READ)),
        WRITE(8, "index write (api)", false, List.of(Level.WRITE)),
        METADATA(9, "index metadata (api)", false, List.of(Level.METADATA_READ, Level.METADATA_WRITE)),
        READ_ONLY_ALLOW_DELETE(12, "disk usage exceeded flood-stage watermark, index has read-only-allow-delete"
                + " block", true,
                List.of(Level.WRITE, Level.METADATA_WRITE));

        final int id;
        final String description;
        final boolean tooManyRequests;
        final List<Level> levels;

        Block(int id, String description, boolean tooManyRequests, List<Level> levels) {
            this.id = id;
            this.description = description;
            this.tooManyRequests = tooManyRequests;
            this.levels = levels;
        }

        String render() {
            return (tooManyRequests ? "TOO_MANY_REQUESTS" : "FORBIDDEN") + "/" + id + "/" + description;
        }
    }

    /** The block named by a {@code PUT /{index}/_block/{block}} path, as its setting's key. */
    public static String settingOf(String block) {
        return switch (block) {
            case "read_only", "read_only_allow_delete", "read", "write", "metadata" -> PREFIX + block;
            default -> throw GatewayException.illegalArgument("No block found with name " + block);
        };
    }

    /** Reads one {@code index.blocks.*} setting into {@code b}; false when {@code key} is not one. */
    static IndexBlocks with(IndexBlocks b, String key, boolean value) {
        Optional<Boolean> v = Optional.of(value);
        return switch (key) {
            case "index.blocks.read_only" -> new IndexBlocks(v, b.readOnlyAllowDelete, b.read, b.write, b.metadata);
            case "index.blocks.read_only_allow_delete" -> new IndexBlocks(b.readOnly, v, b.read, b.write, b.metadata);
            case "index.blocks.read" -> new IndexBlocks(b.readOnly, b.readOnlyAllowDelete, v, b.write, b.metadata);
            case "index.blocks.write" -> new IndexBlocks(b.readOnly, b.readOnlyAllowDelete, b.read, v, b.metadata);
            case "index.blocks.metadata" -> new IndexBlocks(b.readOnly, b.readOnlyAllowDelete, b.read, b.write, v);
            default -> null;
        };
    }

    static boolean isBlockSetting(String key) {
        return with(NONE, key, true) != null;
    }

    /** The settings as flat keys with string values, as Elasticsearch renders them. */
    void toFlatMap(Map<String, String> out) {
        metadata.ifPresent(v -> out.put(PREFIX + "metadata", v.toString()));
        read.ifPresent(v -> out.put(PREFIX + "read", v.toString()));
        readOnly.ifPresent(v -> out.put(PREFIX + "read_only", v.toString()));
        readOnlyAllowDelete.ifPresent(v -> out.put(PREFIX + "read_only_allow_delete", v.toString()));
        write.ifPresent(v -> out.put(PREFIX + "write", v.toString()));
    }

    private List<Block> active() {
        List<Block> out = new ArrayList<>();
        if (readOnly.orElse(false)) {
            out.add(Block.READ_ONLY);
        }
        if (read.orElse(false)) {
            out.add(Block.READ);
        }
        if (write.orElse(false)) {
            out.add(Block.WRITE);
        }
        if (metadata.orElse(false)) {
            out.add(Block.METADATA);
        }
        if (readOnlyAllowDelete.orElse(false)) {
            out.add(Block.READ_ONLY_ALLOW_DELETE);
        }
        return out;
    }

    /**
     * Refuses an operation of {@code level} on {@code index} when a block is set for it: Elasticsearch's
     * {@code cluster_block_exception} (403; 429 when every refusing block is the retryable
     * {@code read_only_allow_delete}).
     */
    public static void check(IndexMetadata index, Level level) {
        check(index.name(), index.settings().blocks(), level);
    }

    /** As {@link #check(IndexMetadata, Level)}, for every index of {@code indices} in order: the first refuses. */
    public static void check(List<IndexMetadata> indices, Level level) {
        for (IndexMetadata index : indices) {
            check(index, level);
        }
    }

    /**
     * Refuses {@code PUT _settings} with the setting keys {@code keys} (flat, {@code index.}-prefixed) on an index
     * with a metadata-write block, unless the change can lift a block: Elasticsearch lets through any change that
     * names {@code read_only} or {@code read_only_allow_delete}, and a change of {@code metadata} alone.
     */
    static void checkSettingsUpdate(String index, IndexBlocks blocks, java.util.Set<String> keys) {
        if (keys.contains(PREFIX + "read_only") || keys.contains(PREFIX + "read_only_allow_delete")
                || (keys.size() == 1 && keys.contains(PREFIX + "metadata"))) {
            return;
        }
        check(index, blocks, Level.METADATA_WRITE);
    }

    private static void check(String index, IndexBlocks blocks, Level level) {
        if (blocks == NONE) {
            return;
        }
        List<Block> refusing = blocks.active().stream().filter(b -> b.levels.contains(level)).toList();
        if (refusing.isEmpty()) {
            return;
        }
        boolean retryable = refusing.stream().allMatch(b -> b.tooManyRequests);
        String message = "index [" + index + "] blocked by: ["
                + String.join(", ", refusing.stream().map(Block::render).toList()) + "];";
        throw new GatewayException(retryable ? ErrorKind.CLUSTER_BLOCK_RETRYABLE : ErrorKind.CLUSTER_BLOCK, message,
                Map.of(), null);
    }

    /** Whether deleting the index is refused: a metadata-write block other than {@code read_only_allow_delete}. */
    public static void checkDelete(IndexMetadata index) {
        IndexBlocks blocks = index.settings().blocks();
        List<Block> refusing = blocks.active().stream().filter(b -> b.levels.contains(Level.METADATA_WRITE)
                && b != Block.READ_ONLY_ALLOW_DELETE).toList();
        if (!refusing.isEmpty()) {
            throw new GatewayException(ErrorKind.CLUSTER_BLOCK, "index [" + index.name() + "] blocked by: ["
                    + String.join(", ", refusing.stream().map(Block::render).toList()) + "];", Map.of(), null);
        }
    }
}
