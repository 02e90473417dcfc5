package dev.ariadne.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.ariadne.AriadneServer;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.Middleware;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.RequestEvent;
import dev.ariadne.server.stats.RequestListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Tests for {@link AriadneAutoConfiguration}.
 */
class AriadneAutoConfigurationTest {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AriadneAutoConfiguration.class))
		.withPropertyValues("ariadne.server.port=0");

	@Test
	void startsServerThatAnswersRouteBeansOverASocket() {
		this.contextRunner.withBean("xRoute", Route.class, () -> Route.get("/x", (request, response) -> response.send("x!")))
			.run((context) -> {
				assertThat(context).hasSingleBean(AriadneServer.class).hasSingleBean(AriadneServerLifecycle.class);
				AriadneServer server = context.getBean(AriadneServer.class);
				assertThat(server.isRunning()).isTrue();
				RawHttp.Response response = RawHttp.exchange(server.port(), "GET /x HTTP/1.1\r\nHost: a\r\n\r\n");
				assertThat(response.statusLine()).startsWith("HTTP/1.1 200");
				assertThat(response.body()).isEqualTo("x!");
			});
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void servesRouteBeansWithEveryIoModel(IoModel ioModel) {
		assumeTrue(ioModel != IoModel.VIRTUAL_THREADS || Runtime.version().feature() >= 21,
				"virtual-threads needs Java 21 or later");
		this.contextRunner.withPropertyValues("ariadne.server.io-model=" + ioModel.value())
			.withBean("xRoute", Route.class, () -> Route.get("/x", (request, response) -> response.send("x!")))
			.run((context) -> {
				AriadneServer server = context.getBean(AriadneServer.class);
				assertThat(server.config().ioModel()).isEqualTo(ioModel);
				RawHttp.Response response = RawHttp.get(server.port(), "/x");
				assertThat(response.statusLine()).startsWith("HTTP/1.1 200");
				assertThat(response.body()).isEqualTo("x!");
			});
	}

	@Test
	void publishesPortAsPropertyAndInitializedEvent() {
		this.contextRunner.withUserConfiguration(EventCaptureConfiguration.class).run((context) -> {
			AriadneServer server = context.getBean(AriadneServer.class);
			assertThat(server.port()).isPositive();
			assertThat(context.getEnvironment().getProperty("local.ariadne.port", Integer.class)).isEqualTo(server.port());
			assertThat(context.getBean(EventCapture.class).events).singleElement()
				.extracting(AriadneServerInitializedEvent::getServer)
				.isSameAs(server);
		});
	}

	@Test
	void appliesProperties() {
		this.contextRunner
			.withPropertyValues("ariadne.server.io-model=event-loop", "ariadne.server.threads.max=42",
					"ariadne.server.threads.queue-capacity=77", "ariadne.server.keep-alive.timeout=5s",
					"ariadne.server.keep-alive.release-threshold=1", "ariadne.server.request.max-line-length=4KB",
					"ariadne.server.request.max-body-size=1MB", "ariadne.server.shutdown.grace-period=10s",
					"ariadne.server.buffers.budget=48MB")
			.run((context) -> {
				ServerConfig config = context.getBean(AriadneServer.class).config();
				assertThat(config.ioModel()).isEqualTo(IoModel.EVENT_LOOP);
				assertThat(config.maxThreads()).isEqualTo(42);
				assertThat(config.queueCapacity()).isEqualTo(77);
				assertThat(config.keepAliveTimeout()).isEqualTo(Duration.ofSeconds(5));
				assertThat(config.keepAliveReleaseThreshold()).isEqualTo(1.0);
				assertThat(config.limits().maxLineLength()).isEqualTo(4096);
				assertThat(config.limits().maxBodySize()).isEqualTo(1024 * 1024);
				assertThat(config.shutdownGracePeriod()).isEqualTo(Duration.ofSeconds(10));
				assertThat(config.bufferBudget()).isEqualTo(48L * 1024 * 1024);
				assertThat(context.getBean(AriadneServer.class).stats().buffersBudget()).isEqualTo(48L * 1024 * 1024);
			});
	}

	@Test
	void derivesTheBufferBudgetFromTheMaximumHeapWhenUnset() {
		this.contextRunner.run((context) -> assertThat(context.getBean(AriadneServer.class).config().bufferBudget())
			.isEqualTo(Math.max(16L * 1024 * 1024, Runtime.getRuntime().maxMemory() / 4)));
	}

	@Test
	void failsNamingTheBufferBudgetWhenTooSmall() {
		this.contextRunner.withPropertyValues("ariadne.server.buffers.budget=64KB").run((context) -> {
			InvalidConfigurationPropertyValueException failure = invalidProperty(context.getStartupFailure());
			assertThat(failure.getName()).isEqualTo("ariadne.server.buffers.budget");
			assertThat(failure.getValue()).isEqualTo("64KB");
			assertThat(failure.getMessage()).contains("at least 1048576 bytes");
		});
	}

	@Test
	void bindsIoModelByItsPropertyValue() {
		this.contextRunner.withUserConfiguration(UserServerConfiguration.class)
			.withPropertyValues("ariadne.server.io-model=event-loop")
			.run((context) -> assertThat(context.getBean(AriadneServerProperties.class).getIoModel())
				.isEqualTo(IoModel.EVENT_LOOP));
	}

	@Test
	void backsOffWhenApplicationDefinesServerAndStillRunsIt() {
		this.contextRunner.withUserConfiguration(UserServerConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(AriadneServer.class).hasBean("userServer");
			AriadneServer server = context.getBean(AriadneServer.class);
			assertThat(server.config().name()).isEqualTo("user");
			assertThat(server.isRunning()).isTrue();
		});
	}

	@Test
	void failsNamingThreadsMaxWhenItIsZero() {
		this.contextRunner.withPropertyValues("ariadne.server.threads.max=0")
			.run((context) -> assertThat(invalidProperty(context.getStartupFailure()).getName())
				.isEqualTo("ariadne.server.threads.max"));
	}

	@Test
	void failsNamingRequestLimitProperty() {
		this.contextRunner.withPropertyValues("ariadne.server.request.max-header-count=0")
			.run((context) -> assertThat(invalidProperty(context.getStartupFailure()).getName())
				.isEqualTo("ariadne.server.request.max-header-count"));
	}

	@Test
	void failsNamingSizePropertyThatOverflowsInt() {
		this.contextRunner.withPropertyValues("ariadne.server.request.max-header-size=3GB").run((context) -> {
			InvalidConfigurationPropertyValueException failure = invalidProperty(context.getStartupFailure());
			assertThat(failure.getName()).isEqualTo("ariadne.server.request.max-header-size");
			assertThat(failure.getValue()).isEqualTo("3GB");
		});
	}

	@Test
	void failsNamingIoModelAndAllowedValuesWhenUnknown() {
		this.contextRunner.withPropertyValues("ariadne.server.io-model=bogus").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasStackTraceContaining("ariadne.server.io-model")
				.hasStackTraceContaining("bogus")
				.hasStackTraceContaining("blocking, event-loop, virtual-threads");
		});
	}

	@Test
	void failsNamingBothPropertiesWhenGracePeriodOutlastsShutdownPhase() {
		this.contextRunner.withPropertyValues("ariadne.server.shutdown.grace-period=45s").run((context) -> {
			InvalidConfigurationPropertyValueException failure = invalidProperty(context.getStartupFailure());
			assertThat(failure.getName()).isEqualTo("ariadne.server.shutdown.grace-period");
			assertThat(failure.getMessage()).contains("spring.lifecycle.timeout-per-shutdown-phase").contains("30s");
		});
	}

	@Test
	void acceptsGracePeriodWithinLongerShutdownPhase() {
		this.contextRunner
			.withPropertyValues("ariadne.server.shutdown.grace-period=45s",
					"spring.lifecycle.timeout-per-shutdown-phase=1m")
			.run((context) -> assertThat(context.getBean(AriadneServer.class).config().shutdownGracePeriod())
				.isEqualTo(Duration.ofSeconds(45)));
	}

	@Test
	void runsMiddlewareInOrderAroundTheHandler() {
		this.contextRunner.withUserConfiguration(MiddlewareConfiguration.class).run((context) -> {
			RawHttp.Response response = RawHttp.get(context.getBean(AriadneServer.class).port(), "/trace");
			assertThat(response.body()).isEqualTo("handler");
			List<String> steps = context.getBean(Trace.class).steps;
			await().atMost(Duration.ofSeconds(5)).until(() -> steps.size() == 5);
			assertThat(steps).containsExactly("first", "second", "handler",
					"second done", "first done");
		});
	}

	@Test
	void appliesCustomizersAfterPropertiesInOrder() {
		this.contextRunner.withUserConfiguration(CustomizerConfiguration.class)
			.withPropertyValues("ariadne.server.threads.max=50", "ariadne.server.keep-alive.max-requests=5")
			.run((context) -> {
				ServerConfig config = context.getBean(AriadneServer.class).config();
				assertThat(config.maxThreads()).isEqualTo(70);
				assertThat(config.keepAliveMaxRequests()).isEqualTo(5);
			});
	}

	@Test
	void failsNamingCustomizersWhenTheyMakeConfigurationInvalid() {
		this.contextRunner
			.withBean(AriadneServerCustomizer.class, () -> (config) -> config.maxThreads(0))
			.run((context) -> assertThat(context.getStartupFailure())
				.hasStackTraceContaining("AriadneServerCustomizer")
				.hasStackTraceContaining("ariadne.server.threads.max"));
	}

	@Test
	void tellsRequestListenersAboutExchanges() {
		List<RequestEvent> events = new CopyOnWriteArrayList<>();
		this.contextRunner.withBean(RequestListener.class, () -> events::add)
			.withBean("okRoute", Route.class, () -> Route.get("/ok", (request, response) -> response.send("ok")))
			.run((context) -> {
				RawHttp.get(context.getBean(AriadneServer.class).port(), "/ok");
				await().atMost(Duration.ofSeconds(5)).until(() -> !events.isEmpty());
				assertThat(events.get(0).route()).isEqualTo("/ok");
				assertThat(events.get(0).status()).isEqualTo(200);
			});
	}

	@Test
	void closingContextLetsRequestInFlightFinish() {
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		ExecutorService executor = Executors.newCachedThreadPool();
		try {
			this.contextRunner.withBean("slowRoute", Route.class, () -> Route.get("/slow", (request, response) -> {
				entered.countDown();
				release.await(10, TimeUnit.SECONDS);
				response.send("done");
			})).run((context) -> {
				AriadneServer server = context.getBean(AriadneServer.class);
				Future<RawHttp.Response> inFlight = executor.submit(() -> RawHttp.get(server.port(), "/slow"));
				assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
				Future<?> closing = executor.submit(context::close);
				await().atMost(Duration.ofSeconds(5)).until(() -> !server.isRunning());
				assertThat(closing).isNotDone();
				release.countDown();
				assertThat(inFlight.get(10, TimeUnit.SECONDS).body()).isEqualTo("done");
				closing.get(10, TimeUnit.SECONDS);
			});
		}
		finally {
			release.countDown();
			executor.shutdownNow();
		}
	}

	private static InvalidConfigurationPropertyValueException invalidProperty(Throwable failure) {
		assertThat(failure).as("startup failure").isNotNull();
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof InvalidConfigurationPropertyValueException invalid) {
				return invalid;
			}
		}
		throw new AssertionError("No InvalidConfigurationPropertyValueException in", failure);
	}

	@Configuration(proxyBeanMethods = false)
	static class UserServerConfiguration {

		@Bean
		AriadneServer userServer() {
			return AriadneServer.builder(ServerConfig.builder().name("user").port(0).build()).build();
		}

	}

	static class EventCapture implements ApplicationListener<AriadneServerInitializedEvent> {

		final List<AriadneServerInitializedEvent> events = new CopyOnWriteArrayList<>();

		@Override
		public void onApplicationEvent(AriadneServerInitializedEvent event) {
			this.events.add(event);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class EventCaptureConfiguration {

		@Bean
		EventCapture eventCapture() {
			return new EventCapture();
		}

	}

	static class Trace {

		final List<String> steps = new CopyOnWriteArrayList<>();

	}

	@Configuration(proxyBeanMethods = false)
	static class MiddlewareConfiguration {

		@Bean
		Trace trace() {
			return new Trace();
		}

		// Declared before "first" so that only @Order can put it second.
		@Bean
		@Order(2)
		Middleware second(Trace trace) {
			return tracing(trace, "second");
		}

		@Bean
		@Order(1)
		Middleware first(Trace trace) {
			return tracing(trace, "first");
		}

		@Bean
		Route traceRoute(Trace trace) {
			return Route.get("/trace", (request, response) -> {
				trace.steps.add("handler");
				response.send("handler");
			});
		}

		private static Middleware tracing(Trace trace, String name) {
			return (request, response, next) -> {
				trace.steps.add(name);
				next.handle(request, response);
				trace.steps.add(name + " done");
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CustomizerConfiguration {

		// Declared first so that only @Order can make it run last.
		@Bean
		@Order(2)
		AriadneServerCustomizer last() {
			return (config) -> config.maxThreads(70);
		}

		@Bean
		@Order(1)
		AriadneServerCustomizer first() {
			return (config) -> config.maxThreads(60);
		}

	}

}
