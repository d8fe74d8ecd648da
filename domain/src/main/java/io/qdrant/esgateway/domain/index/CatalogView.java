package io.qdrant.esgateway.domain.index;

import io.qdrant.esgateway.domain.error.GatewayException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A consistent snapshot of the catalog: every index and every alias, with the version the catalog had when it was
 * read (used to apply alias changes only on top of what was validated). Index expressions are resolved here with
 * Elasticsearch's rules: comma lists, {@code *} wildcards over index and alias names, {@code -} exclusions after a
 * wildcard, {@code _all}; concrete index names take precedence over aliases (they can never collide).
 */
public record CatalogView(long version, SortedMap<String, IndexMetadata> indices, List<AliasMetadata> aliases) {

    public CatalogView {
        indices = Collections.unmodifiableSortedMap(new TreeMap<>(indices));
        aliases = List.copyOf(aliases);
    }

    public Optional<IndexMetadata> index(String name) {
        return Optional.ofNullable(indices.get(name));
    }

    public boolean isAlias(String name) {
        return aliases.stream().anyMatch(a -> a.alias().equals(name));
    }

    public List<AliasMetadata> aliasesOf(String index) {
        return aliases.stream().filter(a -> a.index().equals(index))
                .sorted(java.util.Comparator.comparing(AliasMetadata::alias)).toList();
    }

    public Set<String> aliasNames() {
        Set<String> names = new TreeSet<>();
        aliases.forEach(a -> names.add(a.alias()));
        return names;
    }

    /**
     * How an expression that names nothing is treated (ES's {@code ignore_unavailable}, {@code allow_no_indices}),
     * and whether wildcards and {@code _all} expand to hidden indices and aliases ({@code expand_wildcards} with
     * {@code hidden} or {@code all}).
     */
    public record Options(boolean ignoreUnavailable, boolean allowNoIndices, boolean expandHidden,
                          boolean expandOpen, boolean expandClosed) {
        public static final Options STRICT_EXPAND_OPEN = new Options(false, true);

        public Options(boolean ignoreUnavailable, boolean allowNoIndices) {
            this(ignoreUnavailable, allowNoIndices, false);
        }

        /** Wildcards expand to open indices only (Elasticsearch's most common default). */
        public Options(boolean ignoreUnavailable, boolean allowNoIndices, boolean expandHidden) {
            this(ignoreUnavailable, allowNoIndices, expandHidden, true, false);
        }

        /** These options with wildcards expanding to the open and closed indices as given. */
        public Options withStates(boolean open, boolean closed) {
            return new Options(ignoreUnavailable, allowNoIndices, expandHidden, open, closed);
        }

        /** These options with hidden indices expanded or not. */
        public Options withHidden(boolean hidden) {
            return new Options(ignoreUnavailable, allowNoIndices, hidden, expandOpen, expandClosed);
        }

        /** Whether wildcards expand at all ({@code expand_wildcards=none} does not: a wildcard is then a name). */
        boolean expandsWildcards() {
            return expandOpen || expandClosed;
        }
    }

    /** The concrete indices an expression names, sorted by name, each once. */
    public List<IndexMetadata> resolve(String expression, Options options) {
        Set<String> names = new TreeSet<>();
        if (expression == null || expression.isEmpty() || expression.equals("_all")) {
            names.addAll(visible(indices.keySet(), options));
        } else {
            boolean sawWildcard = false;
            for (String part : expression.split(",")) {
                if (part.isEmpty()) {
                    continue;
                }
                if (part.startsWith("-") && sawWildcard) {
                    names.removeAll(matching(part.substring(1), options));
                } else if (IndexName.isWildcard(part) && !options.expandsWildcards()) {
                    // expand_wildcards=none: the wildcard is read as a name, which no index has
                    if (!options.ignoreUnavailable()) {
                        throw GatewayException.indexNotFound(part);
                    }
                } else if (part.equals("_all") || IndexName.isWildcard(part)) {
                    sawWildcard = true;
                    names.addAll(part.equals("_all") ? visible(indices.keySet(), options) : matching(part, options));
                } else if (indices.containsKey(part)) {
                    names.add(part);
                } else if (isAlias(part)) {
                    aliases.stream().filter(a -> a.alias().equals(part)).forEach(a -> names.add(a.index()));
                } else if (!options.ignoreUnavailable()) {
                    throw GatewayException.indexNotFound(part);
                }
            }
        }
        if (names.isEmpty() && !options.allowNoIndices()) {
            throw GatewayException.indexNotFound(expression == null || expression.isEmpty() ? "_all" : expression);
        }
        List<IndexMetadata> out = new ArrayList<>();
        names.forEach(n -> out.add(indices.get(n)));
        return out;
    }

    /**
     * As {@link #resolve} for a read or write of documents, which a closed index refuses: an index the expression
     * names (or reaches through an alias) that is closed is Elasticsearch's {@code index_closed_exception} (skipped
     * with {@code ignore_unavailable}); wildcards and {@code _all} reach closed indices only when the options expand
     * to them ({@code expand_wildcards} with {@code closed} or {@code all}), and a closed index they reach is refused
     * in the same way.
     */
    public List<IndexMetadata> resolveOpen(String expression, Options options) {
        IndexMetadata byName = expression == null || expression.indexOf(',') >= 0 || IndexName.isWildcard(expression)
                ? null : indices.get(expression);
        if (byName != null && !byName.closed()) {
            // one open index by its name: itself, as resolve would find it
            List<IndexMetadata> one = new ArrayList<>(1);
            one.add(byName);
            return one;
        }
        List<IndexMetadata> all = resolve(expression, options);
        if (all.stream().noneMatch(IndexMetadata::closed)) {
            return all;
        }
        Set<String> named = new TreeSet<>();
        if (expression != null && !expression.isEmpty()) {
            for (String part : expression.split(",")) {
                if (part.isEmpty() || part.startsWith("-") || part.equals("_all") || IndexName.isWildcard(part)) {
                    continue;
                }
                if (indices.containsKey(part)) {
                    named.add(part);
                } else {
                    aliases.stream().filter(a -> a.alias().equals(part)).forEach(a -> named.add(a.index()));
                }
            }
        }
        List<IndexMetadata> out = new ArrayList<>();
        for (IndexMetadata index : all) {
            if (!index.closed()) {
                out.add(index);
            } else if ((named.contains(index.name()) || options.expandClosed())
                    && !options.ignoreUnavailable()) {
                throw GatewayException.indexClosed(index.name(), index.uuid());
            }
        }
        if (out.isEmpty() && !options.allowNoIndices()) {
            throw GatewayException.indexNotFound(expression == null || expression.isEmpty() ? "_all" : expression);
        }
        return out;
    }

    /**
     * The index and alias names a wildcard expands to: hidden indices and hidden aliases only when {@code options}
     * expand hidden ones, or when the pattern starts with a dot and so do they (Elasticsearch's implicit match of
     * dot-prefixed hidden names).
     */
    private Set<String> matching(String pattern, Options options) {
        Set<String> out = new LinkedHashSet<>();
        indices.values().stream().filter(i -> IndexName.matches(pattern, i.name())
                && reachable(pattern, i.name(), i.settings().isHidden(), options)).forEach(i -> out.add(i.name()));
        aliases.stream().filter(a -> IndexName.matches(pattern, a.alias())
                && reachable(pattern, a.alias(), a.isHidden().orElse(false), options)).forEach(a -> out.add(a.index()));
        out.removeIf(name -> !inState(indices.get(name), options));
        return out;
    }

    /** Whether a wildcard expanding with {@code options} reaches {@code index} in its state (open or closed). */
    private static boolean inState(IndexMetadata index, Options options) {
        return index != null && (index.closed() ? options.expandClosed() : options.expandOpen());
    }

    private static boolean reachable(String pattern, String name, boolean hidden, Options options) {
        return !hidden || options.expandHidden() || (pattern.startsWith(".") && name.startsWith("."));
    }

    /** {@code _all} and an empty expression: every index but the hidden ones, unless {@code options} expand them. */
    private Set<String> visible(Set<String> names, Options options) {
        Set<String> out = new TreeSet<>();
        names.stream().filter(n -> (options.expandHidden() || !indices.get(n).settings().isHidden())
                && inState(indices.get(n), options)).forEach(out::add);
        return out;
    }

    /**
     * The concrete indices a destructive request names: no wildcards and no {@code _all} (ES's
     * {@code action.destructive_requires_name=true}), no aliases; each name must exist.
     */
    public List<IndexMetadata> resolveForDelete(String expression) {
        return resolveForDelete(expression, false);
    }

    /** As {@link #resolveForDelete(String)}; with {@code ignoreUnavailable} names of no index are skipped. */
    public List<IndexMetadata> resolveForDelete(String expression, boolean ignoreUnavailable) {
        List<IndexMetadata> out = new ArrayList<>();
        for (String part : expression.split(",")) {
            if (part.equals("_all") || IndexName.isWildcard(part)) {
                throw GatewayException.illegalArgument("Wildcard expressions or all indices are not allowed");
            }
            IndexMetadata index = indices.get(part);
            if (index == null) {
                if (isAlias(part)) {
                    throw matchesAlias(part);
                }
                if (ignoreUnavailable) {
                    continue;
                }
                throw GatewayException.indexNotFound(part);
            }
            if (!out.contains(index)) {
                out.add(index);
            }
        }
        return out;
    }

    static GatewayException matchesAlias(String name) {
        return GatewayException.illegalArgument("The provided expression [" + name
                + "] matches an alias, specify the corresponding concrete indices instead.");
    }

    /**
     * The one index a write through {@code name} goes to: the index itself, or the alias's write index (its only
     * index unless that says {@code is_write_index: false}, else the one marked {@code true}).
     */
    public IndexMetadata resolveWriteIndex(String name) {
        IndexMetadata index = writeIndexOf(name);
        if (index.closed()) {
            throw GatewayException.indexClosed(index.name(), index.uuid());
        }
        return index;
    }

    private IndexMetadata writeIndexOf(String name) {
        IndexMetadata index = indices.get(name);
        if (index != null) {
            return index;
        }
        List<AliasMetadata> entries = aliases.stream().filter(a -> a.alias().equals(name)).toList();
        if (entries.isEmpty()) {
            throw GatewayException.indexNotFound(name);
        }
        Optional<AliasMetadata> write = entries.stream().filter(a -> a.isWriteIndex().orElse(false)).findFirst();
        if (write.isEmpty() && entries.size() == 1 && entries.get(0).isWriteIndex().isEmpty()) {
            write = Optional.of(entries.get(0));
        }
        return write.map(a -> indices.get(a.index())).orElseThrow(() -> GatewayException.illegalArgument(
                "no write index is defined for alias [" + name + "]. The write index may be explicitly disabled using"
                        + " is_write_index=false or the alias points to multiple indices without one being designated"
                        + " as a write index"));
    }

    /**
     * The routing a write or a get by id through {@code target} uses, as Elasticsearch resolves it: the request's
     * own {@code routing} for an index; through an alias with an {@code index_routing}, that value — refused when
     * it holds several values, or when the request gives a different one.
     */
    public Optional<String> indexRouting(String target, Optional<String> routing) {
        if (indices.containsKey(target)
                || aliases.stream().noneMatch(a -> a.alias().equals(target) && a.indexRouting().isPresent())) {
            return routing;
        }
        IndexMetadata write = resolveWriteIndex(target);
        Optional<String> aliasRouting = aliases.stream()
                .filter(a -> a.alias().equals(target) && a.index().equals(write.name())).findFirst()
                .flatMap(AliasMetadata::indexRouting);
        if (aliasRouting.isEmpty()) {
            return routing;
        }
        String r = aliasRouting.get();
        if (r.indexOf(',') >= 0) {
            throw GatewayException.illegalArgument("index/alias [" + target + "] provided with routing value [" + r
                    + "] that resolved to several routing values, rejecting operation");
        }
        if (routing.isPresent() && !routing.get().equals(r)) {
            throw GatewayException.illegalArgument("Alias [" + target + "] has index routing associated with it [" + r
                    + "], and was provided with routing value [" + routing.get() + "], rejecting operation");
        }
        return aliasRouting;
    }

    /** Rejects an alias set in which an alias has more than one write index, or an alias shadows an index. */
    public static void validateAliases(Map<String, IndexMetadata> indices, List<AliasMetadata> aliases) {
        Map<String, List<String>> writers = new TreeMap<>();
        for (AliasMetadata a : aliases) {
            if (indices.containsKey(a.alias())) {
                throw GatewayException.invalidAliasName(a.alias(),
                        "an index or data stream exists with the same name as the alias");
            }
            if (a.isWriteIndex().orElse(false)) {
                writers.computeIfAbsent(a.alias(), k -> new ArrayList<>()).add(a.index());
            }
        }
        writers.forEach((alias, list) -> {
            if (list.size() > 1) {
                throw GatewayException.illegalArgument("alias [" + alias + "] has more than one write index "
                        + list.stream().sorted().toList().toString().replace(" ", ""));
            }
        });
        // an alias is hidden on all of its indices or on none (Elasticsearch's cluster-state check, a 500)
        Map<String, List<AliasMetadata>> byAlias = new TreeMap<>();
        aliases.forEach(a -> byAlias.computeIfAbsent(a.alias(), k -> new ArrayList<>()).add(a));
        byAlias.forEach((alias, list) -> {
            List<String> hidden = list.stream().filter(a -> a.isHidden().orElse(false)).map(AliasMetadata::index)
                    .sorted().toList();
            if (!hidden.isEmpty() && hidden.size() < list.size()) {
                List<String> notHidden = list.stream().filter(a -> !a.isHidden().orElse(false))
                        .map(AliasMetadata::index).sorted().toList();
                throw new GatewayException(io.qdrant.esgateway.domain.error.ErrorKind.ILLEGAL_STATE, "alias ["
                        + alias + "] has is_hidden set to true on indices [" + String.join(",", hidden)
                        + "] but does not have is_hidden set to true on indices [" + String.join(",", notHidden)
                        + "]; alias must have the same is_hidden setting on all indices", Map.of(), null);
            }
        });
    }
}
