package dev.ariadne.it.hostile;

import java.io.IOException;
import java.io.InputStream;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.CookieValue;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MultipartFile;

/**
 * The application a new user writes on the starter, and the attacker probes: one controller,
 * Actuator on a management port of its own, nothing in it that knows about Ariadne or about
 * attacks. {@link HostileClientsIT} runs it in a JVM of its own ({@code -Xmx256m}), started from
 * {@link #main}; {@link HeapProbe} is the only part that is there for the test.
 *
 * <p>Spring Security is on this module's classpath for the conformance application; a new
 * user's application has none, so its auto-configuration is left out here.
 */
@SpringBootApplication(excludeName = {
		"org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration",
		"org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration" })
public class HostileApplication {

	/** The size of {@code GET /big}. */
	static final int BIG = 1024 * 1024;

	/**
	 * Starts the application; ports and the I/O model come as arguments
	 * ({@code --server.port=...}).
	 * @param args Spring Boot's command-line arguments
	 */
	public static void main(String[] args) {
		new SpringApplicationBuilder(HostileApplication.class)
			.properties("management.endpoints.web.exposure.include=health,prometheus,ariadne,heap",
					"spring.main.banner-mode=off")
			.run(args);
	}

	/** The application's one controller. */
	@RestController
	static class Pages {

		private static final byte[] BIG_BODY = new byte[BIG];

		@GetMapping(path = "/", produces = MediaType.TEXT_PLAIN_VALUE)
		String home(@CookieValue(name = "visitor", required = false) String visitor) {
			return (visitor != null) ? "hello again" : "hello";
		}

		@PostMapping(path = "/form", produces = MediaType.TEXT_PLAIN_VALUE)
		String form(@RequestParam String k0) {
			return "k0 of " + k0.length() + " characters";
		}

		@PostMapping(path = "/stream", produces = MediaType.TEXT_PLAIN_VALUE)
		String stream(HttpServletRequest request) throws IOException {
			byte[] buffer = new byte[8192];
			long count = 0;
			try (InputStream in = request.getInputStream()) {
				for (int n; (n = in.read(buffer)) >= 0;) {
					count += n;
				}
			}
			return Long.toString(count);
		}

		@GetMapping(path = "/big", produces = MediaType.APPLICATION_OCTET_STREAM_VALUE)
		byte[] big() {
			return BIG_BODY;
		}

		@PostMapping(path = "/upload", produces = MediaType.TEXT_PLAIN_VALUE)
		String upload(@RequestParam MultipartFile file) {
			return file.getOriginalFilename() + ": " + file.getSize() + " bytes";
		}

	}

}
