package dev.ariadne;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The project compiles for Java 17, where there are no virtual threads: a server started there
 * with {@code io-model=virtual-threads} fails at once, saying which setting needs Java 21 and
 * which one to set instead, one that exists. Runs a server in a Java 17 JVM when this machine
 * has one ({@code JAVA17_HOME}, or under {@code /usr/lib/jvm}), and is skipped otherwise.
 */
class OlderJavaIT {

	@Test
	void virtualThreadsOnJava17FailNamingTheSettingToChooseInstead() throws Exception {
		Optional<Path> java17 = java17();
		assumeTrue(java17.isPresent(), "no Java 17 on this machine (JAVA17_HOME, /usr/lib/jvm)");
		String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
		Process process = new ProcessBuilder(java17.get().toString(), "-cp", classpath, ChildServer.class.getName(),
				"model=virtual-threads")
			.redirectErrorStream(true)
			.start();
		try {
			assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the server gave up").isTrue();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			assertThat(process.exitValue()).as(output).isNotZero();
			assertThat(output).contains("ariadne.server.io-model=virtual-threads needs Java 21 or later")
				.contains("this JVM is Java 17")
				.contains("set ariadne.server.io-model=event-loop (or blocking)")
				.doesNotContain("PORT ");
		}
		finally {
			process.destroyForcibly();
		}
	}

	private static Optional<Path> java17() throws IOException {
		String home = System.getenv("JAVA17_HOME");
		if (home != null) {
			return Optional.of(Paths.get(home, "bin", "java")).filter(Files::isExecutable);
		}
		Path jvms = Paths.get("/usr/lib/jvm");
		if (!Files.isDirectory(jvms)) {
			return Optional.empty();
		}
		try (Stream<Path> homes = Files.list(jvms)) {
			List<Path> candidates = homes.filter((path) -> path.getFileName().toString().matches(".*\\b17\\b.*"))
				.map((path) -> path.resolve("bin/java"))
				.filter(Files::isExecutable)
				.sorted()
				.toList();
			return candidates.stream().findFirst();
		}
	}

}
