package dev.ariadne.sample;

import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The diagnosis as a user meets it: the packaged sample application started with
 * {@code java -jar} and a profile, talked to over HTTP only. In {@code starved}, 20 keep-alive
 * clients make it name thread-per-connection and advise the event loop within 10 s, on the
 * endpoint, the meter and one log line, and closing them makes it ok within 10 s, the past
 * starvation kept; in {@code tuned}, 200 keep-alive clients on 250 workers stay ok.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class SampleDiagnosisIT {

	private static final Duration WITHIN = Duration.ofSeconds(10);

	private final List<Socket> clients = new ArrayList<>();

	private SampleProcess application;

	@AfterEach
	void stop() throws Exception {
		for (Socket client : this.clients) {
			client.close();
		}
		if (this.application != null) {
			this.application.close();
		}
	}

	@Test
	void starvedProfileWithTwentyKeepAliveClientsIsThreadPerConnectionAdvisingTheEventLoop() throws Exception {
		this.application = SampleProcess.start("starved");
		for (int i = 0; i < 20; i++) {
			this.clients.add(SampleProcess.send(this.application.appPort(), "/api/compute", ""));
		}
		Map<String, Object> pool = this.application.awaitPool((p) -> "thread-per-connection".equals(p.get("cause")),
				"thread-per-connection", WITHIN);
		assertThat(pool).containsEntry("status", "starved");
		assertThat((String) pool.get("evidence")).matches("4 of 4 workers each own a connection until it closes "
				+ "\\(sampled: 4 idle between requests, .+ on average\\); 16 connections waiting for a worker, none of "
				+ "them given one over the last \\d+ s");
		List<Map<String, String>> advice = JsonPath.read(pool, "$.advice");
		assertThat(advice).anySatisfy((item) -> {
			assertThat(item).containsEntry("property", "ariadne.server.io-model").containsEntry("value", "event-loop");
			assertThat(item.get("why")).isNotBlank();
		});
		assertThat(this.application.management("/actuator/prometheus"))
			.contains("ariadne_pool_starvation{cause=\"thread-per-connection\",listener=\"app\",pool=\"default\"} 1.0")
			.contains("ariadne_pool_starvation{cause=\"cpu-bound\",listener=\"app\",pool=\"default\"} 0.0");
		for (Socket client : this.clients) {
			client.close();
		}
		Map<String, Object> ok = this.application.awaitPool((p) -> "ok".equals(p.get("status")), "ok", WITHIN);
		assertThat(ok).extractingByKey("lastStarvation").asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
			.containsEntry("cause", "thread-per-connection")
			.containsKeys("began", "ended");
		assertThat(this.application.logLines()).filteredOn((line) -> line.contains("is starved: thread-per-connection"))
			.singleElement()
			.satisfies((line) -> assertThat(line).contains("WARN").contains("ariadne.server.io-model=event-loop"));
	}

	@Test
	void tunedProfileWithTwoHundredKeepAliveClientsStaysOk() throws Exception {
		this.application = SampleProcess.start("tuned");
		for (int i = 0; i < 200; i++) {
			Socket client = SampleProcess.send(this.application.appPort(), "/", "");
			this.clients.add(client);
			assertThat(SampleProcess.readHead(client)).startsWith("HTTP/1.1 200 ");
		}
		long until = System.nanoTime() + Duration.ofSeconds(6).toNanos();
		int busy = 0;
		while (System.nanoTime() < until) {
			String diagnosis = this.application.management("/actuator/ariadne/diagnosis");
			assertThat(JsonPath.<String>read(diagnosis, "$.status")).as(diagnosis).isEqualTo("ok");
			busy = JsonPath.read(this.application.management("/actuator/ariadne"), "$.listeners.app.pool.busy");
		}
		assertThat(busy).as("workers owning the 200 kept-alive connections").isEqualTo(200);
	}

}
