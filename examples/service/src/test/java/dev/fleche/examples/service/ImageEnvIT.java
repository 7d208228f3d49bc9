package dev.fleche.examples.service;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The image directory alone serves requests: no JAVA_HOME, PATH or anything else in the environment. */
@Timeout(120)
class ImageEnvIT {
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void servesUnderAnEmptyEnvironmentAndExitsZeroOnSigterm() throws Exception {
        try (ImageProcess image = ImageProcess.start(Map.of())) {
            URI base = URI.create("http://127.0.0.1:" + image.port + "/");
            HttpResponse<String> created = http.send(HttpRequest.newBuilder(base.resolve("todos"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"title\":\"ship it\",\"priority\":1}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(201, created.statusCode(), created.body());
            HttpResponse<String> list = http.send(HttpRequest.newBuilder(base.resolve("todos")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, list.statusCode());
            assertEquals("[{\"id\":1,\"title\":\"ship it\",\"notes\":null,\"done\":false,\"priority\":1}]", list.body());
            HttpResponse<String> invalid = http.send(HttpRequest.newBuilder(base.resolve("todos"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"title\":\"\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(400, invalid.statusCode());
            HttpResponse<String> ready = http.send(HttpRequest.newBuilder(base.resolve("health/ready")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, ready.statusCode());
            assertEquals("{\"status\":\"UP\",\"phase\":\"READY\",\"checks\":{\"database\":{\"status\":\"UP\",\"detail\":\"\"}}}",
                    ready.body());

            image.terminate();
            image.terminate(); // the second signal cuts the drain delay short
            assertTrue(image.awaitExit(30), image.output());
            assertEquals(0, image.process.exitValue(), image.output());
            assertTrue(image.output().contains("drain.done"), image.output());
        }
    }
}
