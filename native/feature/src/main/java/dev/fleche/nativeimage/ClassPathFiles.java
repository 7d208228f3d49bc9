package dev.fleche.nativeimage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/** The files of a class-path entry (a directory or a jar), as resource names ({@code a/b/C.class}). */
final class ClassPathFiles {
    private ClassPathFiles() {
    }

    static List<String> names(Path entry) {
        List<String> names = new ArrayList<>();
        if (Files.isDirectory(entry)) {
            try (Stream<Path> walk = Files.walk(entry)) {
                walk.filter(Files::isRegularFile).map(p -> entry.relativize(p).toString().replace('\\', '/'))
                        .forEach(names::add);
            } catch (IOException e) {
                throw new IllegalStateException("cannot list " + entry, e);
            }
        } else if (Files.isRegularFile(entry) && entry.toString().endsWith(".jar")) {
            try (ZipFile jar = new ZipFile(entry.toFile())) {
                Enumeration<? extends ZipEntry> entries = jar.entries();
                while (entries.hasMoreElements()) {
                    ZipEntry file = entries.nextElement();
                    if (!file.isDirectory()) {
                        names.add(file.getName());
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException("cannot read " + entry, e);
            }
        }
        return names;
    }
}
