package dev.gauntlet.runner.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gauntlet.api.Json;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * One headless Chromium driven over the DevTools protocol, so a test can wait for what the page says about itself
 * rather than for a guessed time: {@code --dump-dom} with a virtual-time budget took its snapshot while the page was
 * still decompressing its data (a stream, which virtual time does not wait for).
 *
 * <pre>
 * try (DevToolsSession chromium = DevToolsSession.start(executable, workDir, flags)) {
 *     chromium.navigate(uri);
 *     JsonNode result = chromium.call("Runtime.evaluate", Map.of("expression", "document.title", "returnByValue", true));
 * }
 * </pre>
 *
 * Console calls, uncaught exceptions and log entries of level warning or error are collected as they come, and the URL
 * of every request the page makes.
 */
final class DevToolsSession implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

    private final Process process;
    private final Path profile;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final List<String> console = new CopyOnWriteArrayList<>();
    private final List<String> requests = new CopyOnWriteArrayList<>();

    private DevToolsSession(Process process, Path profile, WebSocket.Builder builder, URI page)
            throws IOException, InterruptedException {
        this.process = process;
        this.profile = profile;
        try {
            this.socket = builder.buildAsync(page, new Listener()).get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("cannot connect to Chromium's DevTools at " + page, e);
        }
    }

    /** Starts Chromium with {@code flags} and a DevTools port of its choosing, and attaches to its one page. */
    static DevToolsSession start(Path executable, Path workDir, List<String> flags) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory(workDir, "chromium-profile");
        List<String> command = new ArrayList<>(List.of(executable.toString(), "--remote-debugging-port=0",
                "--user-data-dir=" + profile));
        command.addAll(flags);
        command.add("about:blank");
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(workDir.resolve("chromium.log").toFile()).start();
        try {
            int port = devToolsPort(profile.resolve("DevToolsActivePort"), process);
            HttpClient http = HttpClient.newHttpClient();
            JsonNode targets = Json.json().readTree(http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/json/list")).build(), HttpResponse.BodyHandlers.ofString()).body());
            for (JsonNode target : targets) {
                if (target.path("type").asText().equals("page")) {
                    DevToolsSession session = new DevToolsSession(process, profile, http.newWebSocketBuilder(),
                            URI.create(target.path("webSocketDebuggerUrl").asText()));
                    session.call("Runtime.enable", Map.of());
                    session.call("Log.enable", Map.of());
                    session.call("Page.enable", Map.of());
                    session.call("Network.enable", Map.of());
                    return session;
                }
            }
            throw new IOException("Chromium's DevTools list no page: " + targets);
        } catch (IOException | InterruptedException | RuntimeException e) {
            stop(process);
            throw e;
        }
    }

    /** Chromium writes the port it listens on into the profile once it is ready. */
    private static int devToolsPort(Path file, Process process) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("Chromium exited with " + process.exitValue() + " before opening its DevTools port");
            }
            List<String> lines = Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
            if (!lines.isEmpty() && !lines.getFirst().isBlank()) {
                return Integer.parseInt(lines.getFirst().strip());
            }
            Thread.sleep(50);
        }
        throw new IOException("Chromium wrote no DevTools port within " + START_TIMEOUT.toSeconds() + " s");
    }

    void navigate(URI page) throws IOException, InterruptedException {
        call("Page.navigate", Map.of("url", page.toString()));
    }

    /** The value of a JavaScript expression in the page, as JSON. */
    JsonNode evaluate(String expression) throws IOException, InterruptedException {
        return call("Runtime.evaluate", Map.of("expression", expression, "returnByValue", true)).path("result").path("value");
    }

    /** Calls a DevTools method and waits for its result; a protocol error is an IOException. */
    JsonNode call(String method, Map<String, Object> params) throws IOException, InterruptedException {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        pending.put(id, answer);
        ObjectNode message = Json.json().createObjectNode().put("id", id).put("method", method);
        message.set("params", Json.json().valueToTree(params));
        socket.sendText(message.toString(), true).join();
        try {
            JsonNode reply = answer.get(CALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            if (reply.has("error")) {
                throw new IOException(method + " failed: " + reply.get("error"));
            }
            return reply.path("result");
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException(method + " got no answer within " + CALL_TIMEOUT.toSeconds() + " s", e);
        } finally {
            pending.remove(id);
        }
    }

    List<String> console() {
        return List.copyOf(console);
    }

    /** The URL of every request the page made, the navigation's own included, in order. */
    List<String> requests() {
        return List.copyOf(requests);
    }

    /** Ends Chromium with every process it started, and fails if its browser process is still there. */
    @Override
    public void close() throws InterruptedException {
        socket.abort();
        stop(process);
        String profileFlag = "--user-data-dir=" + profile;
        List<Long> left = ProcessHandle.allProcesses()
                .filter(p -> Arrays.asList(p.info().arguments().orElse(new String[0])).contains(profileFlag))
                .map(ProcessHandle::pid).toList();
        if (!left.isEmpty()) {
            throw new IllegalStateException("Chromium processes " + left + " outlived their session");
        }
    }

    /**
     * Ends the whole process tree: Debian's {@code chromium-headless-shell} is a shell script that runs the browser
     * as its child, so ending the script alone left the browser and its zygotes, renderers and GPU process running.
     * The tree is listed while it is whole: a child whose parent is gone no longer shows in it.
     */
    private static void stop(Process process) throws InterruptedException {
        List<ProcessHandle> tree = Stream.concat(process.descendants(), Stream.of(process.toHandle())).toList();
        tree.forEach(ProcessHandle::destroy);
        if (!exited(tree)) {
            tree.forEach(ProcessHandle::destroyForcibly);
            if (!exited(tree)) {
                throw new IllegalStateException("Chromium processes outlived SIGKILL: " + tree.stream().filter(ProcessHandle::isAlive).toList());
            }
        }
    }

    private static boolean exited(List<ProcessHandle> processes) throws InterruptedException {
        try {
            CompletableFuture.allOf(processes.stream().map(ProcessHandle::onExit).toArray(CompletableFuture[]::new))
                    .get(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            return true;
        } catch (ExecutionException | TimeoutException e) {
            return false;
        }
    }

    /** Joins a message's frames, answers calls by id, and keeps what the page said on its console. */
    private final class Listener implements WebSocket.Listener {
        private final StringBuilder frames = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            frames.append(data);
            if (last) {
                receive(frames.toString());
                frames.setLength(0);
            }
            webSocket.request(1);
            return null;
        }

        private void receive(String text) {
            JsonNode message;
            try {
                message = Json.json().readTree(text);
            } catch (IOException e) {
                console.add("unreadable DevTools message: " + text);
                return;
            }
            if (message.has("id")) {
                CompletableFuture<JsonNode> answer = pending.get(message.get("id").asInt());
                if (answer != null) {
                    answer.complete(message);
                }
                return;
            }
            JsonNode params = message.path("params");
            switch (message.path("method").asText()) {
                case "Runtime.consoleAPICalled" -> console.add("console." + params.path("type").asText() + ": " + params.path("args"));
                case "Network.requestWillBeSent" -> requests.add(params.path("request").path("url").asText());
                case "Runtime.exceptionThrown" -> console.add("uncaught: " + params.path("exceptionDetails"));
                case "Log.entryAdded" -> {
                    String level = params.path("entry").path("level").asText();
                    if (level.equals("error") || level.equals("warning")) {
                        console.add(level + ": " + params.path("entry").path("text").asText());
                    }
                }
                default -> { }
            }
        }
    }
}
