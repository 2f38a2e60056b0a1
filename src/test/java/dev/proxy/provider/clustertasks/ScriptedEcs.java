package dev.proxy.provider.clustertasks;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A loopback stand-in for ECS (AWS JSON 1.1: {@code X-Amz-Target: AmazonEC2ContainerServiceV20141113.<Op>}) and EC2
 * ({@code Action=DescribeInstances}, query protocol) answering scripted bodies, for the answers the emulator never
 * gives: missing fields, impossible ports, truncated JSON. Task definitions are answered by ARN from
 * {@link #definitions}; any other operation from {@link #answers} by name ({@code ListTasks}, {@code DescribeTasks},
 * {@code DescribeContainerInstances}). A body given as {@code "500 <text>"} is sent with that status.
 */
final class ScriptedEcs implements AutoCloseable {

    private static final Pattern DEFINITION = Pattern.compile("\"taskDefinition\"\\s*:\\s*\"([^\"]*)\"");

    final Map<String, String> answers = new ConcurrentHashMap<>();
    final Map<String, String> definitions = new ConcurrentHashMap<>();
    final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    /** The EC2 instance {@code i-1}'s private address, for bridge tasks on container instance {@code ci-1}. */
    volatile String ec2Address = "127.0.0.1";
    private final HttpServer server;

    ScriptedEcs() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/", this::answer);
        server.start();
        answers.put("DescribeContainerInstances", """
                {"containerInstances": [{"containerInstanceArn": "%s", "ec2InstanceId": "i-1"}], "failures": []}"""
                .formatted(containerInstance()));
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    static String containerInstance() {
        return "arn:aws:ecs:us-east-1:123456789012:container-instance/hostile/ci-1";
    }

    int calls(String operation) {
        AtomicInteger n = calls.get(operation);
        return n == null ? 0 : n.get();
    }

    private void answer(HttpExchange ex) throws IOException {
        String request = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String target = ex.getRequestHeaders().getFirst("X-Amz-Target");
        String operation;
        String body;
        String type = "application/x-amz-json-1.1";
        if (target == null) {
            operation = "DescribeInstances";
            type = "text/xml";
            body = """
                    <DescribeInstancesResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/"><requestId>r</requestId>
                    <reservationSet><item><reservationId>r-1</reservationId><instancesSet><item>
                    <instanceId>i-1</instanceId><privateIpAddress>%s</privateIpAddress>
                    <instanceState><code>16</code><name>running</name></instanceState>
                    </item></instancesSet></item></reservationSet></DescribeInstancesResponse>""".formatted(ec2Address);
        } else {
            operation = target.substring(target.indexOf('.') + 1);
            if (operation.equals("DescribeTaskDefinition")) {
                Matcher m = DEFINITION.matcher(request);
                body = m.find() ? definitions.get(m.group(1)) : null;
            } else {
                body = answers.get(operation);
            }
        }
        calls.computeIfAbsent(operation, k -> new AtomicInteger()).incrementAndGet();
        int status = 200;
        if (body == null) {
            status = 400;
            body = "{\"__type\": \"ClientException\", \"message\": \"nothing scripted for " + operation + "\"}";
        } else if (body.startsWith("500 ")) {
            status = 500;
            body = body.substring(4);
        }
        byte[] out = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", type);
        ex.getResponseHeaders().add("x-amzn-RequestId", "scripted");
        ex.sendResponseHeaders(status, out.length);
        try (OutputStream os = ex.getResponseBody()) {
            os.write(out);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}
