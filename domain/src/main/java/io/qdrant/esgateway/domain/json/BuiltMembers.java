package io.qdrant.esgateway.domain.json;

import java.util.AbstractMap;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The members a {@link JsonObjectBuilder} hands to the object it builds: its map, which it never changes afterwards
 * (a later {@code put} works on a copy), so the object takes them without copying them (an answer is built from many
 * small objects). Read-only, in insertion order.
 */
final class BuiltMembers extends AbstractMap<String, JsonValue> {
    private final Map<String, JsonValue> members;

    BuiltMembers(LinkedHashMap<String, JsonValue> members) {
        this.members = Collections.unmodifiableMap(members);
    }

    @Override
    public Set<Entry<String, JsonValue>> entrySet() {
        return members.entrySet();
    }

    @Override
    public JsonValue get(Object key) {
        return members.get(key);
    }

    @Override
    public boolean containsKey(Object key) {
        return members.containsKey(key);
    }

    @Override
    public int size() {
        return members.size();
    }

    @Override
    public boolean isEmpty() {
        return members.isEmpty();
    }

    @Override
    public Set<String> keySet() {
        return members.keySet();
    }

    @Override
    public Collection<JsonValue> values() {
        return members.values();
    }

    @Override
    public void forEach(BiConsumer<? super String, ? super JsonValue> action) {
        members.forEach(action);
    }

    @Override
    public boolean equals(Object o) {
        return o == this || members.equals(o);
    }

    @Override
    public int hashCode() {
        return members.hashCode();
    }

    @Override
    public String toString() {
        return members.toString();
    }
}
