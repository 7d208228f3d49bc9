package dev.fleche.examples.chat;

/**
 * One chat message.
 *
 * @param id   its number in the room, from 1 up
 * @param text what was said
 */
public record Message(long id, String text) {
}
