package dev.proxy.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.proxy.testing.DataPlane;
import io.grpc.Attributes;
import io.grpc.CallOptions;
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServerTransportFilter;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * gRPC through the proxy, end to end over real sockets: a gRPC client speaks HTTP/2 to the proxy (over TLS with
 * ALPN, or in cleartext with prior knowledge), the proxy forwards each call to an {@code h2c://} gRPC server. The
 * service is defined by hand (a string marshaller), so no protoc step is needed. Every call's {@code grpc-status}
 * travels in HTTP/2 trailers: a call that completes at all proves trailers are relayed.
 */
class GrpcProxyTest {

    private static final String SERVICE = "test.Echo";
    private static final MethodDescriptor.Marshaller<String> TEXT = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(String value) {
            return new ByteArrayInputStream(value.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public String parse(InputStream stream) {
            try {
                return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };
    private static final MethodDescriptor<String, String> ECHO = method("Echo", MethodDescriptor.MethodType.UNARY);
    /** Answers {@code "<n>:<text>"} with n messages {@code "<i> <text>"}. */
    private static final MethodDescriptor<String, String> REPEAT = method("Repeat",
            MethodDescriptor.MethodType.SERVER_STREAMING);
    /** Answers the messages it was sent, joined with {@code +}, once the client is done. */
    private static final MethodDescriptor<String, String> JOIN = method("Join",
            MethodDescriptor.MethodType.CLIENT_STREAMING);
    /** Answers every message at once with {@code "re: <message>"}. */
    private static final MethodDescriptor<String, String> CHAT = method("Chat",
            MethodDescriptor.MethodType.BIDI_STREAMING);
    /** Always fails with NOT_FOUND. */
    private static final MethodDescriptor<String, String> MISSING = method("Missing",
            MethodDescriptor.MethodType.UNARY);

    private static TestPki pki;
    private static Server echoServer;
    /** Connections the gRPC server has accepted. */
    private static final AtomicInteger BACKEND_CONNECTIONS = new AtomicInteger();

    @TempDir
    Path dir;
    private DataPlane proxy;
    private ManagedChannel channel;

    private static MethodDescriptor<String, String> method(String name, MethodDescriptor.MethodType type) {
        return MethodDescriptor.<String, String>newBuilder()
                .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, name))
                .setType(type).setRequestMarshaller(TEXT).setResponseMarshaller(TEXT).build();
    }

    @BeforeAll
    static void startEchoServer() throws Exception {
        pki = new TestPki("proxy grpc test CA");
        ServerServiceDefinition echo = ServerServiceDefinition.builder(SERVICE)
                .addMethod(ECHO, ServerCalls.asyncUnaryCall((String req, StreamObserver<String> out) -> {
                    out.onNext(req);
                    out.onCompleted();
                }))
                .addMethod(REPEAT, ServerCalls.asyncServerStreamingCall((String req, StreamObserver<String> out) -> {
                    int colon = req.indexOf(':');
                    int n = Integer.parseInt(req.substring(0, colon));
                    for (int i = 0; i < n; i++) {
                        out.onNext(i + " " + req.substring(colon + 1));
                    }
                    out.onCompleted();
                }))
                .addMethod(JOIN, ServerCalls.asyncClientStreamingCall(out -> new StreamObserver<String>() {
                    private final List<String> seen = new ArrayList<>();

                    @Override
                    public void onNext(String value) {
                        seen.add(value);
                    }

                    @Override
                    public void onError(Throwable t) {
                    }

                    @Override
                    public void onCompleted() {
                        out.onNext(String.join("+", seen));
                        out.onCompleted();
                    }
                }))
                .addMethod(CHAT, ServerCalls.asyncBidiStreamingCall(out -> new StreamObserver<String>() {
                    @Override
                    public void onNext(String value) {
                        out.onNext("re: " + value);
                    }

                    @Override
                    public void onError(Throwable t) {
                    }

                    @Override
                    public void onCompleted() {
                        out.onCompleted();
                    }
                }))
                .addMethod(MISSING, ServerCalls.asyncUnaryCall((String req, StreamObserver<String> out) ->
                        out.onError(Status.NOT_FOUND.withDescription("no such thing: " + req).asRuntimeException())))
                .build();
        echoServer = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0),
                        InsecureServerCredentials.create())
                .maxInboundMessageSize(8 * 1024 * 1024)
                .addTransportFilter(new ServerTransportFilter() {
                    @Override
                    public Attributes transportReady(Attributes attributes) {
                        BACKEND_CONNECTIONS.incrementAndGet();
                        return attributes;
                    }
                })
                .addService(echo).build().start();
    }

    @AfterAll
    static void stopEchoServer() throws InterruptedException {
        echoServer.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }

    @BeforeEach
    void startProxy() throws Exception {
        proxy = new DataPlane("--entryPoints.web.address=127.0.0.1:0");
        Path cert = pki.server("grpc.example.com").write(dir, "grpc");
        proxy.apply("""
                http:
                  routers:
                    secure: {rule: "Host(`grpc.example.com`)", service: echo, tls: {}}
                    plain: {rule: "Host(`grpc.example.com`)", service: echo}
                  services:
                    echo: {loadBalancer: {servers: [{url: "h2c://127.0.0.1:%d"}]}}
                tls:
                  certificates: [{certFile: "%s", keyFile: "%s"}]
                """.formatted(echoServer.getPort(), cert, dir.resolve("grpc.key")));
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (channel != null) {
            channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
        proxy.close();
    }

    /** A channel to the proxy for {@code grpc.example.com}: TLS trusting the test CA, or h2c with prior knowledge. */
    private ManagedChannel channel(String transport) throws IOException {
        ChannelCredentials credentials = transport.equals("tls")
                ? TlsChannelCredentials.newBuilder()
                        .trustManager(new ByteArrayInputStream(pki.caPem().getBytes(StandardCharsets.US_ASCII))).build()
                : InsecureChannelCredentials.create();
        channel = Grpc.newChannelBuilderForAddress("127.0.0.1", proxy.port("web"), credentials)
                .overrideAuthority("grpc.example.com")
                .maxInboundMessageSize(8 * 1024 * 1024)
                .build();
        return channel;
    }

    private static CallOptions deadline() {
        return CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"tls", "h2c"})
    void aUnaryCallIsEchoed(String transport) throws Exception {
        assertThat(ClientCalls.blockingUnaryCall(channel(transport), ECHO, deadline(), "hello")).isEqualTo("hello");
        // Recorded once the response is written, which may be just after the client has it.
        await().atMost(Duration.ofSeconds(10)).until(() -> !proxy.exchanges.isEmpty());
        assertThat(proxy.exchanges).singleElement().satisfies(e -> {
            assertThat(e.protocol()).isEqualTo("HTTP/2.0");
            assertThat(e.serviceUrl()).startsWith("h2c://127.0.0.1:");
        });
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"tls", "h2c"})
    void aServerStreamingCallReturnsEveryMessage(String transport) throws Exception {
        Iterator<String> replies = ClientCalls.blockingServerStreamingCall(channel(transport), REPEAT, deadline(),
                "100:tick");
        List<String> all = new ArrayList<>();
        replies.forEachRemaining(all::add);
        assertThat(all).hasSize(100).startsWith("0 tick", "1 tick").endsWith("99 tick");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"tls", "h2c"})
    void aClientStreamingCallSeesEveryMessage(String transport) throws Exception {
        CompletableFuture<String> joined = new CompletableFuture<>();
        StreamObserver<String> requests = ClientCalls.asyncClientStreamingCall(
                channel(transport).newCall(JOIN, deadline()), new StreamObserver<>() {
                    @Override
                    public void onNext(String value) {
                        joined.complete(value);
                    }

                    @Override
                    public void onError(Throwable t) {
                        joined.completeExceptionally(t);
                    }

                    @Override
                    public void onCompleted() {
                    }
                });
        for (String s : List.of("a", "b", "c", "d")) {
            requests.onNext(s);
        }
        requests.onCompleted();
        assertThat(joined.get(30, TimeUnit.SECONDS)).isEqualTo("a+b+c+d");
    }

    /**
     * Ping-pong: each message is sent only after the answer to the previous one arrived, so the call completes only
     * if the proxy relays both directions while the request is still open (no buffering of either side).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"tls", "h2c"})
    void aBidirectionalCallInterleavesBothDirections(String transport) throws Exception {
        BlockingQueue<String> answers = new LinkedBlockingQueue<>();
        CompletableFuture<Void> done = new CompletableFuture<>();
        StreamObserver<String> requests = ClientCalls.asyncBidiStreamingCall(
                channel(transport).newCall(CHAT, deadline()), new StreamObserver<>() {
                    @Override
                    public void onNext(String value) {
                        answers.add(value);
                    }

                    @Override
                    public void onError(Throwable t) {
                        done.completeExceptionally(t);
                    }

                    @Override
                    public void onCompleted() {
                        done.complete(null);
                    }
                });
        for (int i = 0; i < 5; i++) {
            requests.onNext("ping " + i);
            assertThat(answers.poll(30, TimeUnit.SECONDS)).isEqualTo("re: ping " + i);
        }
        requests.onCompleted();
        done.get(30, TimeUnit.SECONDS);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"tls", "h2c"})
    void anErrorStatusArrivesIntact(String transport) throws Exception {
        ManagedChannel ch = channel(transport);
        assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(ch, MISSING, deadline(), "the key"))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
                    assertThat(e.getStatus().getDescription()).isEqualTo("no such thing: the key");
                });
        // The connection and the backend connection stay usable after an error.
        assertThat(ClientCalls.blockingUnaryCall(ch, ECHO, deadline(), "still here")).isEqualTo("still here");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"tls", "h2c"})
    void aOneMegabyteMessageStreamsBothWays(String transport) throws Exception {
        StringBuilder big = new StringBuilder(1024 * 1024);
        for (int i = 0; big.length() < 1024 * 1024; i++) {
            big.append(i).append(',');
        }
        String message = big.toString();
        assertThat(ClientCalls.blockingUnaryCall(channel(transport), ECHO, deadline(), message)).isEqualTo(message);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"tls", "h2c"})
    void concurrentCallsShareOneBackendConnection(String transport) throws Exception {
        ManagedChannel ch = channel(transport);
        int before = BACKEND_CONNECTIONS.get();
        List<CompletableFuture<String>> calls = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String text = "call " + i;
            calls.add(CompletableFuture.supplyAsync(() -> ClientCalls.blockingUnaryCall(ch, ECHO, deadline(), text)));
        }
        for (int i = 0; i < calls.size(); i++) {
            assertThat(calls.get(i).get(60, TimeUnit.SECONDS)).isEqualTo("call " + i);
        }
        // One client connection runs on one I/O thread, which has one multiplexed connection to the server.
        assertThat(BACKEND_CONNECTIONS.get() - before).isEqualTo(1);
    }
}
