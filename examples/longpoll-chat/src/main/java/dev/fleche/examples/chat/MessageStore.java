package dev.fleche.examples.chat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The rooms' messages in memory: the last {@value #KEPT_PER_ROOM} of each room, at most {@value #MAX_ROOMS} rooms.
 * Thread-safe; every operation is short (a lock, no I/O).
 */
final class MessageStore {
    static final int KEPT_PER_ROOM = 1_000;
    static final int MAX_ROOMS = 10_000;

    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, Room> rooms = new HashMap<>();

    private static final class Room {
        final ArrayDeque<Message> recent = new ArrayDeque<>();
        long lastId;
    }

    /** Adds {@code text} to {@code room}; returns the stored message. */
    Message append(String room, String text) {
        lock.lock();
        try {
            Room r = rooms.get(room);
            if (r == null) {
                if (rooms.size() >= MAX_ROOMS) {
                    throw new IllegalStateException("too many rooms");
                }
                r = new Room();
                rooms.put(room, r);
            }
            Message message = new Message(++r.lastId, text);
            r.recent.addLast(message);
            if (r.recent.size() > KEPT_PER_ROOM) {
                r.recent.removeFirst();
            }
            return message;
        } finally {
            lock.unlock();
        }
    }

    /** The messages of {@code room} with an id above {@code after}, oldest first; null when there are none. */
    List<Message> after(String room, long after) {
        lock.lock();
        try {
            Room r = rooms.get(room);
            if (r == null || r.lastId <= after) {
                return null;
            }
            List<Message> newer = new ArrayList<>();
            for (Message message : r.recent) {
                if (message.id() > after) {
                    newer.add(message);
                }
            }
            return newer;
        } finally {
            lock.unlock();
        }
    }
}
