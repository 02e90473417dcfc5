package dev.ariadne.autoconfigure.web;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import dev.ariadne.autoconfigure.RawHttp;
import jakarta.servlet.ServletContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.web.server.MimeMappings;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.servlet.ServletContextInitializer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What Boot's servlet web-server contract asks of the factory about the document root, the
 * default servlet and the resources of the servlet context, over real sockets: a file of the
 * document root served with {@code setRegisterDefaultServlet(true)} and typed by the factory's
 * MIME mappings, nothing served without it, never a class of the class path, and a root
 * resource that names an (empty) directory when there is no document root. This module's
 * directory has no {@code src/main/webapp}, {@code public} or {@code static}, so Boot's
 * detection finds none here.
 */
class AriadneServletWebServerFactoryTest {

	@TempDir
	Path documentRoot;

	private WebServer webServer;

	@AfterEach
	void stop() {
		if (this.webServer != null) {
			this.webServer.stop();
		}
	}

	private int start(AriadneServletWebServerFactory factory, ServletContextInitializer... initializers) {
		this.webServer = factory.getWebServer(initializers);
		this.webServer.start();
		return this.webServer.getPort();
	}

	private static URL resource(ServletContext context, String path) {
		try {
			return context.getResource(path);
		}
		catch (MalformedURLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Test
	void servesAFileOfTheDocumentRootThroughTheDefaultServlet() throws IOException {
		Files.writeString(this.documentRoot.resolve("test.txt"), "test");
		Files.writeString(this.documentRoot.resolve("test.xxcss"), "p{}");
		AriadneServletWebServerFactory factory = new AriadneServletWebServerFactory(0);
		factory.setDocumentRoot(this.documentRoot.toFile());
		factory.setRegisterDefaultServlet(true);
		MimeMappings mappings = new MimeMappings();
		mappings.add("xxcss", "text/css");
		factory.addMimeMappings(mappings);
		int port = start(factory);
		RawHttp.Response text = RawHttp.get(port, "/test.txt");
		assertThat(text.statusLine()).isEqualTo("HTTP/1.1 200 OK");
		assertThat(text.body()).isEqualTo("test");
		assertThat(text.header("Content-Type")).isEqualTo("text/plain");
		assertThat(RawHttp.get(port, "/test.xxcss").header("Content-Type")).isEqualTo("text/css");
	}

	@Test
	void servesNoFileWithoutTheDefaultServlet() throws IOException {
		Files.writeString(this.documentRoot.resolve("test.txt"), "test");
		AriadneServletWebServerFactory factory = new AriadneServletWebServerFactory(0);
		factory.setDocumentRoot(this.documentRoot.toFile());
		assertThat(factory.getSettings().isRegisterDefaultServlet()).as("Boot's default").isFalse();
		AtomicReference<URL> resource = new AtomicReference<>();
		int port = start(factory, (context) -> resource.set(resource(context, "/test.txt")));
		assertThat(RawHttp.get(port, "/test.txt").statusLine()).isEqualTo("HTTP/1.1 404 Not Found");
		// the application still reads it, as Spring MVC's resource handler does
		assertThat(resource.get()).isEqualTo(this.documentRoot.resolve("test.txt").toUri().toURL());
	}

	@Test
	void servesNoClassOfTheClassPath() throws IOException {
		AriadneServletWebServerFactory factory = new AriadneServletWebServerFactory(0);
		factory.setRegisterDefaultServlet(true);
		int port = start(factory);
		for (String path : new String[] { "/org/springframework/boot/SpringApplication.class",
				"/dev/ariadne/autoconfigure/web/AriadneServletWebServerFactory.class" }) {
			assertThat(RawHttp.get(port, path).statusLine()).as(path).isEqualTo("HTTP/1.1 404 Not Found");
		}
	}

	@Test
	void givesAnEmptyDirectoryAsTheRootResourceWithoutADocumentRoot() {
		AriadneServletWebServerFactory factory = new AriadneServletWebServerFactory(0);
		AtomicReference<URL> root = new AtomicReference<>();
		AtomicReference<Set<String>> paths = new AtomicReference<>(Set.of("unset"));
		AtomicReference<String> realPath = new AtomicReference<>();
		start(factory, (context) -> {
			root.set(resource(context, "/"));
			paths.set(context.getResourcePaths("/"));
			realPath.set(context.getRealPath("/"));
		});
		assertThat(root.get()).isNotNull();
		assertThat(root.get().getProtocol()).isEqualTo("file");
		Path directory = Path.of(realPath.get());
		assertThat(directory).isEmptyDirectory();
		assertThat(directory.getFileName().toString()).startsWith("ariadne-docbase");
		assertThat(paths.get()).isNull();
	}

}
