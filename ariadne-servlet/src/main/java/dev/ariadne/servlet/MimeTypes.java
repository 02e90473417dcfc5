package dev.ariadne.servlet;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The media types {@code ServletContext.getMimeType} answers with: a small default table of
 * common web types, overridden and extended by the deployment's mappings, or only those when
 * the deployment brings a whole table (Spring Boot's).
 */
final class MimeTypes {

	private static final String[] DEFAULTS = { "css", "text/css", "csv", "text/csv", "gif", "image/gif", "htm",
			"text/html", "html", "text/html", "ico", "image/x-icon", "jpeg", "image/jpeg", "jpg", "image/jpeg", "js",
			"text/javascript", "json", "application/json", "map", "application/json", "mjs", "text/javascript", "mp3",
			"audio/mpeg", "mp4", "video/mp4", "otf", "font/otf", "pdf", "application/pdf", "png", "image/png", "svg",
			"image/svg+xml", "ttf", "font/ttf", "txt", "text/plain", "wasm", "application/wasm", "webm", "video/webm",
			"webp", "image/webp", "woff", "font/woff", "woff2", "font/woff2", "xml", "application/xml", "zip",
			"application/zip", "gz", "application/gzip", "jar", "application/java-archive", "avif", "image/avif" };

	private final Map<String, String> types = new HashMap<>();

	MimeTypes() {
		for (int i = 0; i < DEFAULTS.length; i += 2) {
			this.types.put(DEFAULTS[i], DEFAULTS[i + 1]);
		}
	}

	/** Forgets every mapping, the defaults included. */
	void clear() {
		this.types.clear();
	}

	void add(String extension, String type) {
		if (extension == null || extension.isEmpty() || type == null || type.isEmpty()) {
			throw new IllegalArgumentException("MIME mapping needs an extension and a type, was '" + extension
					+ "' -> '" + type + "'");
		}
		String key = extension.startsWith(".") ? extension.substring(1) : extension;
		this.types.put(key.toLowerCase(Locale.ROOT), type);
	}

	/**
	 * Returns the type of a file by its extension.
	 * @param file a file name or path
	 * @return the media type, or {@code null} when unknown
	 */
	String forFile(String file) {
		if (file == null) {
			return null;
		}
		int dot = file.lastIndexOf('.');
		if (dot < 0 || dot < file.lastIndexOf('/')) {
			return null;
		}
		return this.types.get(file.substring(dot + 1).toLowerCase(Locale.ROOT));
	}

}
