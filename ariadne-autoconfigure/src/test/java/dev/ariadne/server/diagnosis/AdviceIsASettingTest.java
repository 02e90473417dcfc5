package dev.ariadne.server.diagnosis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import dev.ariadne.autoconfigure.AriadneServerProperties;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.stats.RouteWork;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Every piece of advice the diagnosis can give is something a user can do: an
 * {@code ariadne.server.*} property that Spring Boot binds, with a value it accepts, or one of
 * the documented actions ({@code instances}, {@code cores}, {@code handler}) or the kernel's
 * {@code net.core.somaxconn}. Checked over the rules' findings for many pictures of the default pool and
 * a route pool, in every model, covering every cause. (In the core's package, to reach the rules; here, for
 * Spring Boot's binder and the properties it binds.)
 */
class AdviceIsASettingTest {

	private static final Set<String> ACTIONS = Set.of(Advice.INSTANCES, Advice.CORES, Advice.HANDLER);

	@Test
	void everyAdviceIsABindablePropertyWithAValueOrADocumentedAction() {
		List<Finding> findings = findings();
		EnumSet<Cause> causes = EnumSet.noneOf(Cause.class);
		boolean saturated = false;
		for (Finding finding : findings) {
			if (finding.starved()) {
				causes.add(finding.cause());
			}
			else {
				saturated = true;
			}
			assertThat(finding.advice()).as("advice of %s", finding).isNotEmpty();
			for (Advice advice : finding.advice()) {
				check(advice);
			}
		}
		assertThat(causes).as("causes the pictures covered").containsExactlyInAnyOrder(Cause.values());
		assertThat(saturated).as("a cpu-saturated finding among them").isTrue();
	}

	private static void check(Advice advice) {
		String property = advice.property();
		if (ACTIONS.contains(property)) {
			if (property.equals(Advice.HANDLER)) {
				assertThat(advice.value()).as("%s", advice).matches("/.*|([A-Za-z_$][\\w$]*\\.)+[\\w$]+");
			}
			else {
				assertThat(Integer.parseInt(advice.value())).as("%s", advice).isPositive();
			}
			return;
		}
		if (property.equals(Advice.SOMAXCONN)) {
			assertThat(Integer.parseInt(advice.value())).as("%s", advice).isPositive();
			return;
		}
		assertThat(property).as("%s", advice).startsWith("ariadne.server.");
		Binder binder = new Binder(new MapConfigurationPropertySource(Map.of(property, advice.value())));
		assertThatNoException().as("binding %s", advice)
			.isThrownBy(() -> binder.bind("ariadne.server", Bindable.of(AriadneServerProperties.class),
					new NoUnboundElementsBindHandler(BindHandler.DEFAULT)));
	}

	/** The rules' findings for every combination of a model, a tally, routes, a queue and the CPU. */
	private static List<Finding> findings() {
		List<ServerConfig> configs = List.of(
				ServerConfig.builder().ioModel(IoModel.BLOCKING).maxThreads(4).keepAliveReleaseThreshold(1.0).build(),
				ServerConfig.builder().ioModel(IoModel.BLOCKING).maxThreads(4).build(),
				ServerConfig.builder().ioModel(IoModel.EVENT_LOOP).maxThreads(4).build(),
				ServerConfig.builder().ioModel(IoModel.EVENT_LOOP).maxThreads(1).lowResourcesEnabled(false).build(),
				ServerConfig.builder().ioModel(IoModel.VIRTUAL_THREADS).maxThreads(4).maxConnections(8).build());
		List<Samples> tallies = List.of(Samples.NONE, new Samples(4, 4, 0, 0, 0, 0, null, null, null, 0, null, 0),
				new Samples(4, 0, 2, 2, 0, 0, null, null, null, 0, null, 0),
				new Samples(4, 0, 0, 4, 0, 0, null, null, null, 0, null, 0),
				new Samples(4, 0, 0, 0, 4, 0, "Semaphore.acquire", "com.example.Repo.find", Thread.State.WAITING, 4,
						null, 0),
				new Samples(4, 0, 0, 0, 0, 4, null, null, null, 0, "com.example.Fib.compute", 4),
				new Samples(4, 0, 0, 0, 0, 0, null, null, null, 0, null, 0, 4));
		List<List<RouteWork>> routes = List.of(List.of(), List.of(new RouteWork("/api/report", 40, 19_000_000_000L)),
				List.of(new RouteWork("/api/report", 190, 19_000_000_000L), new RouteWork("/", 400, 40_000_000L)));
		double[][] queues = { { 16, -1 }, { 16, 0 }, { 12, 300 } };
		double[][] cpus = { { 0.5, 0.3 }, { 1.9, 0.97 } };
		long[][] listener = { { 3, 0, 0 }, { 8, 4, 0 }, { 100, 100, 40 } };
		List<Finding> findings = new ArrayList<>();
		for (ServerConfig config : configs) {
			for (Samples samples : tallies) {
				for (List<RouteWork> window : routes) {
					for (double[] queue : queues) {
						for (double[] cpu : cpus) {
							for (long[] connections : listener) {
								for (String pool : List.of("default", "compute")) {
									for (int http2 : new int[] { 0, 2 }) {
										Observation o = new Observation(pool, pool.equals("default"), config, 4, 4, 16,
												(int) connections[0], connections[1], connections[1], 100,
												connections[2], Duration.ofSeconds(18), samples, window, 5, cpu[0],
												cpu[1], 2, queue[0], (long) queue[1], false, http2, 4 * http2, 0, 0);
										Finding finding = Rules.decide(o);
										if (finding != null) {
											findings.add(finding);
										}
									}
								}
							}
						}
					}
				}
			}
			// HTTP/2 connections at their stream limit while workers are free
			findings.add(Rules.decide(new Observation("default", true, config, 1, 4, 0, 3, 0, 0, 100, 0, Duration.ZERO,
					Samples.NONE, List.of(), 5, 0.5, 0.3, 2, 0, 0, false, 3, 0, 3, 0)));
			// WebSocket sessions on every worker while a connection waits (a cause in blocking only)
			for (int limit : new int[] { 0, 2, 50 }) {
				ServerConfig sessions = config.toBuilder().webSocket(config.webSocket().withMaxSessions(limit)).build();
				Finding finding = Rules.decide(new Observation("default", true, sessions, 4, 4, 1, 5, 0, 0, 100, 0,
						Duration.ZERO, Samples.NONE, List.of(), 5, 0.5, 0.3, 2, 1, 0, false, 0, 0, 0, 4));
				if (finding != null) {
					findings.add(finding);
				}
			}
		}
		return findings;
	}

}
