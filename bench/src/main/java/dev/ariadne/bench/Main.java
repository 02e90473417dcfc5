package dev.ariadne.bench;

import java.util.Arrays;

/**
 * Entry point of the bench jar: {@code java -jar ariadne-bench.jar <command> [args]}.
 * Servers bind to 127.0.0.1 only and print {@code READY <port>} once listening.
 */
public final class Main {

	private static final String USAGE = """
			usage: java -jar ariadne-bench.jar <command> [args]
			  tomcat  <port>                   Tomcat embedded, NIO connector, defaults
			  jetty   <port>                   Jetty core Handler, defaults
			  netty   <port>                   Netty, HttpServerCodec, epoll when available
			  ariadne <port> [key=value ...]   Ariadne core, no Spring; keys (ariadne.server.*): io-model,
			                                   threads.max, keep-alive.release-threshold, max-connections,
			                                   selectors, http2.enabled
			  idle    <port> <n> <seconds>     open n keep-alive connections, one request each, hold them
			  fairness <port> <conns> <seconds> per-connection request loops; who got served, how soon
			  ws idle <port> <path> <n> <seconds>              hold n idle WebSocket sessions
			  ws echo <port> <path> <n> <warmup> <seconds> <bytes>  closed-loop text echo over n sessions
			  report  <results.tsv>            print the markdown tables for a run's results
			""";

	private Main() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length < 2) {
			System.err.print(USAGE);
			System.exit(2);
		}
		String[] rest = Arrays.copyOfRange(args, 1, args.length);
		switch (args[0]) {
			case "tomcat" -> TomcatServer.main(rest);
			case "jetty" -> JettyServer.main(rest);
			case "netty" -> NettyServer.main(rest);
			case "ariadne" -> AriadneLauncher.main(rest);
			case "idle" -> IdleClient.main(rest);
			case "fairness" -> FairnessClient.main(rest);
			case "ws" -> WebSocketLoad.main(rest);
			case "report" -> Report.main(rest);
			default -> {
				System.err.print(USAGE);
				System.exit(2);
			}
		}
	}

}
