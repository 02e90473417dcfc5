package dev.ariadne.autoconfigure;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.ariadne.AriadneServer;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ReadinessOnCloseListener}.
 */
class ReadinessOnCloseListenerTest {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(ApplicationAvailabilityAutoConfiguration.class, AriadneAutoConfiguration.class))
		.withPropertyValues("ariadne.server.port=0");

	@Test
	void refusesTrafficWhenTheContextClosesBeforeTheServerDrains() {
		this.contextRunner.withUserConfiguration(ReadinessRecorderConfiguration.class).run((context) -> {
			AriadneServer server = context.getBean(AriadneServer.class);
			ReadinessRecorder recorder = context.getBean(ReadinessRecorder.class);
			ApplicationAvailability availability = context.getBean(ApplicationAvailability.class);
			assertThat(server.isRunning()).isTrue();
			assertThat(recorder.changes).isEmpty();
			context.close();
			assertThat(recorder.changes).containsExactly("REFUSING_TRAFFIC while the server was running");
			assertThat(server.isRunning()).isFalse();
			assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
		});
	}

	@Test
	void ignoresAChildContextClosing() {
		this.contextRunner.withUserConfiguration(ReadinessRecorderConfiguration.class).run((context) -> {
			try (AnnotationConfigApplicationContext child = new AnnotationConfigApplicationContext()) {
				child.setParent(context);
				child.refresh();
			}
			assertThat(context.getBean(ReadinessRecorder.class).changes).isEmpty();
		});
	}

	static class ReadinessRecorder implements ApplicationListener<AvailabilityChangeEvent<ReadinessState>> {

		final List<String> changes = new CopyOnWriteArrayList<>();

		private final ObjectProvider<AriadneServer> server;

		ReadinessRecorder(ObjectProvider<AriadneServer> server) {
			this.server = server;
		}

		@Override
		public void onApplicationEvent(AvailabilityChangeEvent<ReadinessState> event) {
			boolean running = this.server.getObject().isRunning();
			this.changes.add(event.getState() + (running ? " while the server was running" : " after it stopped"));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ReadinessRecorderConfiguration {

		@Bean
		ReadinessRecorder readinessRecorder(ObjectProvider<AriadneServer> server) {
			return new ReadinessRecorder(server);
		}

	}

}
