package io.qdrant.esgateway.adapter.in.http;

import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code filter_path} URL parameter, applied to an answer as Elasticsearch 8.15 applies it: comma-separated
 * paths of dot-separated field names, each name a pattern where {@code *} matches any characters and a whole
 * {@code **} any number of levels; a leading {@code -} excludes instead of including. Arrays are transparent (a path
 * continues into each element). Including keeps the fields a path reaches in full and the objects leading to them;
 * excluding drops the fields a path reaches in full. Both are allowed: the inclusion first, then the exclusion. An
 * object or array that had fields on a path but has none left is dropped (a root object stays, as {@code {}}).
 */
final class FilterPath {
    private final List<String[]> includes;
    private final List<String[]> excludes;

    private FilterPath(List<String[]> includes, List<String[]> excludes) {
        this.includes = includes;
        this.excludes = excludes;
    }

    /** The filter of a {@code filter_path} value; empty when it names no path (then the answer is unchanged). */
    static Optional<FilterPath> parse(String value) {
        List<String[]> includes = new ArrayList<>();
        List<String[]> excludes = new ArrayList<>();
        for (String raw : value.split(",")) {
            String path = raw.strip();
            if (path.isEmpty()) {
                continue;
            }
            boolean exclude = path.startsWith("-");
            if (exclude) {
                path = path.substring(1);
            }
            (exclude ? excludes : includes).add(path.split("\\.", -1));
        }
        return includes.isEmpty() && excludes.isEmpty() ? Optional.empty()
                : Optional.of(new FilterPath(List.copyOf(includes), List.copyOf(excludes)));
    }

    /**
     * The answer filtered; empty when nothing of a root array is left (Elasticsearch then sends an empty body). A root
     * object always stays, {@code {}} at least.
     */
    Optional<JsonValue> apply(JsonValue answer) {
        Optional<JsonValue> out = Optional.of(answer);
        List<State> start = new ArrayList<>();
        if (!includes.isEmpty()) {
            includes.forEach(p -> start.add(new State(p, 0)));
            out = root(answer, List.copyOf(start), true);
        }
        if (!excludes.isEmpty() && out.isPresent()) {
            start.clear();
            excludes.forEach(p -> start.add(new State(p, 0)));
            out = root(out.get(), List.copyOf(start), false);
        }
        return out;
    }

    private static Optional<JsonValue> root(JsonValue answer, List<State> states, boolean include) {
        if (answer instanceof JsonObject o) {
            return Optional.of(object(o, states, include).orElseGet(() -> JsonObjectBuilder.object().build()));
        }
        if (answer instanceof JsonArray) {
            return inner(answer, states, include);
        }
        return Optional.of(answer);
    }

    /** A position inside one path: the next name to match is {@code segments[next]}. */
    private record State(String[] segments, int next) {
        boolean last() {
            return next == segments.length - 1;
        }
    }

    /** Where a field's name leads the states: a path ends there ({@code full}), or the paths that go on inside. */
    private record Step(boolean full, List<State> inside) {
    }

    private static Step step(List<State> states, String name) {
        boolean full = false;
        List<State> inside = new ArrayList<>();
        for (State s : states) {
            full |= advance(s, name, inside);
        }
        return new Step(full, inside);
    }

    /** Adds where {@code s} goes on inside a field {@code name}; true when a path ends at it. */
    private static boolean advance(State s, String name, List<State> inside) {
        String segment = s.segments()[s.next()];
        if (segment.equals("**")) {
            if (s.last()) {
                return true;
            }
            inside.add(s); // ** takes this level and maybe more
            return advance(new State(s.segments(), s.next() + 1), name, inside); // ... or none
        }
        if (!glob(segment, name)) {
            return false;
        }
        if (s.last()) {
            return true;
        }
        inside.add(new State(s.segments(), s.next() + 1));
        return false;
    }

    /** The object's fields kept; empty when none is. */
    private static Optional<JsonValue> object(JsonObject o, List<State> states, boolean include) {
        JsonObjectBuilder out = JsonObjectBuilder.object();
        boolean any = false;
        for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
            Step step = step(states, e.getKey());
            Optional<JsonValue> kept;
            if (step.full()) {
                kept = include ? Optional.of(e.getValue()) : Optional.empty();
            } else if (!step.inside().isEmpty()) {
                kept = inner(e.getValue(), step.inside(), include);
            } else {
                kept = include ? Optional.empty() : Optional.of(e.getValue());
            }
            if (kept.isPresent()) {
                out.put(e.getKey(), kept.get());
                any = true;
            }
        }
        return any ? Optional.of(out.build()) : Optional.empty();
    }

    /** A value that paths go on into: objects and arrays filtered, a scalar kept only when excluding. */
    private static Optional<JsonValue> inner(JsonValue value, List<State> states, boolean include) {
        return switch (value) {
            case JsonObject o -> object(o, states, include);
            case JsonArray a -> {
                List<JsonValue> out = new ArrayList<>(a.elements().size());
                for (JsonValue element : a.elements()) {
                    inner(element, states, include).ifPresent(out::add);
                }
                yield out.isEmpty() ? Optional.empty() : Optional.of(new JsonArray(out));
            }
            default -> include ? Optional.empty() : Optional.of(value);
        };
    }

    /** Whether {@code name} matches {@code pattern}, where each {@code *} matches any characters. */
    static boolean glob(String pattern, String name) {
        int star = pattern.indexOf('*');
        if (star < 0) {
            return pattern.equals(name);
        }
        if (!name.startsWith(pattern.substring(0, star))) {
            return false;
        }
        int at = star;
        int p = star;
        while (p < pattern.length()) {
            if (pattern.charAt(p) == '*') {
                p++;
                continue;
            }
            int nextStar = pattern.indexOf('*', p);
            String part = nextStar < 0 ? pattern.substring(p) : pattern.substring(p, nextStar);
            if (nextStar < 0) {
                // the last part must end the name, after what the earlier parts used
                return name.length() - part.length() >= at && name.endsWith(part);
            }
            int found = name.indexOf(part, at);
            if (found < 0) {
                return false;
            }
            at = found + part.length();
            p = nextStar;
        }
        return true; // the pattern ends with *
    }
}
