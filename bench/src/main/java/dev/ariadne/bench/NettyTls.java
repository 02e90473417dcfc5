package dev.ariadne.bench;

import java.util.concurrent.Executor;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ApplicationProtocolNegotiationHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;

/**
 * Netty over TLS with the JDK's provider, as its HTTP/2 examples set up h2: an {@code SslHandler}
 * whose ALPN offers {@code h2} and {@code http/1.1}, then an
 * {@link ApplicationProtocolNegotiationHandler} that puts an {@code Http2FrameCodec} with the
 * same {@link NettyH2c.StreamsHandler} as h2c behind it when the client chose h2, and the
 * HTTP/1.1 codec otherwise. The JDK's default cipher suites, as every other server here (Netty's
 * examples narrow them to {@code Http2SecurityUtil.CIPHERS}, which only matters below TLS 1.3).
 */
final class NettyTls {

	private NettyTls() {
	}

	/**
	 * Returns the server context for the bench key store: TLS 1.3 and 1.2, ALPN when HTTP/2 is on.
	 * @return the context
	 * @throws Exception if the key store cannot be read
	 */
	static SslContext context() throws Exception {
		SslContextBuilder builder = SslContextBuilder.forServer(BenchTls.keyManagers())
			.sslProvider(SslProvider.JDK)
			.protocols("TLSv1.3", "TLSv1.2");
		if (BenchHttp2.enabled()) {
			builder.applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
					ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
					ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, BenchHttp2.ALPN));
		}
		return builder.build();
	}

	static void configure(ChannelPipeline pipeline, SslContext context, Executor compute) {
		pipeline.addLast(context.newHandler(pipeline.channel().alloc()));
		if (BenchHttp2.enabled()) {
			pipeline.addLast(new Negotiated(compute));
		}
		else {
			pipeline.addLast(new HttpServerCodec(), new NettyServer.RoutesHandler(compute));
		}
	}

	/** Sets up the connection for the protocol ALPN chose, once the handshake is done. */
	static final class Negotiated extends ApplicationProtocolNegotiationHandler {

		private final Executor compute;

		Negotiated(Executor compute) {
			super(ApplicationProtocolNames.HTTP_1_1);
			this.compute = compute;
		}

		@Override
		protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
			if (ApplicationProtocolNames.HTTP_2.equals(protocol)) {
				ctx.pipeline().addLast(Http2FrameCodecBuilder.forServer().build(), new NettyH2c.StreamsHandler(this.compute));
			}
			else if (ApplicationProtocolNames.HTTP_1_1.equals(protocol)) {
				ctx.pipeline().addLast(new HttpServerCodec(), new NettyServer.RoutesHandler(this.compute));
			}
			else {
				throw new IllegalStateException("Unexpected application protocol: " + protocol);
			}
		}

	}

}
