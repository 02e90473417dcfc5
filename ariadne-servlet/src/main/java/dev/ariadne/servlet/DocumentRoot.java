package dev.ariadne.servlet;

import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A directory whose files are the context's resources. Paths are resolved inside it only:
 * a path that would leave it (through {@code ..} or a link that points outside) finds nothing.
 * Links that stay inside are followed.
 */
final class DocumentRoot {

	private final Path root;

	private volatile Path realRoot;

	DocumentRoot(Path root) {
		this.root = root.toAbsolutePath().normalize();
	}

	/** Returns the file for a resource path, or {@code null} if it is outside the root or missing. */
	private Path resolve(String path) {
		if (path == null || !path.startsWith("/")) {
			return null;
		}
		try {
			Path file = this.root.resolve(path.substring(1)).normalize();
			return (file.startsWith(this.root) && real(file) != null) ? file : null;
		}
		catch (InvalidPathException ex) {
			// a NUL, or what the file system cannot name
			return null;
		}
	}

	/** The real path of a file inside the root, or {@code null} if it is missing or leads out. */
	private Path real(Path file) {
		try {
			Path real = file.toRealPath();
			return real.startsWith(realRoot()) ? real : null;
		}
		catch (IOException ex) {
			return null;
		}
	}

	private Path realRoot() throws IOException {
		Path real = this.realRoot;
		if (real == null) {
			real = this.root.toRealPath();
			this.realRoot = real;
		}
		return real;
	}

	/**
	 * Returns the file a request for a path may be served from: the real file (or directory),
	 * inside the root, and neither it nor the path it was asked by under {@code WEB-INF} or
	 * {@code META-INF}, in any case.
	 * @param path the decoded path within the context
	 * @return the real path, or {@code null} if there is none to serve
	 */
	Path servable(String path) {
		if (path == null || !path.startsWith("/")) {
			return null;
		}
		try {
			Path file = this.root.resolve(path.substring(1)).normalize();
			if (!file.startsWith(this.root) || isProtected(this.root.relativize(file))) {
				return null;
			}
			Path real = real(file);
			return (real != null && !isProtected(realRoot().relativize(real))) ? real : null;
		}
		catch (InvalidPathException | IOException ex) {
			return null;
		}
	}

	private static boolean isProtected(Path relative) {
		if (relative.getNameCount() == 0) {
			return false;
		}
		String first = relative.getName(0).toString().toUpperCase(Locale.ROOT);
		return first.equals("WEB-INF") || first.equals("META-INF");
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
		try {
			Path file = this.root.resolve(path.startsWith("/") ? path.substring(1) : path).normalize();
			return file.startsWith(this.root) ? file.toString() : null;
		}
		catch (InvalidPathException ex) {
			return null;
		}
	}

	/**
	 * Returns the paths of a directory's entries, directories ending with {@code /}.
	 * @param path the directory's path, with or without its final {@code /}
	 * @return the paths, or {@code null} if it is no directory or an empty one (Servlet 6.1:
	 * {@code null} when no resource path begins with it, as Tomcat answers)
	 */
	Set<String> paths(String path) {
		Path directory = resolve(path);
		if (directory == null || !Files.isDirectory(directory)) {
			return null;
		}
		String prefix = path.endsWith("/") ? path : path + "/";
		Set<String> paths = new LinkedHashSet<>();
		try (Stream<Path> children = Files.list(directory)) {
			// a link that leads out of the root is no resource, so not listed either
			children.sorted()
				.filter((child) -> real(child) != null)
				.forEach((child) -> paths.add(prefix + child.getFileName() + (Files.isDirectory(child) ? "/" : "")));
		}
		catch (IOException ex) {
			return null;
		}
		return paths.isEmpty() ? null : paths;
	}

}
