package dev.ariadne.bench;

import java.util.concurrent.Executor;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerUpgradeHandler;
import io.netty.handler.codec.http2.CleartextHttp2ServerUpgradeHandler;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2ServerUpgradeCodec;
import io.netty.util.AsciiString;
import io.netty.util.ReferenceCountUtil;

/**
 * Netty's HTTP/2 codec as its examples set it up for h2c: {@link CleartextHttp2ServerUpgradeHandler}
 * in front of HTTP/1.1, taking a connection that opens with the preface (or asks to upgrade) to an
 * {@code Http2FrameCodec}, whose streams are answered on the connection's event loop by
 * {@link StreamsHandler}; fib(30) on the compute executor, as for HTTP/1.1.
 */
final class NettyH2c {

	private NettyH2c() {
	}

	static void configure(ChannelPipeline pipeline, Executor compute, ChannelHandler http11) {
		HttpServerCodec codec = new HttpServerCodec();
		HttpServerUpgradeHandler upgrade = new HttpServerUpgradeHandler(codec,
				(protocol) -> AsciiString.contentEquals(Http2CodecUtil.HTTP_UPGRADE_PROTOCOL_NAME, protocol)
						? new Http2ServerUpgradeCodec(Http2FrameCodecBuilder.forServer().build(), new StreamsHandler(compute))
						: null);
		ChannelHandler priorKnowledge = new ChannelInitializer<Channel>() {
			@Override
			protected void initChannel(Channel channel) {
				// the HTTP/1.1 handler would come first and take the frames' bytes
				channel.pipeline().remove(http11);
				channel.pipeline().addLast(Http2FrameCodecBuilder.forServer().build(), new StreamsHandler(compute));
			}
		};
		pipeline.addLast(new CleartextHttp2ServerUpgradeHandler(codec, upgrade, priorKnowledge), http11);
	}

	/** The routes on the streams of one connection, answered where their request ends. */
	static final class StreamsHandler extends ChannelInboundHandlerAdapter {

		private final Executor compute;

		StreamsHandler(Executor compute) {
			this.compute = compute;
		}

		@Override
		public void channelRead(ChannelHandlerContext ctx, Object msg) {
			try {
				if (msg instanceof Http2HeadersFrame headers && headers.isEndStream()) {
					route(ctx, headers.stream(), headers.headers().path());
				}
				else if (msg instanceof Http2DataFrame data && data.isEndStream()) {
					route(ctx, data.stream(), "/");
				}
			}
			finally {
				ReferenceCountUtil.release(msg);
			}
		}

		@Override
		public void channelReadComplete(ChannelHandlerContext ctx) {
			ctx.flush();
		}

		@Override
		public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
			ctx.close();
		}

		private void route(ChannelHandlerContext ctx, Http2FrameStream stream, CharSequence target) {
			String uri = String.valueOf(target);
			int query = uri.indexOf('?');
			switch ((query < 0) ? uri : uri.substring(0, query)) {
				case Routes.HELLO_PATH -> respond(ctx, stream, HttpResponseStatus.OK, NettyServer.TEXT, Routes.HELLO);
				case Routes.USER_PATH -> respond(ctx, stream, HttpResponseStatus.OK, NettyServer.JSON, Routes.USER);
				case Routes.COMPUTE_PATH -> this.compute.execute(() -> {
					byte[] body = Routes.compute();
					ctx.executor().execute(() -> {
						respond(ctx, stream, HttpResponseStatus.OK, NettyServer.TEXT, body);
						ctx.flush();
					});
				});
				default -> respond(ctx, stream, HttpResponseStatus.NOT_FOUND, NettyServer.TEXT, new byte[0]);
			}
		}

		private static void respond(ChannelHandlerContext ctx, Http2FrameStream stream, HttpResponseStatus status,
				AsciiString contentType, byte[] body) {
			Http2Headers headers = new DefaultHttp2Headers().status(status.codeAsText())
				.set("content-type", contentType)
				.setInt("content-length", body.length)
				.set("date", NettyServer.date);
			ctx.write(new DefaultHttp2HeadersFrame(headers).stream(stream), ctx.voidPromise());
			ctx.write(new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(body), true).stream(stream), ctx.voidPromise());
		}

	}

}
