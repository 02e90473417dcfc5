package dev.ariadne;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.diagnosis.Diagnosis;
import dev.ariadne.server.diagnosis.History;
import dev.ariadne.server.diagnosis.Verdict;
import dev.ariadne.server.routing.Route;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Busy is not starved: a server at full speed and a server holding 10,000 idle connections on
 * the event loop keep an {@code ok} verdict through several evaluations.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DiagnosisFalsePositivesIT {

	private static final int EVALUATIONS = 6;

	private AriadneServer server;

	private Process clients;

	@AfterEach
	void cleanUp() throws InterruptedException {
		if (this.clients != null) {
			this.clients.destroy();
			if (!this.clients.waitFor(10, TimeUnit.SECONDS)) {
				this.clients.destroyForcibly();
			}
		}
		if (this.server != null) {
			this.server.stop();
		}
	}

	@Test
	void plaintextAtFullSpeedOn256ConnectionsStaysOk() throws Exception {
		this.server = Servers.start(IoModel.EVENT_LOOP, (config) -> config,
				Route.get("/", (request, response) -> response.send("Hello")));
		List<Verdict> starved = new ArrayList<>();
		try (StarvationDiagnosisIT.Load load = new StarvationDiagnosisIT.Load(this.server.port(), "/", 256)) {
			watch(starved);
			assertThat(load.exchanges()).as("exchanges during the run").isGreaterThan(1000);
		}
		assertThat(starved).as("starved verdicts at full speed").isEmpty();
	}

	@Test
	void tenThousandIdleConnectionsOnTheEventLoopStayOk() throws Exception {
		int idle = 10_000;
		this.server = Servers.start(IoModel.EVENT_LOOP, (config) -> config.acceptBacklog(1024),
				Route.get("/", (request, response) -> response.send("Hello")));
		this.clients = startIdleClients(this.server.port(), idle);
		try (BufferedReader out = new BufferedReader(
				new InputStreamReader(this.clients.getInputStream(), StandardCharsets.US_ASCII))) {
			assertThat(out.readLine()).as("the client process's report").isEqualTo("HELD " + idle);
		}
		Await.until(Duration.ofSeconds(30), () -> this.server.stats().idleConnections() == idle,
				() -> "idle " + this.server.stats().idleConnections());
		List<Verdict> starved = new ArrayList<>();
		watch(starved);
		assertThat(starved).as("starved verdicts with %d idle connections", idle).isEmpty();
		History.Sample last = diagnosis().history().samples().get(diagnosis().history().samples().size() - 1);
		assertThat(last.idleConnections()).isEqualTo(idle);
	}

	/** Reads every verdict until the diagnosis has evaluated {@link #EVALUATIONS} more times. */
	private void watch(List<Verdict> starved) {
		int before = diagnosis().history().samples().size();
		Await.until(Duration.ofSeconds(EVALUATIONS * 3), () -> {
			diagnosis().verdicts().stream().filter(Verdict::starved).forEach(starved::add);
			return diagnosis().history().samples().size() >= Math.min(before + EVALUATIONS, Diagnosis.HISTORY_SAMPLES);
		}, () -> "evaluations seen " + (diagnosis().history().samples().size() - before));
	}

	private Diagnosis diagnosis() {
		return this.server.diagnosis().orElseThrow();
	}

	private static Process startIdleClients(int port, int count) throws IOException {
		String java = ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java");
		String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
		return new ProcessBuilder(java, "-Xmx96m", "-XX:+UseSerialGC", "-cp", classpath, IdleClients.class.getName(),
				Integer.toString(port), Integer.toString(count))
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
	}

}
