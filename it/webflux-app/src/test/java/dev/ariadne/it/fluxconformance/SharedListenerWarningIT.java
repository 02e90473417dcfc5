package dev.ariadne.it.fluxconformance;

import dev.ariadne.server.IoModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A WebFlux application whose Actuator endpoints are served by its own {@code blocking}
 * listener is told at startup that its metrics and health starve with its pool, and which
 * setting gives them threads of their own; with {@code management.server.port} it is not.
 */
@ExtendWith(OutputCaptureExtension.class)
class SharedListenerWarningIT {

	private static final String WARNING = "when the pool is starved, metrics and health starve with it. "
			+ "Set management.server.port";

	@Test
	void blockingApplicationServingActuatorOnItsOwnListenerIsWarned(CapturedOutput output) {
		try (FluxApp app = FluxApp.onAriadne(IoModel.BLOCKING, "management.server.port=",
				"management.server.address=")) {
			assertThat(output).contains(WARNING);
		}
	}

	@Test
	void blockingApplicationWithAManagementPortIsNotWarned(CapturedOutput output) {
		try (FluxApp app = FluxApp.onAriadne(IoModel.BLOCKING)) {
			assertThat(app.managementPort()).isNotEqualTo(app.port());
			assertThat(output).doesNotContain(WARNING);
		}
	}

}
