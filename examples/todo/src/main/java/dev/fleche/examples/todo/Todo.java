package dev.fleche.examples.todo;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Null;
import jakarta.validation.constraints.Size;
import jakarta.validation.groups.Default;

/** A to-do item as it travels in JSON. The server assigns {@code id}; clients must not send one on create. */
public class Todo {
    /** Validation group of creation (see {@code TodoResource#create}). */
    public interface OnCreate extends Default {
    }

    @Null(groups = OnCreate.class, message = "is assigned by the server")
    public Long id;
    @NotBlank
    @Size(max = 200)
    public String title;
    @Size(max = 2000)
    public String notes;
    public boolean done;
    /** 1 (highest) to 5; null for none. */
    @Min(1)
    @Max(5)
    public Integer priority;

    public Todo() {
    }

    Todo(Long id, String title, String notes, boolean done, Integer priority) {
        this.id = id;
        this.title = title;
        this.notes = notes;
        this.done = done;
        this.priority = priority;
    }
}
