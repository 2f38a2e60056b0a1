package dev.proxy.server;

import dev.proxy.tls.SniSelector;
import dev.proxy.tls.acme.AcmeChallenges;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamFrameToHttpObjectCodec;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ApplicationProtocolNegotiationHandler;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place that decides what protocol a new client connection speaks, and builds its pipeline for it:
 * <ol>
 *   <li>The first byte tells TLS from plain text: a TLS connection starts with a handshake record (0x16), which no
 *       HTTP/1.x request line can start with. TLS is accepted only while the entry point has TLS routers (as in
 *       Traefik, where an entry point is TLS when a router on it is); otherwise the bytes go to the HTTP parser,
 *       which refuses them. Plain text that starts with the HTTP/2 connection preface is HTTP/2 with prior knowledge
 *       (h2c); anything else is HTTP/1.x.</li>
 *   <li>On TLS, {@link SniSelector} answers the ClientHello (options and certificate by SNI name), and after the
 *       handshake the ALPN result picks the protocol: {@code h2} installs HTTP/2, {@code http/1.1} (or none) the
 *       HTTP/1.1 codec; {@code acme-tls/1} — a CA validating a TLS-ALPN-01 challenge — is closed once the handshake
 *       has shown the challenge certificate.</li>
 * </ol>
 * Either way the connection ends with the same {@link HttpConnectionHandler}, which was in the pipeline from the
 * start (its idle timeout covers a client that never sends a byte or never finishes a handshake). On HTTP/2 it keeps
 * the connection's state, and every stream gets a handler of its own behind Netty's frame-to-HTTP/1 codec, so routing,
 * middlewares and forwarding see each stream as one HTTP/1.1 exchange.
 */
final class ProtocolNegotiator extends ByteToMessageDecoder {

    private static final Logger LOG = LoggerFactory.getLogger(ProtocolNegotiator.class);
    private static final int TLS_HANDSHAKE_RECORD = 0x16;
    /** What an HTTP/2 client with prior knowledge sends first (RFC 9113 §3.4). */
    private static final ByteBuf H2_PREFACE = Unpooled.unreleasableBuffer(
            Unpooled.copiedBuffer("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", StandardCharsets.US_ASCII)).asReadOnly();

    /** Edge defaults close to nginx's: an 8 KiB request line, 32 KiB of headers in all. */
    static final int MAX_INITIAL_LINE = 8 * 1024;
    static final int MAX_HEADER_SIZE = 32 * 1024;

    private final EntryPoint entryPoint;
    private final RoutingService routing;
    private final AcmeChallenges challenges;
    private final HttpConnectionHandler connection;

    ProtocolNegotiator(EntryPoint entryPoint, RoutingService routing, AcmeChallenges challenges,
                       HttpConnectionHandler connection) {
        this.entryPoint = entryPoint;
        this.routing = routing;
        this.challenges = challenges;
        this.connection = connection;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (!in.isReadable()) {
            return;
        }
        ChannelPipeline p = ctx.pipeline();
        boolean tls = in.getUnsignedByte(in.readerIndex()) == TLS_HANDSHAKE_RECORD
                && routing.snapshot().acceptsTls(entryPoint.name());
        if (tls) {
            SniSelector selector = new SniSelector(entryPoint.name(), () -> routing.snapshot().tls(), challenges);
            p.addAfter(ctx.name(), "tls", selector);
            p.addAfter("tls", "alpn", new AfterHandshake(selector));
        } else {
            int preface = prefaceMatch(in);
            if (preface == 0) {
                return; // so far the bytes are the start of the HTTP/2 preface: wait for more
            }
            if (preface > 0) {
                installHttp2(p);
            } else {
                installHttp1(p);
            }
        }
        p.remove(this); // what was read so far goes on to the handlers just added
    }

    /** 1: the bytes start with the whole HTTP/2 preface; 0: with a part of it; -1: they are something else. */
    private static int prefaceMatch(ByteBuf in) {
        int n = Math.min(in.readableBytes(), H2_PREFACE.readableBytes());
        if (!ByteBufUtil.equals(in, in.readerIndex(), H2_PREFACE, 0, n)) {
            return -1;
        }
        return n == H2_PREFACE.readableBytes() ? 1 : 0;
    }

    /**
     * HTTP/2: Netty's frame codec (SETTINGS with the entry point's {@code maxConcurrentStreams}) and its multiplexer,
     * which gives every stream a child channel of its own: frames to HTTP/1 objects, then a stream handler.
     */
    private void installHttp2(ChannelPipeline p) {
        Http2FrameCodec codec = Http2FrameCodecBuilder.forServer()
                .initialSettings(Http2Settings.defaultSettings()
                        .maxConcurrentStreams(entryPoint.config().http2().maxConcurrentStreams())
                        .maxHeaderListSize(MAX_HEADER_SIZE))
                // A closing connection (drain, idle) waits for its streams; the drain's grace period bounds it.
                .gracefulShutdownTimeoutMillis(-1)
                .build();
        p.addBefore("http", "h2", codec);
        p.addBefore("http", "h2streams", new Http2MultiplexHandler(new ChannelInitializer<Http2StreamChannel>() {
            @Override
            protected void initChannel(Http2StreamChannel ch) {
                HttpConnectionHandler stream = connection.newStream();
                ChannelPipeline sp = ch.pipeline();
                sp.addLast("bytes", stream.firstByteMarker());
                sp.addLast("codec", new Http2StreamFrameToHttpObjectCodec(true));
                sp.addLast("http", stream);
            }
        }));
        connection.http2Established(codec);
    }

    private void installHttp1(ChannelPipeline p) {
        p.addBefore("http", "bytes", connection.firstByteMarker());
        p.addBefore("http", "codec", new HttpServerCodec(strictDecoder()));
    }

    /**
     * The request parser's settings, every security-relevant one pinned here rather than left to Netty's defaults,
     * which differ between 4.1 and 4.2 (the build resolves Netty 4.2.16 through the Micronaut BOM; 4.1 had strict
     * line parsing and the RFC 9112 Transfer-Encoding rules off) and can be changed by system properties
     * ({@code io.netty.handler.codec.http.defaultStrictLineParsing}, {@code ...rfc9112TransferEncoding}):
     * <ul>
     *   <li>strict line parsing: CRLF only — a bare LF or CR ends no line (request smuggling through line-ending
     *       disagreement);</li>
     *   <li>header validation: no CR, LF or NUL in names or values, token characters only in names, no whitespace
     *       before the colon;</li>
     *   <li>duplicate or list-valued Content-Length ({@code 5, 5}) refused, not merged (RFC 9112 §6.3 allows the
     *       merge; nginx and HAProxy refuse);</li>
     *   <li>RFC 9112 Transfer-Encoding: refused together with Content-Length, on HTTP/1.0, and when chunked is not
     *       the last coding (Netty 4.1 silently dropped the Content-Length). {@link RequestHeadCheck} narrows this to
     *       exactly one {@code chunked};</li>
     *   <li>chunked bodies supported and streamed (partial chunks), never aggregated.</li>
     * </ul>
     */
    static HttpDecoderConfig strictDecoder() {
        return new HttpDecoderConfig()
                .setMaxInitialLineLength(MAX_INITIAL_LINE)
                .setMaxHeaderSize(MAX_HEADER_SIZE)
                .setValidateHeaders(true)
                .setStrictLineParsing(true)
                .setAllowDuplicateContentLengths(false)
                .setUseRfc9112TransferEncoding(true)
                .setChunkedSupported(true)
                .setAllowPartialChunks(true);
    }

    /** Runs once the TLS handshake is done: records what was negotiated and installs the protocol's handlers. */
    private final class AfterHandshake extends ApplicationProtocolNegotiationHandler {

        private final SniSelector selector;

        AfterHandshake(SniSelector selector) {
            super(""); // no ALPN agreed: HTTP/1.1, see below
            this.selector = selector;
        }

        @Override
        protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
            if (protocol.equals(AcmeChallenges.ACME_TLS_PROTOCOL)) {
                // RFC 8737: the validation is the handshake itself; nothing else is served on such a connection.
                ctx.close();
                return;
            }
            boolean h2 = protocol.equals(ApplicationProtocolNames.HTTP_2);
            if (!h2 && !protocol.isEmpty() && !protocol.equals(ApplicationProtocolNames.HTTP_1_1)) {
                LOG.debug("entry point {}: ALPN protocol {} is not served; closing", entryPoint.name(), protocol);
                ctx.close();
                return;
            }
            if (selector.options() == null) {
                ctx.close(); // a challenge certificate without acme-tls/1: cannot happen with its ALPN settings
                return;
            }
            String sni = selector.hostname() == null ? "" : selector.hostname().toLowerCase(Locale.ROOT);
            connection.tlsEstablished(new ConnectionTls(sni, selector.options().name(), protocol));
            if (h2) {
                installHttp2(ctx.pipeline());
            } else {
                installHttp1(ctx.pipeline());
            }
        }

        @Override
        protected void handshakeFailure(ChannelHandlerContext ctx, Throwable cause) {
            // Scanners and clients with old TLS versions fail here all day long: not worth more than debug.
            LOG.debug("entry point {}: TLS handshake with {} failed: {}", entryPoint.name(),
                    ctx.channel().remoteAddress(), cause.toString());
            ctx.close();
        }
    }
}
