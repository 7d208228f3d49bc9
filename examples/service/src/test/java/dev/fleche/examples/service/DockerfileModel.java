package dev.fleche.examples.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A Dockerfile read into its stages and instructions: comments dropped, continuation lines joined, each
 * instruction split into keyword, flags ({@code --from=build}) and arguments; the exec form of
 * {@code ENTRYPOINT}/{@code CMD} parsed as the JSON array it is. Enough of the format for ManifestsTest.
 */
record DockerfileModel(List<Stage> stages) {
    record Instruction(String keyword, List<String> flags, List<String> args, String raw) {
        /** The value of flag {@code --name=value}, or null. */
        String flag(String name) {
            for (String flag : flags) {
                if (flag.startsWith("--" + name + "=")) {
                    return flag.substring(name.length() + 3);
                }
            }
            return null;
        }
    }

    record Stage(String image, String name, List<Instruction> instructions) {
        List<Instruction> all(String keyword) {
            return instructions.stream().filter(i -> i.keyword().equals(keyword)).toList();
        }

        Instruction last(String keyword) {
            List<Instruction> found = all(keyword);
            if (found.isEmpty()) {
                throw new AssertionError("stage " + name + " has no " + keyword);
            }
            return found.get(found.size() - 1);
        }
    }

    static DockerfileModel read(Path file) throws IOException {
        List<Stage> stages = new ArrayList<>();
        StringBuilder pending = new StringBuilder();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String trimmed = line.strip();
            if (pending.length() == 0 && (trimmed.isEmpty() || trimmed.startsWith("#"))) {
                continue;
            }
            if (trimmed.endsWith("\\")) {
                pending.append(trimmed, 0, trimmed.length() - 1).append(' ');
                continue;
            }
            pending.append(trimmed);
            Instruction instruction = parse(pending.toString());
            pending.setLength(0);
            if (instruction.keyword().equals("FROM")) {
                List<String> args = instruction.args();
                String name = args.size() == 3 && args.get(1).equalsIgnoreCase("AS") ? args.get(2) : null;
                stages.add(new Stage(args.get(0), name, new ArrayList<>()));
            } else if (stages.isEmpty()) {
                throw new AssertionError("instruction before FROM: " + instruction.raw());
            } else {
                stages.get(stages.size() - 1).instructions().add(instruction);
            }
        }
        return new DockerfileModel(stages);
    }

    private static Instruction parse(String text) {
        String[] words = text.split("\\s+", 2);
        String keyword = words[0].toUpperCase(Locale.ROOT);
        String rest = words.length > 1 ? words[1].strip() : "";
        List<String> flags = new ArrayList<>();
        while (rest.startsWith("--")) {
            String[] split = rest.split("\\s+", 2);
            flags.add(split[0]);
            rest = split.length > 1 ? split[1].strip() : "";
        }
        List<String> args = new ArrayList<>();
        if (rest.startsWith("[")) {
            try {
                for (JsonNode element : new ObjectMapper().readTree(rest)) {
                    args.add(element.asText());
                }
            } catch (IOException e) {
                throw new AssertionError("not a JSON array: " + text, e);
            }
        } else if (!rest.isEmpty()) {
            args.addAll(List.of(rest.split("\\s+")));
        }
        return new Instruction(keyword, flags, args, text);
    }

    Stage stage(String name) {
        return stages.stream().filter(s -> name.equals(s.name())).findFirst()
                .orElseThrow(() -> new AssertionError("no stage " + name));
    }

    Stage last() {
        return stages.get(stages.size() - 1);
    }
}
