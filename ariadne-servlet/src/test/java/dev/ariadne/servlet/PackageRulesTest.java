package dev.ariadne.servlet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The package rule of STYLE.md for {@code dev.ariadne.servlet}: the core's API ({@code http},
 * {@code server}, {@code server.stats}), {@code jakarta.servlet} and the JDK; never Spring,
 * Micrometer, or a core model package. Jakarta WebSocket and Tyrus, optional dependencies, only
 * in {@code dev.ariadne.servlet.websocket}, which the container itself never imports, and which
 * may also use the core's WebSocket codec ({@code dev.ariadne.websocket}) and the API of its
 * WebSocket sessions ({@code dev.ariadne.server.websocket}, which routes use too).
 */
class PackageRulesTest {

	private static final Pattern IMPORT = Pattern.compile("^import (?:static )?([\\w.]+)\\.[\\w*]+;", Pattern.MULTILINE);

	private static final List<String> ALLOWED = List.of("java.", "javax.net.ssl", "jakarta.servlet", "dev.ariadne.servlet",
			"dev.ariadne.http", "dev.ariadne.server.stats");

	/**
	 * Beside the API, the WebSocket package may use the core's WebSocket codec (no sockets, no
	 * threads) and the API of the core's WebSocket sessions, on which Spring's Jakarta sessions run.
	 */
	private static final List<String> WEBSOCKET_ONLY = List.of("jakarta.websocket", "org.glassfish.tyrus",
			"dev.ariadne.websocket", "dev.ariadne.server.websocket");

	private static final Path WEBSOCKET = Path.of("src/main/java/dev/ariadne/servlet/websocket");

	@Test
	void mainCodeImportsOnlyTheCoreApiTheServletApiAndTheJdk() throws IOException {
		List<String> violations = new ArrayList<>();
		int scanned = 0;
		try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
			for (Path file : files.filter((path) -> path.toString().endsWith(".java")).toList()) {
				scanned++;
				boolean websocket = file.startsWith(WEBSOCKET);
				Matcher imports = IMPORT.matcher(Files.readString(file));
				while (imports.find()) {
					String pkg = imports.group(1);
					boolean allowed = pkg.equals("dev.ariadne.server") || ALLOWED.stream().anyMatch(pkg::startsWith)
							|| (websocket && WEBSOCKET_ONLY.stream().anyMatch(pkg::startsWith));
					if (!websocket && pkg.startsWith("dev.ariadne.servlet.websocket")) {
						allowed = false;
					}
					if (!allowed) {
						violations.add(file.getFileName() + " imports " + imports.group(0));
					}
				}
			}
		}
		assertThat(scanned).as("source files scanned").isGreaterThan(30);
		assertThat(violations).isEmpty();
	}

}
