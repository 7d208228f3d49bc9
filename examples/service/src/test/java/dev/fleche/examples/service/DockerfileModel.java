package dev.fleche.examples.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Dockerfile read into its stages and instructions: comments dropped, continuation lines joined, each
 * instruction split into keyword, flags ({@code --from=build}) and arguments; the exec form of
 * {@code ENTRYPOINT}/{@code CMD} parsed as the JSON array it is; the {@code ARG}s before the first {@code FROM}
 * kept with their defaults and expanded in {@code FROM}. Enough of the format for ManifestsTest.
 */
record DockerfileModel(Map<String, String> globalArgs, List<Stage> stages) {
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

    private static final Pattern VARIABLE = Pattern.compile("\\$\\{(\\w+)}|\\$(\\w+)");

    static DockerfileModel read(Path file) throws IOException {
        Map<String, String> globalArgs = new LinkedHashMap<>();
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
                stages.add(new Stage(expand(args.get(0), globalArgs), name, new ArrayList<>()));
            } else if (stages.isEmpty() && instruction.keyword().equals("ARG")) {
                String[] pair = instruction.args().get(0).split("=", 2);
                globalArgs.put(pair[0], pair.length > 1 ? pair[1] : "");
            } else if (stages.isEmpty()) {
                throw new AssertionError("instruction before FROM: " + instruction.raw());
            } else {
                stages.get(stages.size() - 1).instructions().add(instruction);
            }
        }
        return new DockerfileModel(globalArgs, stages);
    }

    /** {@code text} with {@code ${NAME}} and {@code $NAME} replaced by the ARG defaults declared before FROM. */
    private static String expand(String text, Map<String, String> args) {
        Matcher variable = VARIABLE.matcher(text);
        StringBuilder expanded = new StringBuilder();
        while (variable.find()) {
            String name = variable.group(1) != null ? variable.group(1) : variable.group(2);
            String value = args.get(name);
            if (value == null) {
                throw new AssertionError("FROM uses " + name + ", which no ARG before the first FROM declares");
            }
            variable.appendReplacement(expanded, Matcher.quoteReplacement(value));
        }
        return variable.appendTail(expanded).toString();
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
