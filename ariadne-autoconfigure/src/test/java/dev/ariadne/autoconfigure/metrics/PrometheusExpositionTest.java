package dev.ariadne.autoconfigure.metrics;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

import dev.ariadne.AriadneServer;
import dev.ariadne.autoconfigure.RawHttp;
import dev.ariadne.autoconfigure.TestKeyStores;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.TlsConfig;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.HandshakeOutcome;
import dev.ariadne.server.stats.TlsProtocol;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pins the exported Prometheus names of DESIGN.md's metric table: a scrape of a real server's
 * meters contains exactly these families.
 */
class PrometheusExpositionTest {

	@Test
	void exportsTheDocumentedPrometheusNames() throws Exception {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		AriadneRequestMetrics requests = new AriadneRequestMetrics(registry);
		ServerConfig config = ServerConfig.builder().port(0).address(InetAddress.getLoopbackAddress()).build();
		try (AriadneServer server = AriadneServer.builder(config)
			.route(Route.get("/api/user/{id}", (request, response) -> response.send("user")))
			.requestListener(requests)
			.build()) {
			server.start();
			new AriadneServerMetrics(server.stats(), server.diagnosis().orElseThrow(), AriadneServer.version(), List.of())
				.bindTo(registry);
			assertThat(RawHttp.get(server.port(), "/api/user/42").statusLine()).isEqualTo("HTTP/1.1 200 OK");
			String scrape = registry.scrape();
			for (String gauge : List.of("ariadne_pool_threads_busy", "ariadne_pool_threads_max",
					"ariadne_pool_saturation", "ariadne_pool_queue_size", "ariadne_pool_queue_capacity",
					"ariadne_accept_queue_depth", "ariadne_accept_queue_capacity", "ariadne_connections_active",
					"ariadne_connections_idle", "ariadne_connections_max", "ariadne_server_info",
					"ariadne_pool_starvation", "ariadne_connections_protocol", "ariadne_http2_streams_active",
					"ariadne_http2_streams_queued", "ariadne_http2_connections_at_limit",
					"ariadne_websocket_sessions_active")) {
				assertThat(scrape).as(gauge).contains("# TYPE " + gauge + " gauge\n");
			}
			for (String counter : List.of("ariadne_connections_accepted", "ariadne_connections_rejected",
					"ariadne_accept_errors", "ariadne_defences", "ariadne_http2_defences", "ariadne_accesslog_dropped",
					"ariadne_websocket_messages")) {
				assertThat(scrape).as(counter).contains("# TYPE " + counter + "_total counter\n");
			}
			assertThat(scrape).contains("# TYPE ariadne_requests_seconds histogram\n")
				.contains("# TYPE ariadne_pool_queue_wait_seconds histogram\n")
				.contains("ariadne_requests_seconds_bucket{listener=\"app\",method=\"GET\",outcome=\"SUCCESS\","
						+ "refusal=\"none\",route=\"/api/user/{id}\",status=\"200\",le=\"0.001\"}")
				.contains("ariadne_pool_queue_wait_seconds_count{listener=\"app\",pool=\"default\"} 1")
				.contains("ariadne_pool_threads_busy{listener=\"app\",pool=\"default\"}")
				.contains("ariadne_server_info{io_model=\"event-loop\",listener=\"app\"")
				.contains("ariadne_pool_starvation{cause=\"thread-per-connection\",listener=\"app\",pool=\"default\"} 0.0")
				.contains("# TYPE ariadne_buffers_used_bytes gauge\n")
				// the response buffer of the request above, kept in the pool for the next one
				.containsPattern("\nariadne_buffers_used_bytes\\{listener=\"app\"\\} [1-9][0-9.E]*\n")
				.contains("ariadne_accept_errors_total{listener=\"app\",reason=\"descriptors\"} 0.0")
				.contains("ariadne_defences_total{listener=\"app\",low_resources=\"true\",reason=\"slow-body\"} 0.0")
				.contains("ariadne_http2_defences_total{listener=\"app\",low_resources=\"false\",reason=\"http2-rapid-reset\"} 0.0")
				.doesNotContain("ariadne_defences_total{listener=\"app\",low_resources=\"false\",reason=\"http2-rapid-reset\"}")
				.contains("ariadne_connections_protocol{listener=\"app\",protocol=\"h2c\"} 0.0")
				.contains("ariadne_connections_protocol{listener=\"app\",protocol=\"websocket\"} 0.0")
				.contains("ariadne_http2_streams_active{listener=\"app\"} 0.0")
				.contains("ariadne_accesslog_dropped_total{listener=\"app\"} 0.0")
				.contains("ariadne_websocket_sessions_active{listener=\"app\"} 0.0")
				.contains("ariadne_websocket_messages_total{direction=\"in\",listener=\"app\"} 0.0")
				.contains("ariadne_websocket_messages_total{direction=\"out\",listener=\"app\"} 0.0")
				.contains("ariadne_connections_rejected_total{listener=\"app\",reason=\"websocket-sessions\"} 0.0");
			if (java.nio.file.Files.isReadable(java.nio.file.Path.of("/proc/net/netstat"))) {
				// the network namespace's count, not a listener's: no listener label
				assertThat(scrape).contains("# TYPE ariadne_accept_queue_overflows_total counter\n")
					.containsPattern("\nariadne_accept_queue_overflows_total [0-9.E]+\n");
			}
			assertThat(scrape).doesNotContain("ariadne_pool_threads_busy_threads")
				.doesNotContain("ariadne_connections_active_connections")
				.as("a plaintext listener has no handshake meter")
				.doesNotContain("ariadne_tls_handshakes");
		}
	}

	@Test
	void exportsTheHandshakeTimerOfATlsListener(@TempDir Path directory) throws Exception {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		Path store = TestKeyStores.generate(directory, "localhost");
		SSLContext serverContext = TestKeyStores.serverContext(store);
		ServerConfig config = ServerConfig.builder()
			.port(0)
			.address(InetAddress.getLoopbackAddress())
			.tls(TlsConfig.of(serverContext))
			.build();
		try (AriadneServer server = AriadneServer.builder(config)
			.route(Route.get("/hello", (request, response) -> response.send("hello")))
			.build()) {
			server.start();
			new AriadneServerMetrics(server.stats(), AriadneServer.version(), List.of()).bindTo(registry);
			try (SSLSocket socket = (SSLSocket) TestKeyStores.clientContext(store)
				.getSocketFactory()
				.createSocket(InetAddress.getLoopbackAddress(), server.port())) {
				socket.startHandshake();
			}
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
			while (server.stats().tlsHandshakes(HandshakeOutcome.SUCCESS, TlsProtocol.TLS_1_3) == 0
					&& System.nanoTime() < deadline) {
				Thread.sleep(10);
			}
			String scrape = registry.scrape();
			assertThat(scrape).contains("# TYPE ariadne_tls_handshakes_seconds summary\n")
				.contains("ariadne_tls_handshakes_seconds_count{listener=\"app\",outcome=\"success\",protocol=\"TLSv1.3\"} 1")
				.contains("ariadne_tls_handshakes_seconds_sum{listener=\"app\",outcome=\"success\",protocol=\"TLSv1.3\"}")
				.contains("ariadne_tls_handshakes_seconds_count{listener=\"app\",outcome=\"failed\",protocol=\"TLSv1.1\"} 0")
				.contains("ariadne_tls_handshakes_seconds_count{listener=\"app\",outcome=\"timeout\",protocol=\"unknown\"} 0");
		}
	}

}
