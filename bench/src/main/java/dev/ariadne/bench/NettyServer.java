package dev.ariadne.bench;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.Date;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.DateFormatter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslContext;
import io.netty.util.AsciiString;
import io.netty.util.ReferenceCountUtil;

/**
 * Netty as a tuned deployment would run it: epoll when available (NIO otherwise), default
 * event-loop count (2 × cores), TCP_NODELAY, {@link HttpServerCodec}, keep-alive, one flush
 * per read batch; with {@link BenchHttp2} also h2c on the same port ({@link NettyH2c}), and with
 * {@link BenchTls} TLS on the JDK's provider, h2 chosen by ALPN when HTTP/2 is on ({@link NettyTls}).
 * fib(30) runs on a separate executor of one thread per core, never on an event loop.
 */
final class NettyServer {

	static final AsciiString TEXT = AsciiString.cached(Routes.TEXT);

	static final AsciiString JSON = AsciiString.cached(Routes.JSON);

	/** The Date header, refreshed once a second by an event loop. */
	static volatile String date = DateFormatter.format(new Date());

	private NettyServer() {
	}

	public static void main(String[] args) throws Exception {
		int port = Integer.parseInt(args[0]);
		boolean epoll = Epoll.isAvailable();
		IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
		EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, io);
		EventLoopGroup workers = new MultiThreadIoEventLoopGroup(io);
		ExecutorService compute = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors());
		SslContext tls = BenchTls.enabled() ? NettyTls.context() : null;
		workers.scheduleAtFixedRate(() -> date = DateFormatter.format(new Date()), 1, 1, TimeUnit.SECONDS);
		ServerBootstrap bootstrap = new ServerBootstrap().group(boss, workers)
			.channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
			.childOption(ChannelOption.TCP_NODELAY, true)
			.childHandler(new ChannelInitializer<SocketChannel>() {
				@Override
				protected void initChannel(SocketChannel channel) {
					if (tls != null) {
						NettyTls.configure(channel.pipeline(), tls, compute);
					}
					else if (BenchHttp2.enabled()) {
						NettyH2c.configure(channel.pipeline(), compute, new RoutesHandler(compute));
					}
					else {
						channel.pipeline().addLast(new HttpServerCodec(), new RoutesHandler(compute));
					}
				}
			});
		Channel channel = bootstrap.bind("127.0.0.1", port).sync().channel();
		System.err.println("netty transport: " + (epoll ? "epoll" : "nio"));
		Routes.ready(((InetSocketAddress) channel.localAddress()).getPort());
		channel.closeFuture().sync();
	}

	/**
	 * One per connection, so its fields are only touched on the connection's event loop.
	 * While fib runs elsewhere, later pipelined requests wait here, so responses stay in
	 * request order.
	 */
	static final class RoutesHandler extends ChannelInboundHandlerAdapter {

		private final Executor compute;

		private final ArrayDeque<HttpRequest> waiting = new ArrayDeque<>();

		private boolean computing;

		RoutesHandler(Executor compute) {
			this.compute = compute;
		}

		@Override
		public void channelRead(ChannelHandlerContext ctx, Object msg) {
			try {
				if (msg instanceof HttpRequest request) {
					if (this.computing) {
						this.waiting.add(request);
					}
					else {
						route(ctx, request);
					}
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

		private void route(ChannelHandlerContext ctx, HttpRequest request) {
			boolean keepAlive = HttpUtil.isKeepAlive(request);
			String uri = request.uri();
			int query = uri.indexOf('?');
			switch ((query < 0) ? uri : uri.substring(0, query)) {
				case Routes.HELLO_PATH -> respond(ctx, HttpResponseStatus.OK, TEXT, Routes.HELLO, keepAlive);
				case Routes.USER_PATH -> respond(ctx, HttpResponseStatus.OK, JSON, Routes.USER, keepAlive);
				case Routes.COMPUTE_PATH -> {
					this.computing = true;
					this.compute.execute(() -> {
						byte[] body = Routes.compute();
						ctx.executor().execute(() -> computed(ctx, body, keepAlive));
					});
				}
				default -> respond(ctx, HttpResponseStatus.NOT_FOUND, TEXT, new byte[0], keepAlive);
			}
		}

		private void computed(ChannelHandlerContext ctx, byte[] body, boolean keepAlive) {
			this.computing = false;
			respond(ctx, HttpResponseStatus.OK, TEXT, body, keepAlive);
			while (!this.computing && !this.waiting.isEmpty()) {
				route(ctx, this.waiting.poll());
			}
			ctx.flush();
		}

		private static void respond(ChannelHandlerContext ctx, HttpResponseStatus status, AsciiString contentType,
				byte[] body, boolean keepAlive) {
			FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
					Unpooled.wrappedBuffer(body));
			response.headers()
				.set(HttpHeaderNames.CONTENT_TYPE, contentType)
				.setInt(HttpHeaderNames.CONTENT_LENGTH, body.length)
				.set(HttpHeaderNames.DATE, date);
			if (keepAlive) {
				ctx.write(response, ctx.voidPromise());
			}
			else {
				response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
				ctx.write(response).addListener(ChannelFutureListener.CLOSE);
			}
		}

	}

}
