package dev.proxy.tls;

import dev.proxy.tls.acme.AcmeChallenges;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.ssl.SniHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.Future;
import java.util.function.Supplier;
import javax.net.ssl.SSLHandshakeException;

/**
 * Chooses what a TLS connection is answered with, from its ClientHello: the SNI name picks the TLS options and the
 * certificate in the current {@link TlsSnapshot} (read once per handshake, so a new configuration applies to the
 * next handshake); a pending TLS-ALPN-01 validation gets its challenge certificate. Then Netty replaces this
 * handler with the {@link SslHandler}. One per connection.
 */
public final class SniSelector extends SniHandler {

    /** Time for the whole ClientHello to arrive and, separately, for the handshake to finish. */
    static final long HANDSHAKE_TIMEOUT_MILLIS = 10_000;
    /**
     * The largest ClientHello buffered (real ones are a few KiB, post-quantum key shares included); the protocol
     * allows 16 MiB, which a client could make every connection hold.
     */
    static final int MAX_CLIENT_HELLO = 64 * 1024;

    private final String entryPoint;
    private final Supplier<TlsSnapshot> snapshot;
    private final AcmeChallenges challenges;
    private boolean offersAcmeTls;
    private TlsSnapshot.Selection selection;

    public SniSelector(String entryPoint, Supplier<TlsSnapshot> snapshot, AcmeChallenges challenges) {
        super(host -> null, MAX_CLIENT_HELLO, HANDSHAKE_TIMEOUT_MILLIS); // lookups are overridden below
        this.entryPoint = entryPoint;
        this.snapshot = snapshot;
        this.challenges = challenges;
    }

    @Override
    protected Future<SslContext> lookup(ChannelHandlerContext ctx, ByteBuf clientHello) throws Exception {
        offersAcmeTls = ClientHelloAlpn.offers(clientHello, AcmeChallenges.ACME_TLS_PROTOCOL);
        return super.lookup(ctx, clientHello); // reads the SNI name, then calls the lookup below
    }

    @Override
    protected Future<SslContext> lookup(ChannelHandlerContext ctx, String hostname) throws Exception {
        if (offersAcmeTls) {
            SslContext challenge = challenges.tlsAlpnContext(hostname);
            if (challenge != null) {
                return ctx.executor().newSucceededFuture(challenge);
            }
        }
        TlsSnapshot.Selection chosen = snapshot.get().select(entryPoint, hostname);
        if (chosen == null) {
            return ctx.executor().newFailedFuture(new SSLHandshakeException(
                    "sniStrict: no certificate for " + (hostname == null ? "a ClientHello without SNI" : hostname)));
        }
        selection = chosen;
        return ctx.executor().newSucceededFuture(chosen.context());
    }

    @Override
    protected SslHandler newSslHandler(SslContext context, ByteBufAllocator allocator) {
        SslHandler handler = super.newSslHandler(context, allocator);
        handler.setHandshakeTimeoutMillis(HANDSHAKE_TIMEOUT_MILLIS);
        if (selection != null) {
            selection.options().configure(handler.engine());
        }
        return handler;
    }

    /** The options the handshake was answered with; null for an ACME challenge (or before the lookup). */
    public CompiledTlsOptions options() {
        return selection == null ? null : selection.options();
    }
}
