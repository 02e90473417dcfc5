package dev.ariadne.it.mvc;

import dev.ariadne.server.IoModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a Spring MVC application on Ariadne logs at startup: the line Boot's own servers log, in
 * their shape, then the listener's model on a line of its own; and, when its Actuator endpoints
 * are served by its own {@code blocking} listener, that its metrics and health starve with its
 * pool and which setting gives them threads of their own (with {@code management.server.port},
 * or another model, it is not told so).
 */
@ExtendWith(OutputCaptureExtension.class)
class StartupLogIT {

	private static final String WARNING = "when the pool is starved, metrics and health starve with it. "
			+ "Set management.server.port";

	@Test
	void logsTheStartedLineInTheShapeBootsServersLogItThenTheModel(CapturedOutput output) {
		try (ConformanceApp app = ConformanceApp.start(IoModel.EVENT_LOOP)) {
			assertThat(output)
				.containsPattern("Ariadne started on port " + app.port() + " \\(http\\) with context path '"
						+ ConformanceApp.CONTEXT_PATH + "'\\R")
				.containsPattern("Ariadne started on port " + app.managementPort()
						+ " \\(http\\) with context path '/'\\R")
				.contains("Ariadne 'app' listener on port " + app.port() + ": io-model event-loop, threads.max 200")
				.contains("Ariadne 'management' listener on port " + app.managementPort() + ": io-model event-loop");
		}
	}

	@Test
	void blockingApplicationServingActuatorOnItsOwnListenerIsWarned(CapturedOutput output) {
		try (ConformanceApp app = ConformanceApp.start(IoModel.BLOCKING, "management.server.port=",
				"management.server.address=")) {
			assertThat(output).contains(WARNING).contains("each connection a worker of its 200");
		}
	}

	@Test
	void blockingApplicationWithAManagementPortIsNotWarned(CapturedOutput output) {
		try (ConformanceApp app = ConformanceApp.start(IoModel.BLOCKING)) {
			assertThat(app.managementPort()).isNotEqualTo(app.port());
			assertThat(output).doesNotContain(WARNING);
		}
	}

	@Test
	void eventLoopApplicationServingActuatorOnItsOwnListenerIsNotWarned(CapturedOutput output) {
		try (ConformanceApp app = ConformanceApp.start(IoModel.EVENT_LOOP, "management.server.port=",
				"management.server.address=")) {
			assertThat(output).doesNotContain(WARNING);
		}
	}

}
