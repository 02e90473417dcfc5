package dev.ariadne.sample;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.jayway.jsonpath.JsonPath;
import dev.ariadne.Await;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample application as Boot's AOT engine processed it at build time ({@code process-aot},
 * bound in this module's build), started from its jar with {@code -Dspring.aot.enabled=true}:
 * the generated bean definitions replace the start-up analysis, as in a native image (GraalVM
 * itself does not run here, so the processed application runs on the JVM). It serves Spring
 * MVC, a {@code Route} bean, an additional listener, Actuator on the management port and the
 * live page; and the build wrote the hints a native image of it needs.
 */
class SampleAotIT {

	private static final Path METADATA = Path.of("target", "classes", "META-INF", "native-image", "dev.ariadne",
			"ariadne-sample-app", "reachability-metadata.json");

	@Test
	void theAotProcessedApplicationServesOnAriadne() throws Exception {
		int second = SampleProcess.freePort();
		try (SampleProcess sample = SampleProcess.start(List.of("-Dspring.aot.enabled=true"), "default",
				"--ariadne.server.additional-listeners[0].port=" + second,
				"--ariadne.server.additional-listeners[0].name=second")) {
			assertThat(sample.logLines()).anyMatch((line) -> line.contains("Starting AOT-processed SampleApplication"));
			assertThat(SampleProcess.get(sample.appPort(), "/")).isEqualTo("Hello from Ariadne!");
			assertThat(SampleProcess.get(sample.appPort(), "/api/compute")).isEqualTo("832040");
			assertThat(SampleProcess.get(sample.appPort(), "/ping")).isEqualTo("pong");
			assertThat(SampleProcess.get(second, "/ping")).isEqualTo("pong");
			Await.until(() -> scrape(sample).contains(requests("app", "/api/compute"))
					&& scrape(sample).contains(requests("second", "/ping")),
					() -> "the exchanges on /actuator/prometheus");
			assertThat(scrape(sample)).contains("ariadne_pool_threads_max{listener=\"app\",pool=\"default\"} 200")
				.contains("ariadne_pool_threads_max{listener=\"second\",pool=\"default\"} 200")
				.contains("ariadne_pool_threads_max{listener=\"management\",pool=\"default\"} 2")
				.contains(requests("app", "/ping"));
			assertThat(sample.management("/actuator/ariadne/live")).startsWith("<!DOCTYPE html>");
		}
	}

	@Test
	void theBuildWroteTheHintsANativeImageOfItNeeds() throws Exception {
		assertThat(METADATA).as("the metadata process-aot writes").exists();
		String metadata = Files.readString(METADATA);
		List<String> resources = JsonPath.read(metadata, "$.resources[*].glob");
		assertThat(resources).contains("dev/ariadne/version.properties",
				"dev/ariadne/autoconfigure/actuate/ariadne-live.html");
		List<String> types = JsonPath.read(metadata, "$.reflection[*].type");
		assertThat(types).contains("java.lang.Thread$Builder", "dev.ariadne.autoconfigure.actuate.DiagnosisDescriptor",
				"dev.ariadne.autoconfigure.actuate.HistoryDescriptor$ListenerHistory",
				"dev.ariadne.autoconfigure.AriadneServerProperties",
				"dev.ariadne.autoconfigure.AdditionalListenerProperties");
		List<String> builderMethods = JsonPath.read(metadata,
				"$.reflection[?(@.type == 'java.lang.Thread$Builder')].methods[*].name");
		assertThat(builderMethods).containsExactlyInAnyOrder("name", "factory");
	}

	private static String requests(String listener, String route) {
		return "ariadne_requests_seconds_count{listener=\"" + listener
				+ "\",method=\"GET\",outcome=\"SUCCESS\",refusal=\"none\",route=\"" + route + "\",status=\"200\"} 1";
	}

	private static String scrape(SampleProcess sample) {
		try {
			return sample.management("/actuator/prometheus");
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
