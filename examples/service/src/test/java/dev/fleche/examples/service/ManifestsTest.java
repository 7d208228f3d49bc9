package dev.fleche.examples.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.fleche.jersey.Health;
import dev.fleche.transport.AccessLog;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No Docker engine or cluster runs here, so the shipping files are checked against each other and against the
 * image layout by parsing them: the Dockerfile (stages, COPY --from, ENTRYPOINT as JSON), the Kubernetes manifests
 * (YAML, every document), the pom (the launcher's name and the image script's arguments) and the service's own
 * defaults ({@link Health}, {@link ServiceConfig}).
 */
@Timeout(30)
class ManifestsTest {
    static final Path MODULE = Path.of("").toAbsolutePath();
    static DockerfileModel docker;
    static Map<String, JsonNode> kube;
    static Map<String, JsonNode> postgres;
    static String serviceName;
    static List<String> imageScriptArgs;

    @BeforeAll
    static void read() throws Exception {
        docker = DockerfileModel.read(MODULE.resolve("Dockerfile"));
        kube = documents("deploy/k8s/todo-service.yaml");
        postgres = documents("deploy/k8s/postgres.yaml");
        Document pom = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(MODULE.resolve("pom.xml").toFile());
        serviceName = text(pom.getDocumentElement(), "properties", "service.name");
        imageScriptArgs = new ArrayList<>();
        NodeList executions = pom.getElementsByTagName("execution");
        for (int i = 0; i < executions.getLength(); i++) {
            Element execution = (Element) executions.item(i);
            if ("build-image".equals(text(execution, "id"))) {
                NodeList args = execution.getElementsByTagName("argument");
                for (int j = 0; j < args.getLength(); j++) {
                    imageScriptArgs.add(args.item(j).getTextContent().strip());
                }
            }
        }
    }

    /** The documents of a manifest by kind (one per kind). */
    private static Map<String, JsonNode> documents(String file) throws java.io.IOException {
        Map<String, JsonNode> byKind = new HashMap<>();
        try (MappingIterator<JsonNode> documents = new YAMLMapper()
                .readerFor(JsonNode.class).readValues(MODULE.resolve(file).toFile())) {
            while (documents.hasNext()) {
                JsonNode document = documents.next();
                assertNull(byKind.put(document.path("kind").asText(), document), "one document per kind: " + file);
            }
        }
        return byKind;
    }

    private static void assertNull(Object value, String message) {
        assertTrue(value == null, message);
    }

    private static String text(Element parent, String... path) {
        Element current = parent;
        for (String name : path) {
            Element next = null;
            for (org.w3c.dom.Node child = current.getFirstChild(); child != null; child = child.getNextSibling()) {
                if (child instanceof Element && ((Element) child).getTagName().equals(name)) {
                    next = (Element) child;
                    break;
                }
            }
            assertNotNull(next, "no <" + name + "> under <" + current.getTagName() + ">");
            current = next;
        }
        return current.getTextContent().strip();
    }

    private static JsonNode container() {
        JsonNode containers = kube.get("Deployment").at("/spec/template/spec/containers");
        assertEquals(1, containers.size());
        return containers.get(0);
    }

    private static Map<String, String> containerEnv() {
        Map<String, String> env = new HashMap<>();
        for (JsonNode variable : container().path("env")) {
            if (variable.has("value")) { // valueFrom (a Secret): not known here
                env.put(variable.path("name").asText(), variable.path("value").asText());
            }
        }
        return env;
    }

    /** {@code ENV A=1 B=2} of the final stage. */
    private static Map<String, String> dockerEnv() {
        Map<String, String> env = new HashMap<>();
        for (DockerfileModel.Instruction instruction : docker.last().all("ENV")) {
            for (String pair : instruction.args()) {
                String[] split = pair.split("=", 2);
                env.put(split[0], split[1]);
            }
        }
        return env;
    }

    @Test
    void theImageScriptWritesTheLauncherTheEntrypointStarts() throws Exception {
        assertEquals("todo-service", serviceName);
        assertEquals("${project.basedir}/src/image/build-image.sh", imageScriptArgs.get(0));
        assertEquals("${service.name}", imageScriptArgs.get(1), "the script's NAME is the launcher's name");
        assertEquals("${project.build.directory}/image", imageScriptArgs.get(4), "the image directory");
        String script = Files.readString(MODULE.resolve("src/image/build-image.sh"), StandardCharsets.UTF_8);
        assertTrue(script.contains("NAME=$1 APP_JAR=$2 DEPS=$3 OUT=$4"), "the script's argument order");
        assertTrue(script.contains("cat > \"$OUT/bin/$NAME\""), "the script writes bin/NAME");

        DockerfileModel.Stage build = docker.stage("build");
        String workdir = build.last("WORKDIR").args().get(0);
        DockerfileModel.Instruction run = build.last("RUN");
        assertTrue(run.raw().contains("-Pimage") && run.raw().contains("-pl examples/service"), run.raw());

        DockerfileModel.Stage runtime = docker.last();
        List<DockerfileModel.Instruction> copies = runtime.all("COPY");
        List<String> parts = List.of("runtime", "app", "bin", "lib");
        assertEquals(parts.size(), copies.size(), "the image directory, one layer per part, nothing else");
        String installed = null;
        for (int i = 0; i < parts.size(); i++) {
            DockerfileModel.Instruction copy = copies.get(i);
            assertEquals("build", copy.flag("from"));
            assertEquals(workdir + "/examples/service/target/image/" + parts.get(i), copy.args().get(0));
            String target = copy.args().get(1);
            assertTrue(target.endsWith("/" + parts.get(i)), target);
            String directory = target.substring(0, target.length() - parts.get(i).length() - 1);
            assertTrue(installed == null || installed.equals(directory), "one directory: " + target);
            installed = directory;
        }
        List<String> entrypoint = runtime.last("ENTRYPOINT").args();
        assertEquals(List.of(installed + "/bin/" + serviceName), entrypoint, "exec form, the launcher alone");
    }

    @Test
    void theDockerfileBuildsOnTheBasesMadeHereAndSendsNoBuildOutput() throws Exception {
        String script = Files.readString(MODULE.resolve("src/image/base/make-bases.sh"), StandardCharsets.UTF_8);
        assertTrue(script.contains("BUILD_IMAGE=" + docker.stage("build").image() + "\n"),
                "the build stage's base is the one make-bases.sh makes: " + docker.stage("build").image());
        assertTrue(script.contains("RUNTIME_IMAGE=" + docker.last().image() + "\n"),
                "the runtime stage's base is the one make-bases.sh makes: " + docker.last().image());
        List<String> ignored = Files.readAllLines(MODULE.resolve("../../.dockerignore"), StandardCharsets.UTF_8);
        assertTrue(ignored.contains("**/target") && ignored.contains(".git"),
                "the build context leaves out every target/ and .git: " + ignored);
    }

    @Test
    void theRuntimeStageIsSlimNonRootAndDrainsOnSigterm() {
        DockerfileModel.Stage runtime = docker.last();
        assertFalse(runtime.image().contains("jdk") || runtime.image().contains("maven"),
                "no JDK in the runtime stage: " + runtime.image());
        String user = runtime.last("USER").args().get(0).split(":")[0];
        assertFalse(user.equals("0") || user.equals("root"), "non-root user");
        assertEquals(List.of("SIGTERM"), runtime.last("STOPSIGNAL").args());
        Map<String, String> env = dockerEnv();
        assertEquals(runtime.last("EXPOSE").args(), List.of(env.get("PORT")));
        ServiceConfig config = ServiceConfig.from(new String[0], env);
        assertEquals(Integer.parseInt(env.get("PORT")), config.port(), "the service reads PORT");
    }

    @Test
    void probesAskTheHealthPathsOnTheServedPort() {
        Health defaults = Health.builder().build();
        JsonNode container = container();
        JsonNode port = container.path("ports").get(0);
        int containerPort = port.path("containerPort").asInt();
        String portName = port.path("name").asText();
        assertEquals(Integer.parseInt(containerEnv().get("PORT")), containerPort, "PORT is the container port");
        assertEquals(dockerEnv().get("PORT"), Integer.toString(containerPort), "the Dockerfile's PORT");

        // Start-up on liveness: a database down at start keeps the pod unready, never restarts it.
        Map<String, String> expected = Map.of("startupProbe", defaults.livePath(),
                "readinessProbe", defaults.readyPath(), "livenessProbe", defaults.livePath());
        for (Map.Entry<String, String> probe : expected.entrySet()) {
            JsonNode get = container.path(probe.getKey()).path("httpGet");
            assertEquals("/" + probe.getValue(), get.path("path").asText(), probe.getKey());
            JsonNode probePort = get.path("port");
            assertTrue(probePort.isInt() ? probePort.asInt() == containerPort : probePort.asText().equals(portName),
                    probe.getKey() + " port " + probePort);
        }
        JsonNode limits = container.at("/resources/limits");
        JsonNode requests = container.at("/resources/requests");
        assertFalse(limits.path("memory").asText().isEmpty() || requests.path("memory").asText().isEmpty());
        assertFalse(requests.path("cpu").asText().isEmpty());
    }

    @Test
    void theDeploymentLogsJsonToStandardOutputAndIsScrapedAtMetrics() {
        AccessLog log = ServiceConfig.from(new String[0], containerEnv()).accessLog();
        assertEquals(AccessLog.Format.JSON, log.format(), "FLECHE_ACCESS_LOG");
        assertEquals(null, log.file(), "to standard output, not a file (the root file system is read-only)");
        JsonNode annotations = kube.get("Deployment").at("/spec/template/metadata/annotations");
        assertEquals("/metrics", annotations.path("prometheus.io/path").asText());
        assertEquals(container().path("ports").get(0).path("containerPort").asText(),
                annotations.path("prometheus.io/port").asText());
    }

    @Test
    void terminationGraceOutlastsTheDrain() {
        ServiceConfig config = ServiceConfig.from(new String[0], containerEnv());
        long drainSeconds = config.drain().total().toSeconds();
        long grace = kube.get("Deployment").at("/spec/template/spec/terminationGracePeriodSeconds").asLong();
        assertTrue(grace > drainSeconds, "terminationGracePeriodSeconds " + grace + " <= delay + grace " + drainSeconds);
        assertEquals(ServiceConfig.from(new String[0], dockerEnv()).drain(), config.drain(),
                "the Dockerfile and the Deployment give the same drain");
    }

    @Test
    void theServiceAndTheAutoscalerPointAtTheDeployment() {
        JsonNode deployment = kube.get("Deployment");
        String name = deployment.at("/metadata/name").asText();
        JsonNode labels = deployment.at("/spec/template/metadata/labels");
        assertEquals(deployment.at("/spec/selector/matchLabels"), labels);

        JsonNode service = kube.get("Service");
        assertEquals(labels, service.at("/spec/selector"), "the Service selects the pods");
        JsonNode target = service.at("/spec/ports/0/targetPort");
        JsonNode port = container().path("ports").get(0);
        assertTrue(target.isInt() ? target.asInt() == port.path("containerPort").asInt()
                : target.asText().equals(port.path("name").asText()), "targetPort " + target);

        JsonNode hpa = kube.get("HorizontalPodAutoscaler");
        assertEquals("autoscaling/v2", hpa.path("apiVersion").asText());
        assertEquals("Deployment", hpa.at("/spec/scaleTargetRef/kind").asText());
        assertEquals(name, hpa.at("/spec/scaleTargetRef/name").asText());
        assertTrue(hpa.at("/spec/minReplicas").asInt() >= 1
                && hpa.at("/spec/maxReplicas").asInt() >= hpa.at("/spec/minReplicas").asInt());
        assertFalse(container().at("/resources/requests/cpu").isMissingNode(), "CPU utilization needs a request");
    }

    @Test
    void podsPassPodSecurityRestricted() {
        JsonNode pod = kube.get("Deployment").at("/spec/template/spec");
        assertTrue(pod.at("/securityContext/runAsNonRoot").asBoolean(), "runAsNonRoot");
        assertFalse(pod.at("/securityContext/runAsUser").asInt() == 0, "runAsUser 0");
        assertEquals("RuntimeDefault", pod.at("/securityContext/seccompProfile/type").asText(), "seccompProfile");
        for (String host : List.of("hostNetwork", "hostPID", "hostIPC")) {
            assertFalse(pod.path(host).asBoolean(), host);
        }
        JsonNode security = container().path("securityContext");
        assertEquals(false, security.path("allowPrivilegeEscalation").asBoolean(true), "allowPrivilegeEscalation");
        assertTrue(security.path("readOnlyRootFilesystem").asBoolean(), "readOnlyRootFilesystem");
        assertFalse(security.path("privileged").asBoolean(), "privileged");
        assertEquals("[\"ALL\"]", security.at("/capabilities/drop").toString(), "capabilities.drop");
        assertTrue(security.at("/capabilities/add").isMissingNode(), "no capability added");
        for (JsonNode volume : pod.path("volumes")) {
            assertTrue(volume.has("emptyDir") || volume.has("secret") || volume.has("configMap"),
                    "volume types restricted allows: " + volume);
            assertFalse(volume.at("/emptyDir/sizeLimit").asText().isEmpty(), "emptyDir.sizeLimit: " + volume);
        }
        String user = docker.last().last("USER").args().get(0).split(":")[0];
        assertEquals(user, pod.at("/securityContext/runAsUser").asText(), "the pod's user is the image's");
    }

    @Test
    void replicasShareOneDatabaseFromASecret() {
        JsonNode deployment = kube.get("Deployment");
        assertTrue(deployment.at("/spec/replicas").asInt() >= 2, "two replicas or more");
        assertTrue(kube.get("HorizontalPodAutoscaler").at("/spec/minReplicas").asInt() >= 2);
        JsonNode url = null;
        for (JsonNode variable : container().path("env")) {
            if (variable.path("name").asText().equals("DATABASE_URL")) {
                url = variable;
            }
        }
        assertNotNull(url, "DATABASE_URL is set: without it each pod has its own in-memory H2");
        assertTrue(url.path("value").isMissingNode(), "DATABASE_URL from a Secret, not written in the manifest");
        JsonNode ref = url.at("/valueFrom/secretKeyRef");
        JsonNode secret = postgres.get("Secret");
        assertEquals(secret.at("/metadata/name").asText(), ref.path("name").asText(), "postgres.yaml's Secret");
        String jdbcUrl = secret.at("/stringData/" + ref.path("key").asText()).asText();
        assertTrue(jdbcUrl.startsWith("jdbc:postgresql://"), jdbcUrl);
        assertEquals(jdbcUrl, ServiceConfig.from(new String[0], Map.of("DATABASE_URL", jdbcUrl)).jdbcUrl());

        // postgres.yaml's database is the one the URL names.
        JsonNode db = postgres.get("StatefulSet").at("/spec/template/spec/containers/0");
        Map<String, String> env = new HashMap<>();
        for (JsonNode variable : db.path("env")) {
            env.put(variable.path("name").asText(), variable.has("value") ? variable.path("value").asText()
                    : secret.at("/stringData/" + variable.at("/valueFrom/secretKeyRef/key").asText()).asText());
        }
        String host = postgres.get("Service").at("/metadata/name").asText();
        int port = postgres.get("Service").at("/spec/ports/0/port").asInt();
        assertEquals("jdbc:postgresql://" + host + ":" + port + "/" + env.get("POSTGRES_DB") + "?user="
                + env.get("POSTGRES_USER") + "&password=" + env.get("POSTGRES_PASSWORD"), jdbcUrl);
        assertEquals(postgres.get("StatefulSet").at("/spec/template/metadata/labels"),
                postgres.get("Service").at("/spec/selector"));
        assertEquals(1, postgres.get("StatefulSet").at("/spec/replicas").asInt());

        int connections = kube.get("HorizontalPodAutoscaler").at("/spec/maxReplicas").asInt() * (Database.POOL_SIZE + 1);
        assertTrue(connections <= 100, "at most replicas x (pool + LISTEN) = " + connections
                + " connections: PostgreSQL's default max_connections is 100");
    }

    @Test
    void probesTolerateOneSlowAnswer() {
        JsonNode container = container();
        for (String probe : List.of("readinessProbe", "livenessProbe")) {
            JsonNode settings = container.path(probe);
            assertTrue(settings.path("failureThreshold").asInt(3) >= 2, probe + ": one failure is not enough");
            assertTrue(settings.path("timeoutSeconds").asInt(1) >= 2, probe + ": a 1 s timeout fails on a GC pause");
        }
        JsonNode startup = container.path("startupProbe");
        assertTrue(startup.path("failureThreshold").asInt(3) * startup.path("periodSeconds").asInt(10) >= 30,
                "30 s or more to start");
    }

    @Test
    void aDisruptionBudgetKeepsOnePodServing() {
        JsonNode budget = kube.get("PodDisruptionBudget");
        assertEquals("policy/v1", budget.path("apiVersion").asText());
        assertEquals(kube.get("Deployment").at("/spec/template/metadata/labels"), budget.at("/spec/selector/matchLabels"));
        int minAvailable = budget.at("/spec/minAvailable").asInt();
        assertTrue(minAvailable >= 1 && minAvailable < kube.get("Deployment").at("/spec/replicas").asInt(),
                "at least one stays, and a drain can still evict one: minAvailable " + minAvailable);
    }

    @Test
    void theImageIsAVersionedTagPulledOnlyWhenMissing() throws Exception {
        String image = container().path("image").asText();
        int colon = image.lastIndexOf(':');
        assertTrue(colon > image.lastIndexOf('/'), "a tag: " + image);
        String tag = image.substring(colon + 1);
        assertTrue(tag.matches("\\d+\\.\\d+\\.\\d+.*"), "a version, not " + tag);
        assertEquals("IfNotPresent", container().path("imagePullPolicy").asText());
        String check = Files.readString(MODULE.resolve("src/image/podman-check.sh"), StandardCharsets.UTF_8);
        assertTrue(check.contains("IMAGE=" + image + "\n"), "the image CI builds and runs is the one deployed");
    }
}
