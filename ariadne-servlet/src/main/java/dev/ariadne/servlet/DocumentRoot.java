package dev.ariadne.servlet;

import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A directory whose files are the context's resources. Paths are resolved inside it only:
 * a path that would leave it (through {@code ..} or a link) finds nothing.
 */
final class DocumentRoot {

	private final Path root;

	DocumentRoot(Path root) {
		this.root = root.toAbsolutePath().normalize();
	}

	/** Returns the file for a resource path, or {@code null} if it is outside the root or missing. */
	private Path resolve(String path) {
		if (path == null || !path.startsWith("/")) {
			return null;
		}
		Path file = this.root.resolve(path.substring(1)).normalize();
		if (!file.startsWith(this.root) || !Files.exists(file)) {
			return null;
		}
		try {
			return file.toRealPath().startsWith(this.root.toRealPath()) ? file : null;
		}
		catch (IOException ex) {
			return null;
		}
	}

	URL url(String path) throws MalformedURLException {
		Path file = resolve(path);
		return (file != null) ? file.toUri().toURL() : null;
	}

	InputStream open(String path) {
		Path file = resolve(path);
		if (file == null || !Files.isRegularFile(file)) {
			return null;
		}
		try {
			return Files.newInputStream(file);
		}
		catch (IOException ex) {
			return null;
		}
	}

	String realPath(String path) {
		if (path == null) {
			return null;
		}
		Path file = this.root.resolve(path.startsWith("/") ? path.substring(1) : path).normalize();
		return file.startsWith(this.root) ? file.toString() : null;
	}

	Set<String> paths(String path) {
		Path directory = resolve(path);
		if (directory == null || !Files.isDirectory(directory)) {
			return null;
		}
		String prefix = path.endsWith("/") ? path : path + "/";
		Set<String> paths = new LinkedHashSet<>();
		try (Stream<Path> children = Files.list(directory)) {
			children.sorted().forEach((child) -> paths.add(prefix + child.getFileName()
					+ (Files.isDirectory(child) ? "/" : "")));
		}
		catch (IOException ex) {
			return null;
		}
		return paths;
	}

}
