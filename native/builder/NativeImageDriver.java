import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Fleche's {@code native-image} command: what GraalVM's driver does for a class-path build, for the builder that
 * {@code native/builder/make-builder.sh} assembles from Maven Central on a plain JDK 25 (GraalVM's driver is not
 * published there). It
 * <ol>
 *   <li>reads the command line ({@code @argfiles} included) the way {@code native-image} does, for the options
 *       listed in {@link #apiOption} (others end the build with a message naming them);</li>
 *   <li>walks every class-path entry's {@code META-INF/native-image/}: {@code native-image.properties}
 *       ({@code Args}, {@code JavaArgs}, {@code ImageName}) become options, each configuration file
 *       ({@code reachability-metadata.json}, {@code reflect-config.json}, ...) an {@code -H:...Resources=} option
 *       naming it — without this step no library's metadata would be read;</li>
 *   <li>starts the builder (module {@code org.graalvm.nativeimage.builder}) on the JDK with JVMCI enabled, our
 *       C libraries on its library path, and the image's run-time libraries ({@code lib/*.so}) found next to the
 *       executable;</li>
 *   <li>copies the shared libraries the executable needs from the builder's {@code lib/svm/runtime} into
 *       {@code lib/} beside it.</li>
 * </ol>
 * Every way it differs from GraalVM's driver is listed in native/README.md.
 */
public final class NativeImageDriver {
    private static final String GRAAL_VERSION = System.getProperty("fleche.graal.version", "25.0.4");
    private static final Set<String> BUILDER_MODULES_NATIVE_ACCESS = Set.of("org.graalvm.nativeimage.builder",
            "org.graalvm.nativeimage.pointsto", "org.graalvm.nativeimage.base", "org.graalvm.nativeimage.objectfile",
            "jdk.graal.compiler");
    /** META-INF/native-image file name -> the builder option that reads it from the class path. */
    private static final Map<String, String> CONFIG_FILES = Map.of(
            "reachability-metadata.json", "ReachabilityMetadataResources",
            "reflect-config.json", "ReflectionConfigurationResources",
            "resource-config.json", "ResourceConfigurationResources",
            "jni-config.json", "JNIConfigurationResources",
            "proxy-config.json", "DynamicProxyConfigurationResources",
            "serialization-config.json", "SerializationConfigurationResources",
            "serialization-deny-config.json", "SerializationDenyConfigurationResources",
            "predefined-classes-config.json", "PredefinedClassesConfigurationResources");

    private final Path home;
    private final List<String> builderArgs = new ArrayList<>();
    private final List<String> javaArgs = new ArrayList<>();
    private final LinkedHashSet<Path> classpath = new LinkedHashSet<>();
    private final List<Pattern[]> excludedConfigs = new ArrayList<>();
    private final Set<Path> visitedEntries = new java.util.HashSet<>();
    private String mainClass;
    private String imageName;
    private Path imageDir = Path.of("").toAbsolutePath();
    private boolean verbose;

    private NativeImageDriver(Path home) {
        this.home = home;
    }

    public static void main(String[] args) throws Exception {
        Path home = Path.of(System.getProperty("fleche.native.home")).toAbsolutePath();
        NativeImageDriver driver = new NativeImageDriver(home);
        try {
            System.exit(driver.run(args));
        } catch (DriverError e) {
            System.err.println("Error: " + e.getMessage());
            System.exit(2);
        }
    }

    /** A mistake in the command line or the class path's native-image files: the message is the user's answer. */
    static final class DriverError extends RuntimeException {
        DriverError(String message) {
            super(message);
        }
    }

    private int run(String[] rawArgs) throws IOException, InterruptedException {
        List<String> all = new ArrayList<>(expandArgFiles(List.of(rawArgs)));
        String fromEnvironment = System.getenv("NATIVE_IMAGE_OPTIONS"); // as GraalVM's driver: added after the rest
        if (fromEnvironment != null && !fromEnvironment.isBlank()) {
            System.out.println("Picked up NATIVE_IMAGE_OPTIONS: " + fromEnvironment);
            all.addAll(tokenize(fromEnvironment));
        }
        Deque<String> args = new ArrayDeque<>(all);
        if (args.contains("--version")) {
            System.out.println("native-image " + GRAAL_VERSION + " (Fleche's builder: GraalVM " + GRAAL_VERSION
                    + " from Maven Central on " + System.getProperty("java.vm.vendor") + " "
                    + System.getProperty("java.runtime.version") + ")");
            System.out.println("GraalVM Runtime Environment Fleche (build " + System.getProperty("java.runtime.version")
                    + ")");
            return 0;
        }
        consume(args, "command line");
        if (mainClass == null) {
            throw new DriverError("no main class given (native-image [options] MAIN-CLASS [IMAGE-NAME])");
        }
        if (imageName == null) {
            imageName = mainClass.substring(mainClass.lastIndexOf('.') + 1).toLowerCase(java.util.Locale.ROOT);
        }
        for (Path entry : List.copyOf(classpath)) {
            walkMetaInf(entry);
        }
        List<String> command = builderCommand();
        if (verbose) {
            System.out.println("Executing [\n" + String.join(" \\\n", command) + "\n]");
        }
        ProcessBuilder process = new ProcessBuilder(command).inheritIO();
        // Graal 25.0.4's compiler expects a JDK 25.0.4 with JVMCI labels; Temurin's JVMCI works for the builder.
        process.environment().put("JVMCI_VERSION_CHECK", "ignore");
        int exit = process.start().waitFor();
        if (exit == 0) {
            copyRuntimeLibraries(imageDir.resolve(imageName));
        }
        return exit;
    }

    // ---------------------------------------------------------------- command line

    private void consume(Deque<String> args, String origin) {
        while (!args.isEmpty()) {
            String arg = args.poll();
            if (arg.equals("-cp") || arg.equals("-classpath") || arg.equals("--class-path")) {
                for (String entry : next(args, arg).split(File.pathSeparator)) {
                    if (!entry.isEmpty()) {
                        classpath.add(Path.of(entry).toAbsolutePath().normalize());
                    }
                }
            } else if (arg.equals("-o")) {
                Path output = Path.of(next(args, arg)).toAbsolutePath();
                imageDir = output.getParent();
                imageName = output.getFileName().toString();
            } else if (arg.startsWith("-J")) {
                javaArgs.add(arg.substring(2));
            } else if (arg.startsWith("-D")) {
                javaArgs.add(arg);
            } else if (arg.startsWith("-H:Name=")) {
                imageName = arg.substring("-H:Name=".length());
            } else if (arg.startsWith("-H:Path=")) {
                imageDir = Path.of(arg.substring("-H:Path=".length())).toAbsolutePath();
            } else if (arg.startsWith("-H:Class=")) {
                mainClass = arg.substring("-H:Class=".length());
            } else if (arg.startsWith("-H:") || arg.startsWith("-R:")) {
                builderArgs.add(arg);
            } else if (arg.equals("--verbose")) {
                verbose = true;
            } else if (arg.equals("--exclude-config")) {
                excludedConfigs.add(new Pattern[] {Pattern.compile(next(args, arg)), Pattern.compile(next(args, arg))});
            } else if (arg.startsWith("-E") || arg.equals("--no-server")) {
                // environment passed to the builder: ours inherits the environment
            } else if (arg.startsWith("-")) {
                apiOption(arg, args, origin);
            } else if (mainClass == null) {
                mainClass = arg;
            } else if (imageName == null) {
                imageName = arg;
            } else {
                throw new DriverError("unexpected argument '" + arg + "' (" + origin + ")");
            }
        }
    }

    /** The {@code native-image} options this driver knows, each turned into the builder's option. */
    private void apiOption(String arg, Deque<String> args, String origin) {
        int eq = arg.indexOf('=');
        String name = eq < 0 ? arg : arg.substring(0, eq);
        String value = eq < 0 ? null : arg.substring(eq + 1);
        switch (name) {
            case "--no-fallback" -> builderArgs.add("-H:FallbackThreshold=0");
            case "--features" -> builderArgs.add("-H:Features=" + require(value, arg));
            case "--initialize-at-build-time" -> builderArgs.add("-H:ClassInitialization="
                    + suffixEach(value == null ? "" : value, ":build_time"));
            case "--initialize-at-run-time" -> builderArgs.add("-H:ClassInitialization="
                    + suffixEach(require(value, arg), ":run_time"));
            case "--enable-url-protocols" -> builderArgs.add("-H:EnableURLProtocols=" + require(value, arg));
            case "--enable-http" -> builderArgs.add("-H:EnableURLProtocols=http");
            case "--enable-https" -> builderArgs.add("-H:EnableURLProtocols=https");
            case "--link-at-build-time" -> builderArgs.add("-H:LinkAtBuildTime=" + (value == null ? "" : value));
            case "--exact-reachability-metadata" ->
                    builderArgs.add("-H:ThrowMissingRegistrationErrors=" + (value == null ? "" : value));
            case "--enable-monitoring" ->
                    builderArgs.add("-H:EnableMonitoringFeatures=" + (value == null ? "all" : value));
            case "--enable-all-security-services" -> builderArgs.add("-H:+EnableAllSecurityServices");
            case "--gc" -> builderArgs.add("-H:SupportedGCs=" + require(value, arg));
            case "--parallelism" -> builderArgs.add("-H:NumberOfThreads=" + require(value, arg));
            case "--native-image-info" -> builderArgs.add("-H:+DumpTargetInfo");
            case "--silent" -> builderArgs.add("-H:+BuildOutputSilent");
            case "--color" -> builderArgs.add("-H:Color=" + (value == null ? "always" : value));
            case "--trace-object-instantiation" -> builderArgs.add("-H:TraceObjectInstantiation=" + require(value, arg));
            case "--add-exports", "--add-opens", "--add-reads", "--enable-native-access" -> {
                String option = switch (name) {
                    case "--add-exports" -> "AddExports";
                    case "--add-opens" -> "AddOpens";
                    case "--add-reads" -> "AddReads";
                    default -> "EnableNativeAccess";
                };
                builderArgs.add("-H:" + option + "=" + (value != null ? value : next(args, arg)));
            }
            case "--report-unsupported-elements-at-runtime", "--allow-incomplete-classpath", "--strict-image-heap",
                 "--install-exit-handlers", "--configure-reflection-metadata" ->
                    System.err.println("Warning: " + name + " (" + origin + ") is deprecated and has no effect");
            default -> {
                if (arg.startsWith("-march=")) {
                    builderArgs.add("-H:Microarchitecture=" + arg.substring("-march=".length()));
                } else if (arg.startsWith("-O") && arg.length() == 3) {
                    builderArgs.add("-H:Optimize=" + arg.substring(2));
                } else {
                    // --static, --shared, --module-path, -jar, --pgo, --bundle-*: not supported by this driver
                    throw new DriverError("option " + arg + " (" + origin + ") is not supported by Fleche's "
                            + "native-image driver (native/README.md lists what is)");
                }
            }
        }
    }

    private static String suffixEach(String list, String suffix) {
        if (list.isEmpty()) {
            return suffix;
        }
        return Stream.of(list.split(",")).map(s -> s + suffix).collect(Collectors.joining(","));
    }

    private static String require(String value, String arg) {
        if (value == null || value.isEmpty()) {
            throw new DriverError(arg + " needs a value (" + arg + "=...)");
        }
        return value;
    }

    private static String next(Deque<String> args, String option) {
        String value = args.poll();
        if (value == null) {
            throw new DriverError(option + " needs a value");
        }
        return value;
    }

    /** Replaces each {@code @file} by the arguments in it (whitespace-separated, quotes group, as the java launcher). */
    static List<String> expandArgFiles(List<String> args) throws IOException {
        List<String> out = new ArrayList<>();
        for (String arg : args) {
            if (arg.startsWith("@") && !arg.startsWith("@@")) {
                out.addAll(expandArgFiles(tokenize(Files.readString(Path.of(arg.substring(1))))));
            } else {
                out.add(arg.startsWith("@@") ? arg.substring(1) : arg);
            }
        }
        return out;
    }

    static List<String> tokenize(String text) {
        List<String> tokens = new ArrayList<>();
        StringBuilder token = null;
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\\' && i + 1 < text.length()) {
                    token.append(text.charAt(++i));
                } else {
                    token.append(c);
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
                token = token == null ? new StringBuilder() : token;
            } else if (Character.isWhitespace(c)) {
                if (token != null) {
                    tokens.add(token.toString());
                    token = null;
                }
            } else if (c == '#' && token == null) {
                while (i < text.length() && text.charAt(i) != '\n') {
                    i++;
                }
            } else {
                token = token == null ? new StringBuilder() : token;
                token.append(c);
            }
        }
        if (token != null) {
            tokens.add(token.toString());
        }
        return tokens;
    }

    // ---------------------------------------------------------------- META-INF/native-image of the class path

    private void walkMetaInf(Path entry) throws IOException {
        if (!visitedEntries.add(entry)) {
            return;
        }
        if (Files.isDirectory(entry)) {
            walkMetaInf(entry, entry.resolve("META-INF/native-image"));
        } else if (Files.isRegularFile(entry) && entry.toString().endsWith(".jar")) {
            try (FileSystem jar = FileSystems.newFileSystem(entry)) {
                walkMetaInf(entry, jar.getPath("/META-INF/native-image"));
            }
        }
    }

    private void walkMetaInf(Path entry, Path base) throws IOException {
        if (!Files.isDirectory(base)) {
            return;
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(base)) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        for (Path file : files) {
            String name = file.getFileName().toString();
            String relative = base.getParent().getParent().relativize(file).toString();
            if (excluded(entry, relative)) {
                continue;
            }
            if (name.equals("native-image.properties")) {
                properties(entry, file, relative);
            } else if (CONFIG_FILES.containsKey(name)) {
                builderArgs.add("-H:" + CONFIG_FILES.get(name) + "=" + relative);
            }
        }
    }

    private boolean excluded(Path entry, String resource) {
        for (Pattern[] exclusion : excludedConfigs) {
            if (exclusion[0].matcher(entry.toString()).find() && exclusion[1].matcher(resource).find()) {
                return true;
            }
        }
        return false;
    }

    private void properties(Path entry, Path file, String relative) throws IOException {
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            properties.load(in);
        }
        String origin = entry + "!/" + relative;
        String directory = relative.substring(0, relative.lastIndexOf('/'));
        for (String key : properties.stringPropertyNames()) {
            String value = properties.getProperty(key).replace("${.}", directory);
            switch (key) {
                case "Args" -> consume(new ArrayDeque<>(tokenize(value)), origin);
                case "JavaArgs" -> javaArgs.addAll(tokenize(value));
                case "ImageName" -> {
                    if (imageName == null) {
                        imageName = value.trim();
                    }
                }
                default -> throw new DriverError("unknown key " + key + " in " + origin);
            }
        }
    }

    // ---------------------------------------------------------------- the builder

    private List<String> builderCommand() {
        Path builderJars = home.resolve("lib/svm/builder");
        List<Path> jars;
        try (Stream<Path> list = Files.list(builderJars)) {
            jars = list.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
        } catch (IOException e) {
            throw new DriverError("cannot list the builder's jars in " + builderJars + ": " + e.getMessage());
        }
        List<Path> compiler = jars.stream().filter(p -> p.getFileName().toString().startsWith("compiler-")).toList();
        List<Path> modules = jars.stream().filter(p -> !compiler.contains(p)).toList();
        List<String> command = new ArrayList<>();
        command.add(home.resolve("bin/java").toString());
        command.addAll(List.of("-XX:+UnlockExperimentalVMOptions", "-XX:+EnableJVMCI", "-XX:-UseJVMCICompiler",
                "-XX:+UseParallelGC", "-Xss10m", "-Xshare:off", "-Djava.awt.headless=true",
                "-Djdk.internal.lambda.disableEagerInitialization=true",
                "-Dorg.graalvm.nativeimage.imagecode=buildtime",
                "-Djava.system.class.loader=com.oracle.svm.hosted.NativeImageSystemClassLoader",
                "-Dcom.oracle.graalvm.isaot=true", "-Dorg.graalvm.version=" + GRAAL_VERSION,
                "-Dorg.graalvm.vendor=Fleche (GraalVM " + GRAAL_VERSION + " from Maven Central)",
                "--illegal-native-access=allow",
                // The builder folds "is native access enabled" for the image from its own modules' state: without
                // this, System.loadLibrary in the image takes the JDK's warning path before its encoding is set.
                "--enable-native-access=ALL-UNNAMED," + String.join(",", new TreeSet<>(BUILDER_MODULES_NATIVE_ACCESS))));
        if (javaArgs.stream().noneMatch(a -> a.startsWith("-Xmx") || a.startsWith("-XX:MaxRAMPercentage"))) {
            command.add("-XX:MaxRAMPercentage=80");
        }
        command.addAll(javaArgs);
        command.addAll(exports(modules, compiler));
        command.add("--upgrade-module-path");
        command.add(join(compiler));
        command.add("--module-path");
        command.add(join(modules));
        command.addAll(List.of("--add-modules", "ALL-DEFAULT", "--module",
                "org.graalvm.nativeimage.builder/com.oracle.svm.hosted.NativeImageGeneratorRunner"));
        command.add("-imagecp");
        command.add(join(List.copyOf(classpath)));
        command.add("-H:Path=" + imageDir);
        command.add("-H:Name=" + imageName);
        command.add("-H:Class=" + mainClass);
        command.add("-H:ImageBuildID=" + UUID.randomUUID());
        Path clibraries = home.resolve("lib/svm/clibraries/linux-amd64/glibc");
        Path runtime = home.resolve("lib/svm/runtime");
        command.add("-H:CLibraryPath=" + clibraries);
        // The image finds the JDK's shared libraries in lib/ next to it (RPATH, which dlopen honours too).
        command.add("-H:NativeLinkerOption=-Wl,--disable-new-dtags");
        command.add("-H:NativeLinkerOption=-Wl,-rpath,$ORIGIN/lib");
        command.add("-H:NativeLinkerOption=-L" + runtime);
        command.add("-H:NativeLinkerOption=-Wl,-rpath-link," + runtime);
        command.addAll(builderArgs);
        return command;
    }

    /**
     * Every package the JDK's modules do not export to all, exported to the builder's modules and the class path
     * (GraalVM's driver passes a fixed list of the same kind; the JVM takes at most 1,000, so the development
     * tools' modules, which the builder never touches, are left out). The builder's own modules are not listed:
     * their descriptors export to each other what they share.
     */
    private static List<String> exports(List<Path> modules, List<Path> compiler) {
        List<Path> all = new ArrayList<>(modules);
        all.addAll(compiler);
        Set<String> builderModules = ModuleFinder.of(all.toArray(Path[]::new)).findAll().stream()
                .map(r -> r.descriptor().name()).collect(Collectors.toCollection(TreeSet::new));
        String targets = "ALL-UNNAMED," + String.join(",", builderModules);
        Set<String> tools = Set.of("jdk.hotspot.agent", "jdk.compiler", "jdk.javadoc", "jdk.jshell", "jdk.jlink",
                "jdk.jpackage", "jdk.jdeps", "jdk.internal.le", "jdk.internal.ed", "jdk.internal.md", "jdk.editpad",
                "jdk.jconsole", "jdk.jartool", "jdk.jstatd", "jdk.jdi", "jdk.jdwp.agent", "jdk.internal.opt");
        List<String> args = new ArrayList<>();
        // The JDK modules the builder's JVM resolves: the default ones (this driver's own boot layer) and those
        // the builder's modules require (jdk.internal.vm.ci, ...), so that no export names an unresolved module.
        java.util.Map<String, ModuleDescriptor> resolved = new java.util.TreeMap<>();
        for (Module module : ModuleLayer.boot().modules()) {
            resolved.put(module.getName(), module.getDescriptor());
        }
        java.lang.module.Configuration builder = ModuleLayer.boot().configuration().resolve(
                ModuleFinder.of(all.toArray(Path[]::new)), ModuleFinder.ofSystem(), builderModules);
        for (java.lang.module.ResolvedModule module : builder.modules()) {
            resolved.put(module.name(), module.reference().descriptor());
        }
        List<ModuleDescriptor> system = new ArrayList<>(resolved.values());
        system.sort(java.util.Comparator.comparing(ModuleDescriptor::name));
        for (ModuleDescriptor descriptor : system) {
            if (builderModules.contains(descriptor.name()) || tools.contains(descriptor.name())) {
                continue;
            }
            Set<String> exported = descriptor.exports().stream().filter(e -> !e.isQualified())
                    .map(ModuleDescriptor.Exports::source).collect(Collectors.toSet());
            for (String pkg : new TreeSet<>(descriptor.packages())) {
                if (!exported.contains(pkg)) {
                    args.add("--add-exports=" + descriptor.name() + "/" + pkg + "=" + targets);
                }
            }
        }
        return args;
    }

    private static String join(List<Path> paths) {
        return paths.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
    }

    // ---------------------------------------------------------------- the image's shared libraries

    /**
     * Copies into {@code lib/} beside the executable each shared library it needs (directly or through another)
     * that the builder's {@code lib/svm/runtime} holds: the JDK's libraries and the stub libjvm.so. The system's
     * (glibc, zlib) stay the system's.
     */
    private void copyRuntimeLibraries(Path executable) throws IOException, InterruptedException {
        Path runtime = home.resolve("lib/svm/runtime");
        Path lib = executable.resolveSibling("lib");
        Deque<Path> pending = new ArrayDeque<>(List.of(executable));
        Set<String> copied = new TreeSet<>();
        while (!pending.isEmpty()) {
            for (String needed : needed(pending.poll())) {
                Path source = runtime.resolve(needed);
                if (Files.isRegularFile(source) && copied.add(needed)) {
                    Files.createDirectories(lib);
                    Files.copy(source, lib.resolve(needed), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    pending.add(source);
                }
            }
        }
        if (!copied.isEmpty()) {
            System.out.println("Copied the image's shared libraries to " + lib + ": " + String.join(" ", copied));
        }
    }

    private static List<String> needed(Path elf) throws IOException, InterruptedException {
        Process readelf = new ProcessBuilder("readelf", "-d", elf.toString()).redirectErrorStream(true).start();
        String output = new String(readelf.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (readelf.waitFor() != 0) {
            throw new DriverError("readelf -d " + elf + " failed: " + output);
        }
        List<String> needed = new ArrayList<>();
        for (String line : output.split("\n")) {
            int open = line.indexOf("(NEEDED)");
            if (open >= 0) {
                needed.add(line.substring(line.indexOf('[') + 1, line.indexOf(']')));
            }
        }
        return needed;
    }
}
