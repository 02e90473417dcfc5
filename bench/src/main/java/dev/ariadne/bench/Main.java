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
			  ws-tomcat <port>                 Tomcat with its Jakarta WebSocket container: the echo at /ws/echo
			  ws-jetty  <port>                 Jetty (EE 11) with its Jakarta WebSocket container: the same echo
			  idle    <port> <n> <seconds>     open n keep-alive connections, one request each, hold them
			  ws-idle <port> <n> <seconds>     open n WebSocket sessions to /ws/echo, hold them quiet
			  fairness <port> <conns> <seconds> per-connection request loops; who got served, how soon
			  ws idle <port> <path> <n> <seconds>              hold n idle WebSocket sessions
			  ws echo <port> <path> <n> <warmup> <seconds> <bytes>  closed-loop text echo over n sessions
			  report  <results.tsv>            print the markdown tables for a run's results
			system properties of the servers: -Dbench.tls.key-store=PKCS12 -Dbench.tls.password=...
			  serve TLS; -Dbench.http2=true serves HTTP/2 beside HTTP/1.1 (h2c, or h2 by ALPN with TLS)
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
			case "ws-tomcat" -> TomcatWebSocket.main(rest);
			case "ws-jetty" -> JettyWebSocket.main(rest);
			case "idle" -> IdleClient.main(rest);
			case "ws-idle" -> WebSocketIdleClient.main(rest);
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
