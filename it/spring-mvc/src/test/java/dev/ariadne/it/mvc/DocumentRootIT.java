package dev.ariadne.it.mvc;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.ariadne.RawClient;
import dev.ariadne.RawResponse;
import dev.ariadne.server.IoModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * The files of {@code src/main/webapp}, the document root Boot finds in the module's directory
 * (the working directory of the tests) as it does for Tomcat and Jetty: served by Spring MVC's
 * resource handler on {@code /**}, which reads the servlet context's resources; and, with
 * {@code server.servlet.register-default-servlet=true} and Spring MVC's default servlet
 * handling, by the container's default servlet, to which Spring forwards what no handler maps.
 * In every I/O model.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(IoModel.class)
class DocumentRootIT {

	private static final Path WEBAPP = Path.of("src/main/webapp");

	private static final String TEXT = "Served from src/main/webapp.\n";

	private final IoModel model;

	DocumentRootIT(IoModel model) {
		this.model = model;
	}

	@Test
	void servesAFileOfSrcMainWebappThroughSpringMvc() throws Exception {
		ConformanceApp app = ConformanceApp.shared(this.model);
		HttpResponse<String> file = app.get("/webapp.txt");
		assertThat(file.statusCode()).isEqualTo(200);
		assertThat(file.body()).isEqualTo(TEXT);
		assertThat(file.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("text/plain"));
		HttpResponse<String> secret = app.get("/WEB-INF/secret.txt");
		assertThat(secret.statusCode()).isEqualTo(404);
		assertThat(secret.body()).doesNotContain("SECRET");
	}

	@Test
	void theDefaultServletServesWhatSpringMvcHandsOverByName() throws Exception {
		String etag = "W/\"" + Files.size(WEBAPP.resolve("webapp.txt")) + "-"
				+ Files.getLastModifiedTime(WEBAPP.resolve("webapp.txt")).toMillis() + "\"";
		// Boot's resource handler off: a file can only come from the container
		try (ConformanceApp app = ConformanceApp.start(this.model, "server.servlet.register-default-servlet=true",
				"spring.web.resources.add-mappings=false", "conformance.default-servlet=true")) {
			HttpResponse<String> file = app.get("/webapp.txt");
			assertThat(file.statusCode()).isEqualTo(200);
			assertThat(file.body()).isEqualTo(TEXT);
			assertThat(file.headers().firstValue("ETag")).hasValue(etag);
			assertThat(file.headers().firstValue("Accept-Ranges")).hasValue("bytes");
			HttpResponse<String> range = app.get("/webapp.txt", "Range", "bytes=0-5");
			assertThat(range.statusCode()).isEqualTo(206);
			assertThat(range.headers().firstValue("Content-Range")).hasValue("bytes 0-5/" + TEXT.length());
			assertThat(range.body()).isEqualTo("Served");
			assertThat(app.get("/webapp.txt", "If-None-Match", etag).statusCode()).isEqualTo(304);
			HttpResponse<String> directory = app.get("/docs");
			assertThat(directory.statusCode()).isEqualTo(302);
			assertThat(directory.headers().firstValue("Location")).hasValueSatisfying(
					(location) -> assertThat(location).endsWith("/app/docs/"));
			assertThat(app.get("/docs/").body()).contains("The welcome file of a directory");
			HttpResponse<String> secret = app.get("/WEB-INF/secret.txt");
			assertThat(secret.statusCode()).isEqualTo(404);
			assertThat(secret.body()).doesNotContain("SECRET");
			assertThat(app.get("/missing.txt").statusCode()).isEqualTo(404);
			assertThat(app.get("/files/alphabet.txt").statusCode()).as("classpath:/static is Spring's").isEqualTo(404);
			assertThat(app.get("/api/protocol").statusCode()).as("the controllers still answer").isEqualTo(200);
			try (RawClient client = app.raw()) {
				RawResponse head = client.send("HEAD /app/webapp.txt HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
					.readHeadResponse();
				assertThat(head.status()).isEqualTo(200);
				assertThat(head.header("Content-Length")).isEqualTo(Integer.toString(TEXT.length()));
			}
		}
	}

	@Test
	void springMvcFindsNoDefaultServletUnlessBootRegistersIt() throws IOException {
		// Boot's default, as on Tomcat and Jetty: server.servlet.register-default-servlet=false
		assertThatException().isThrownBy(() -> ConformanceApp.start(this.model, "conformance.default-servlet=true").close())
			.withStackTraceContaining("default servlet");
	}

}
