package dev.ariadne.autoconfigure;

import dev.ariadne.AriadneServer;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.PoolStats;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Route pools configured with {@code ariadne.server.pools.*} and
 * {@code ariadne.server.routes[...].pool}.
 */
class RoutePoolsAutoConfigurationTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AriadneAutoConfiguration.class))
		.withUserConfiguration(Routes.class)
		.withPropertyValues("ariadne.server.port=0", "ariadne.server.address=127.0.0.1");

	@Test
	void declaresPoolsAndAssignsRoutesByTemplate() {
		this.runner
			.withPropertyValues("ariadne.server.pools.compute.threads=1", "ariadne.server.pools.compute.queue-capacity=3",
					"ariadne.server.routes[/api/compute].pool=compute")
			.run((context) -> {
				AriadneServer server = context.getBean(AriadneServer.class);
				assertThat(server.config().pools()).containsEntry("compute", new ServerConfig.PoolConfig(1, 3, false));
				assertThat(server.router().routes()).filteredOn((route) -> route.template().equals("/api/compute"))
					.extracting(Route::pool)
					.containsExactly("compute");
				assertThat(server.stats().pools()).extracting(PoolStats::name).containsExactly("default", "compute");
				assertThat(RawHttp.get(server.port(), "/api/compute").body()).isEqualTo("832040");
			});
	}

	@Test
	void matchesAKeyWrittenWithoutBrackets() {
		this.runner.withPropertyValues("ariadne.server.pools.compute.threads=2", "ariadne.server.routes.apicompute.pool=compute")
			.run((context) -> assertThat(context.getBean(AriadneServer.class).router().routes())
				.filteredOn((route) -> route.template().equals("/api/compute"))
				.extracting(Route::pool)
				.containsExactly("compute"));
	}

	@Test
	void failsNamingThePropertyWhenAPoolHasNoThreads() {
		this.runner.withPropertyValues("ariadne.server.pools.compute.queue-capacity=3")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("ariadne.server.pools.compute.threads"));
	}

	@Test
	void failsNamingThePropertyWhenARouteKeyMatchesNoRoute() {
		this.runner.withPropertyValues("ariadne.server.pools.compute.threads=1", "ariadne.server.routes[/nope].pool=compute")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("ariadne.server.routes[/nope].pool")
				.hasMessageContaining("/api/compute"));
	}

	@Test
	void failsNamingThePoolPropertyWhenARouteNamesAnUndeclaredPool() {
		this.runner.withPropertyValues("ariadne.server.routes[/api/compute].pool=cpu")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("ariadne.server.pools.cpu"));
	}

	@Configuration(proxyBeanMethods = false)
	static class Routes {

		@Bean
		Route compute() {
			return Route.get("/api/compute", (request, response) -> response.send("832040"));
		}

		@Bean
		Route home() {
			return Route.get("/", (request, response) -> response.send("home"));
		}

	}

}
