package dev.fleche.transport;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * An ordered list of HTTP header (or trailer) fields.
 *
 * <p>Names keep the case they were received or added with; lookups ignore ASCII case. Repeated names are kept
 * as separate entries in arrival order. The transport fills one instance per request; handlers build one per
 * response. Not thread-safe: hand an instance to another thread only through a happens-before edge (the
 * transport's own hand-overs provide one).
 *
 * <p>Response fields are validated when the response head is written: names must be tokens and values must not
 * contain CR, LF or NUL (a value that could split a response is refused with {@link IllegalArgumentException}).
 */
public final class HttpFields {

    private static final String[] EMPTY = new String[0];

    private String[] names;
    private String[] values;
    private int size;

    /** Creates an empty list. */
    public HttpFields() {
        names = EMPTY;
        values = EMPTY;
    }

    /** Creates an empty list with room for {@code capacity} fields. */
    public HttpFields(int capacity) {
        names = new String[capacity];
        values = new String[capacity];
    }

    /** Appends a field; returns {@code this}. */
    public HttpFields add(String name, String value) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
        if (size == names.length) {
            int capacity = Math.max(8, size * 2);
            names = Arrays.copyOf(names, capacity);
            values = Arrays.copyOf(values, capacity);
        }
        names[size] = name;
        values[size] = value;
        size++;
        return this;
    }

    /** Removes every field named {@code name} and appends one with {@code value}; returns {@code this}. */
    public HttpFields set(String name, String value) {
        remove(name);
        return add(name, value);
    }

    /** Removes every field named {@code name} (any case); returns whether any was removed. */
    public boolean remove(String name) {
        int kept = 0;
        for (int i = 0; i < size; i++) {
            if (!names[i].equalsIgnoreCase(name)) {
                names[kept] = names[i];
                values[kept] = values[i];
                kept++;
            }
        }
        boolean removed = kept != size;
        for (int i = kept; i < size; i++) {
            names[i] = null;
            values[i] = null;
        }
        size = kept;
        return removed;
    }

    /** The value of the first field named {@code name} (any case), or {@code null}. */
    public String get(String name) {
        for (int i = 0; i < size; i++) {
            if (names[i].equalsIgnoreCase(name)) {
                return values[i];
            }
        }
        return null;
    }

    /** The values of every field named {@code name} (any case), in order; empty when there is none. */
    public List<String> getAll(String name) {
        List<String> all = new ArrayList<>(2);
        for (int i = 0; i < size; i++) {
            if (names[i].equalsIgnoreCase(name)) {
                all.add(values[i]);
            }
        }
        return all;
    }

    /** Whether a field named {@code name} (any case) is present. */
    public boolean contains(String name) {
        return get(name) != null;
    }

    /** The number of fields. */
    public int size() {
        return size;
    }

    /** Whether there are no fields. */
    public boolean isEmpty() {
        return size == 0;
    }

    /** The name of field {@code index}, as received or added. */
    public String name(int index) {
        Objects.checkIndex(index, size);
        return names[index];
    }

    /** The value of field {@code index}. */
    public String value(int index) {
        Objects.checkIndex(index, size);
        return values[index];
    }

    /** Calls {@code action} with each field's name and value, in order. */
    public void forEach(BiConsumer<String, String> action) {
        for (int i = 0; i < size; i++) {
            action.accept(names[i], values[i]);
        }
    }

    /** Removes all fields. */
    public void clear() {
        Arrays.fill(names, 0, size, null);
        Arrays.fill(values, 0, size, null);
        size = 0;
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < size; i++) {
            text.append(names[i]).append(": ").append(values[i]).append('\n');
        }
        return text.toString();
    }
}
