package dev.ariadne.bench;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;

import dev.ariadne.AriadneServer;
import dev.ariadne.server.AccessLogConfig;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.TlsConfig;
import dev.ariadne.server.WebSocketConfig;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.websocket.WebSocketHandler;

/**
 * Ariadne's core without Spring, with the sample app's handlers written the same way.
 * Options are {@code key=value} with the {@code ariadne.server.*} property names (so bench/run
 * passes the same words to the sample app): {@code io-model}, {@code threads.max},
 * {@code keep-alive.release-threshold}, {@code max-connections}, {@code selectors},
 * {@code diagnosis.enabled} (on unless {@code false}, as in the starter),
 * {@code pools.compute.threads} (with {@code pools.compute.queue-capacity}), which runs
 * {@code /api/compute} in a route pool of its own (issue 8's bulkhead), and
 * {@code accesslog.enabled}, {@code accesslog.format}, {@code accesslog.directory} and
 * {@code accesslog.queue-capacity} (issue 28's access log), and
 * {@code websocket.max-message-size} and {@code websocket.max-frame-size} (bytes) for the
 * WebSocket echo at {@value Routes#WEBSOCKET_ECHO_PATH} (Autobahn's fuzzing client sends messages
 * of up to 16 MiB). Everything else keeps {@link ServerConfig}'s defaults.
 */
final class AriadneLauncher {

	private static final String COMPUTE_POOL = "compute";

	private int computeThreads;

	private int computeQueue = ServerConfig.PoolConfig.DEFAULT_QUEUE_CAPACITY;

	private boolean diagnosis = true;

	private final AccessLogConfig.Builder accessLog = AccessLogConfig.builder();

	private WebSocketConfig webSocket = WebSocketConfig.DEFAULTS;

	private AriadneLauncher() {
	}

	public static void main(String[] args) throws Exception {
		ServerConfig.Builder config = ServerConfig.builder()
			.name("bench")
			.address(InetAddress.getLoopbackAddress())
			.port(Integer.parseInt(args[0]));
		AriadneLauncher launcher = new AriadneLauncher();
		for (int i = 1; i < args.length; i++) {
			String[] option = args[i].split("=", 2);
			if (option.length != 2) {
				throw new IllegalArgumentException("Expected key=value, got '" + args[i] + "'");
			}
			launcher.apply(config, option[0], option[1]);
		}
		config.accessLog(launcher.accessLog.build());
		if (BenchTls.enabled()) {
			config.tls(TlsConfig.of(BenchTls.context()));
		}
		config.webSocket(launcher.webSocket);
		Route compute = Route.get(Routes.COMPUTE_PATH,
				(request, response) -> response.send(new String(Routes.compute(), StandardCharsets.US_ASCII)));
		if (launcher.computeThreads > 0) {
			config.pool(COMPUTE_POOL, new ServerConfig.PoolConfig(launcher.computeThreads, launcher.computeQueue, false));
			compute = compute.inPool(COMPUTE_POOL);
		}
		AriadneServer server = AriadneServer.builder(config.build())
			.diagnosis(launcher.diagnosis)
			.route(Route.get(Routes.HELLO_PATH, (request, response) -> response.send("Hello from Ariadne!")))
			.route(Route.get(Routes.USER_PATH,
					(request, response) -> response.contentType(Routes.JSON).send(Routes.USER)))
			// the POST workload (lua/post.lua): reads the small JSON body through the stream
			.route(Route.post(Routes.USER_PATH, (request, response) -> {
				Routes.consume(request.body());
				response.contentType(Routes.JSON).send(Routes.USER);
			}))
			.route(compute)
			.route(Route.get(Routes.WEBSOCKET_ECHO_PATH, WebSocketHandler.of((request) -> new WebSocketEcho())))
			.build();
		server.start();
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			server.stop();
			if (server.config().accessLog().enabled()) {
				// lines the access log dropped rather than hold up a request: the server's log says
				System.err.println("access log: " + server.stats().accessLogDropped() + " lines dropped");
			}
		}, "bench-shutdown"));
		System.err.println("ariadne " + server.config().ioModel() + ", threads.max " + server.config().maxThreads()
				+ ", pools " + server.config().pools() + ", diagnosis " + (server.diagnosis().isPresent() ? "on" : "off")
				+ ", access log " + (server.config().accessLog().enabled() ? server.config().accessLog() : "off"));
		Routes.ready(server.port());
		// Until SIGTERM: the transport's threads need not be non-daemon.
		Thread.currentThread().join();
	}

	private void apply(ServerConfig.Builder config, String key, String value) {
		switch (key) {
			case "io-model" -> config.ioModel(IoModel.fromValue(value));
			case "threads.max" -> config.maxThreads(Integer.parseInt(value));
			case "keep-alive.release-threshold" -> config.keepAliveReleaseThreshold(Double.parseDouble(value));
			case "max-connections" -> config.maxConnections(Integer.parseInt(value));
			case "selectors" -> config.selectors(Integer.parseInt(value));
			case "http2.enabled" -> config.http2Enabled(Boolean.parseBoolean(value));
			case "pools.compute.threads" -> this.computeThreads = Integer.parseInt(value);
			case "pools.compute.queue-capacity" -> this.computeQueue = Integer.parseInt(value);
			case "diagnosis.enabled" -> this.diagnosis = Boolean.parseBoolean(value);
			case "accesslog.enabled" -> this.accessLog.enabled(Boolean.parseBoolean(value));
			case "accesslog.format" -> this.accessLog.format(AccessLogConfig.Format.valueOf(value.toUpperCase(Locale.ROOT)));
			case "accesslog.directory" -> this.accessLog.directory(Path.of(value));
			case "accesslog.queue-capacity" -> this.accessLog.queueCapacity(Integer.parseInt(value));
			case "websocket.max-message-size" -> this.webSocket = this.webSocket.withSizes(Integer.parseInt(value),
					this.webSocket.maxFrameSize());
			case "websocket.max-frame-size" -> this.webSocket = this.webSocket
				.withSizes(this.webSocket.maxMessageSize(), Integer.parseInt(value));
			default -> throw new IllegalArgumentException("Unknown option '" + key + "'");
		}
	}

}
