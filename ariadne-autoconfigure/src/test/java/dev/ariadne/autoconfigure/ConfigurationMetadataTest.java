package dev.ariadne.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the configuration metadata generated from {@link AriadneServerProperties} and
 * merged with {@code additional-spring-configuration-metadata.json}.
 */
class ConfigurationMetadataTest {

	private static final List<String> DESIGNED_PROPERTIES = List.of("port", "address", "io-model", "threads.max",
			"threads.min", "threads.queue-capacity", "selectors", "accept-backlog", "max-connections",
			"keep-alive.enabled", "keep-alive.timeout", "keep-alive.max-requests", "keep-alive.release-threshold",
			"request.header-timeout", "request.max-line-length", "request.max-header-size",
			"request.max-header-count", "request.max-body-size", "buffers.budget", "shutdown.grace-period",
			"health.saturation-readiness", "health.shedding.reaction-time", "health.shedding.max-out",
			"health.shedding.min-in", "health.shedding.min-weight", "health.agent.port", "health.agent.address", "diagnosis.enabled",
			"http2.enabled", "http2.max-concurrent-streams", "http2.initial-window-size", "http2.connection-window-size",
			"http2.max-frame-size", "http2.max-header-list-size", "http2.max-control-frames", "http2.max-resets",
			"http2.rate-window", "http2.write-timeout", "forwarded.enabled", "forwarded.trusted-proxies",
			"accesslog.enabled", "accesslog.format", "accesslog.pattern", "accesslog.console", "accesslog.directory",
			"accesslog.prefix", "accesslog.suffix", "accesslog.file-date-format", "accesslog.rotate",
			"accesslog.max-days", "accesslog.queue-capacity");

	@Test
	void describesThreadsMaxWithItsDefault() throws IOException {
		Map<String, Object> threadsMax = property("ariadne.server.threads.max");
		assertThat(threadsMax).containsEntry("type", "java.lang.Integer").containsEntry("defaultValue", 200);
		assertThat((String) threadsMax.get("description")).startsWith("Maximum number of worker threads.");
	}

	@Test
	void describesEveryDesignedProperty() throws IOException {
		for (String name : DESIGNED_PROPERTIES) {
			Map<String, Object> property = property("ariadne.server." + name);
			assertThat((String) property.get("description")).as(name).isNotBlank().doesNotStartWith("The ");
		}
	}

	@Test
	void publishesLiteralDefaults() throws IOException {
		assertThat(property("ariadne.server.port")).containsEntry("defaultValue", 8080);
		assertThat(property("ariadne.server.io-model")).containsEntry("defaultValue", "event-loop");
		assertThat(property("ariadne.server.keep-alive.enabled")).containsEntry("defaultValue", true);
		assertThat(property("ariadne.server.keep-alive.timeout")).containsEntry("defaultValue", "20s");
		assertThat(property("ariadne.server.keep-alive.release-threshold")).containsEntry("defaultValue", 0.75);
		assertThat(property("ariadne.server.request.max-line-length")).containsEntry("defaultValue", "8KB");
		assertThat(property("ariadne.server.request.max-body-size")).containsEntry("defaultValue", "10MB");
		assertThat(property("ariadne.server.shutdown.grace-period")).containsEntry("defaultValue", "30s");
		assertThat(property("ariadne.server.health.shedding.reaction-time")).containsEntry("defaultValue", "1s");
		assertThat(property("ariadne.server.health.shedding.max-out")).containsEntry("defaultValue", "5s");
		assertThat(property("ariadne.server.health.shedding.min-in")).containsEntry("defaultValue", "10s");
		assertThat(property("ariadne.server.health.shedding.min-weight")).containsEntry("defaultValue", 0.05);
		assertThat(property("ariadne.server.diagnosis.enabled")).containsEntry("defaultValue", true);
		assertThat(property("ariadne.server.http2.max-concurrent-streams")).containsEntry("defaultValue", 100);
		assertThat(property("ariadne.server.http2.initial-window-size")).containsEntry("defaultValue", "65535B");
		assertThat(property("ariadne.server.http2.connection-window-size")).containsEntry("defaultValue", "1MB");
		assertThat(property("ariadne.server.http2.max-frame-size")).containsEntry("defaultValue", "16KB");
		assertThat(property("ariadne.server.http2.max-control-frames")).containsEntry("defaultValue", 1000);
		assertThat(property("ariadne.server.http2.max-resets")).containsEntry("defaultValue", 200);
		assertThat(property("ariadne.server.http2.rate-window")).containsEntry("defaultValue", "30s");
		assertThat(property("ariadne.server.http2.write-timeout")).containsEntry("defaultValue", "20s");
		assertThat(property("ariadne.server.forwarded.trusted-proxies")).containsEntry("defaultValue",
				dev.ariadne.server.ForwardedConfig.INTERNAL_PROXIES);
		assertThat(property("ariadne.server.accesslog.enabled")).containsEntry("defaultValue", false);
		assertThat(property("ariadne.server.accesslog.format")).containsEntry("defaultValue", "combined");
		assertThat(property("ariadne.server.accesslog.directory")).containsEntry("defaultValue", "logs");
		assertThat(property("ariadne.server.accesslog.prefix")).containsEntry("defaultValue", "access_log");
		assertThat(property("ariadne.server.accesslog.suffix")).containsEntry("defaultValue", ".log");
		assertThat(property("ariadne.server.accesslog.file-date-format")).containsEntry("defaultValue", ".yyyy-MM-dd");
		assertThat(property("ariadne.server.accesslog.rotate")).containsEntry("defaultValue", true);
		assertThat(property("ariadne.server.accesslog.max-days")).containsEntry("defaultValue", -1);
		assertThat(property("ariadne.server.accesslog.queue-capacity")).containsEntry("defaultValue", 8192);
	}

	@Test
	void hintsEveryAccessLogFormatWithADescription() throws IOException {
		List<Map<String, Object>> values = metadata()
			.read("$.hints[?(@.name == 'ariadne.server.accesslog.format')].values[*]");
		assertThat(values).extracting((value) -> value.get("value")).containsExactly("common", "combined", "json");
		assertThat(values).allSatisfy((value) -> assertThat((String) value.get("description")).isNotBlank());
	}

	@Test
	void describesTheAdditionalListenersAsOneListPropertyNamingTheFieldsOfAnEntry() throws IOException {
		// as Boot's own lists of objects (server.ssl.server-name-bundles): the processor does not
		// descend into the entries, so the description names their fields
		Map<String, Object> listeners = property("ariadne.server.additional-listeners");
		assertThat(listeners).containsEntry("type",
				"java.util.List<dev.ariadne.autoconfigure.AdditionalListenerProperties>");
		assertThat((String) listeners.get("description")).contains("port (required)", "address", "name",
				"ssl.bundle", "http2.enabled");
	}

	@Test
	void hintsEveryIoModelValueWithADescription() throws IOException {
		List<Map<String, Object>> values = metadata()
			.read("$.hints[?(@.name == 'ariadne.server.io-model')].values[*]");
		assertThat(values).extracting((value) -> value.get("value"))
			.containsExactly("blocking", "event-loop", "virtual-threads");
		assertThat(values).allSatisfy((value) -> assertThat((String) value.get("description")).isNotBlank());
	}

	private static Map<String, Object> property(String name) throws IOException {
		List<Map<String, Object>> matches = metadata().read("$.properties[?(@.name == '" + name + "')]");
		assertThat(matches).as(name).hasSize(1);
		return matches.get(0);
	}

	private static DocumentContext metadata() throws IOException {
		// Every Spring Boot jar has a file of this name too: pick the one describing Ariadne.
		Enumeration<URL> resources = ConfigurationMetadataTest.class.getClassLoader()
			.getResources("META-INF/spring-configuration-metadata.json");
		while (resources.hasMoreElements()) {
			try (InputStream in = resources.nextElement().openStream()) {
				DocumentContext metadata = JsonPath.parse(in);
				List<String> groups = metadata.read("$.groups[*].name");
				if (groups.contains("ariadne.server")) {
					return metadata;
				}
			}
		}
		throw new AssertionError("No configuration metadata describes ariadne.server");
	}

}
