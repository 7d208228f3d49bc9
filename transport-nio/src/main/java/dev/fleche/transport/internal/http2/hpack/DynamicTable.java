package dev.fleche.transport.internal.http2.hpack;

/**
 * The dynamic table of RFC 7541 §2.3.2 and §4: a ring of entries, newest first, each costing its name's and value's
 * octets plus 32 (§4.1). Adding evicts the oldest entries until the new one fits; an entry larger than the table
 * empties it and is not added (§4.4). Names and values are ISO-8859-1 strings, so a string's octets are its chars.
 *
 * <p>Entries are parallel arrays of names and values (no object per entry), grown by doubling; a table of capacity
 * {@code c} never holds more than {@code c / 32} entries.
 */
final class DynamicTable {
    /** The per-entry overhead of §4.1. */
    static final int ENTRY_OVERHEAD = 32;

    private String[] names = new String[16];
    private String[] values = new String[16];
    /** Slot of the oldest entry. */
    private int oldest;
    private int length;
    private int size;
    private int capacity;

    DynamicTable(int capacity) {
        this.capacity = capacity;
    }

    static int entrySize(String name, String value) {
        return name.length() + value.length() + ENTRY_OVERHEAD;
    }

    /** Entries in the table. */
    int length() {
        return length;
    }

    /** The table's size in octets (§4.1). */
    int size() {
        return size;
    }

    int capacity() {
        return capacity;
    }

    /** The name of entry {@code i}, 1 being the newest; {@code 1 <= i <= length()}. */
    String name(int i) {
        return names[slot(i)];
    }

    String value(int i) {
        return values[slot(i)];
    }

    private int slot(int i) {
        int slot = oldest + length - i;
        return slot >= names.length ? slot - names.length : slot;
    }

    /** Sets the maximum size (§4.3), evicting the oldest entries that no longer fit. */
    void capacity(int newCapacity) {
        capacity = newCapacity;
        evictUntil(newCapacity);
    }

    /** Adds {@code name: value} as the newest entry, evicting as §4.4 says. */
    void add(String name, String value) {
        int entrySize = entrySize(name, value);
        if (entrySize > capacity) {
            evictUntil(0);
            return;
        }
        evictUntil(capacity - entrySize);
        if (length == names.length) {
            grow();
        }
        int slot = oldest + length;
        if (slot >= names.length) {
            slot -= names.length;
        }
        names[slot] = name;
        values[slot] = value;
        length++;
        size += entrySize;
    }

    /** Empties the table: what adding an entry larger than the table does (§4.4). */
    void clear() {
        evictUntil(0);
    }

    private void evictUntil(int maxSize) {
        while (size > maxSize) {
            size -= entrySize(names[oldest], values[oldest]);
            names[oldest] = null;
            values[oldest] = null;
            oldest = oldest + 1 == names.length ? 0 : oldest + 1;
            length--;
        }
    }

    private void grow() {
        String[] newNames = new String[names.length * 2];
        String[] newValues = new String[names.length * 2];
        for (int i = 0; i < length; i++) {
            int from = (oldest + i) % names.length;
            newNames[i] = names[from];
            newValues[i] = values[from];
        }
        names = newNames;
        values = newValues;
        oldest = 0;
    }

    /**
     * The newest entry {@code name: value} as a positive index, else the newest entry named {@code name} as a
     * negative index, else 0. A linear scan: the table holds at most {@code capacity / 32} entries (128 at 4 KiB).
     */
    int find(String name, String value) {
        int nameMatch = 0;
        int hash = name.hashCode();
        for (int i = 1; i <= length; i++) {
            int slot = slot(i);
            String n = names[slot];
            if (n.hashCode() == hash && n.equals(name)) {
                if (values[slot].equals(value)) {
                    return i;
                }
                if (nameMatch == 0) {
                    nameMatch = -i;
                }
            }
        }
        return nameMatch;
    }
}
