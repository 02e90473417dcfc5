package dev.ariadne.servlet;

import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Enumeration;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The container's default servlet, registered as {@value #NAME} on {@code /} when the deployment
 * asks for it (Boot's {@code server.servlet.register-default-servlet}): it serves the files of
 * the document root, as Tomcat's and Jetty's do, to the requests no other mapping takes and to
 * those forwarded to it by name (Spring MVC's {@code DefaultServletHttpRequestHandler}).
 *
 * <p>{@code GET} and {@code HEAD} of a file get its media type from the context's MIME mappings,
 * its length, {@code Last-Modified}, a weak {@code ETag} of its length and modification time
 * (as Tomcat's: equal for two files that are not, within a millisecond), and
 * {@code Accept-Ranges}; conditional requests get 304 or 412 ({@link Preconditions}); a
 * {@code Range} gets 206 with one range, {@code multipart/byteranges} with several, or 416
 * ({@link ByteRanges}). A directory's path without its final {@code /} is redirected (302) to
 * the path with it; a directory is served its {@value #WELCOME_FILE}, and never listed. Nothing
 * outside the root, under {@code WEB-INF} or {@code META-INF}, or missing is served: 404. Other
 * methods get 405 for a file and 404 for anything else. An include writes the file's bytes only
 * (as UTF-8 text if the including servlet took the writer); an error page is served whole, for
 * any method, with the error's status.
 *
 * <p>Files stream from a channel in pieces of at most {@value #CHUNK} bytes through the
 * response's output, which holds the thread while the client reads slowly. The length sent is
 * the one read when the request began: a file that grows meanwhile is cut there, one that
 * shrinks ends the response early, and the connection is closed, since the client was promised
 * more.
 */
final class DefaultServlet extends HttpServlet {

	/** The name of the default servlet, the one Spring's {@code DefaultServletHttpRequestHandler} looks for. */
	static final String NAME = "default";

	static final String WELCOME_FILE = "index.html";

	private static final String ALLOW = "GET, HEAD, OPTIONS";

	private static final int CHUNK = 32 * 1024;

	private static final long serialVersionUID = 1L;

	private final transient DocumentRoot root;

	/**
	 * Creates the servlet.
	 * @param root the document root, or {@code null} for none (everything is 404)
	 */
	DefaultServlet(DocumentRoot root) {
		this.root = root;
	}

	/**
	 * Registers the default servlet in a context being started, ahead of the initializers, as
	 * Tomcat adds it before the application's servlets: overridable, so that a servlet the
	 * application maps to {@code /} takes the mapping and this one stays reachable by name.
	 * @param context the context
	 */
	static void register(DeploymentContext context) {
		ServletEntry servlet = context.registry()
			.add(new ServletEntry(context, NAME, new DefaultServlet(context.settings().documentRoot()), null,
					DefaultServlet.class.getName()));
		servlet.overridable(true);
		servlet.addMapping("/");
		servlet.setLoadOnStartup(1);
	}

	@Override
	protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
		String method = request.getMethod();
		boolean included = request.getAttribute(RequestDispatcher.INCLUDE_REQUEST_URI) != null;
		// an error page is served whatever the request's method, with the error's status
		boolean error = request.getDispatcherType() == DispatcherType.ERROR;
		if ("OPTIONS".equals(method) && !included && !error) {
			response.setHeader("Allow", ALLOW);
			return;
		}
		boolean read = "GET".equals(method) || "HEAD".equals(method) || included || error;
		String path = path(request, included);
		Path file = (this.root != null) ? this.root.servable(path) : null;
		BasicFileAttributes attributes = (file != null) ? attributes(file) : null;
		String name = path.substring(path.lastIndexOf('/') + 1);
		if (attributes != null && attributes.isDirectory()) {
			if (!path.endsWith("/")) {
				if (read && !included && !error) {
					String query = request.getQueryString();
					response.sendRedirect(request.getRequestURI() + "/" + ((query != null) ? "?" + query : ""));
					return;
				}
				file = null;
			}
			else {
				file = this.root.servable(path + WELCOME_FILE);
				name = WELCOME_FILE;
			}
			attributes = (file != null) ? attributes(file) : null;
		}
		if (attributes == null || !attributes.isRegularFile()) {
			response.sendError(HttpServletResponse.SC_NOT_FOUND);
			return;
		}
		if (!read) {
			response.setHeader("Allow", ALLOW);
			response.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
			return;
		}
		String type = getServletContext().getMimeType(name);
		if (included) {
			// an include writes the body only: the including response owns status and headers
			include(file, attributes.size(), response);
		}
		else if (error) {
			// no validators, no ranges: the answer is the error, whatever the client holds
			if (type != null) {
				response.setContentType(type);
			}
			response.setContentLengthLong(attributes.size());
			if (!"HEAD".equals(method)) {
				send(file, ByteRanges.WHOLE, attributes.size(), type, null, response.getOutputStream());
			}
		}
		else {
			serve(request, response, file, attributes, type);
		}
	}

	/** Writes a file into an including response, through its writer if it took that (as UTF-8 text). */
	private static void include(Path file, long length, HttpServletResponse response) throws IOException {
		OutputStream out;
		try {
			out = response.getOutputStream();
		}
		catch (IllegalStateException ex) {
			try (Reader text = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
				text.transferTo(response.getWriter());
			}
			return;
		}
		send(file, ByteRanges.WHOLE, length, null, null, out);
	}

	private void serve(HttpServletRequest request, HttpServletResponse response, Path file,
			BasicFileAttributes attributes, String type) throws IOException {
		long length = attributes.size();
		long modified = attributes.lastModifiedTime().toMillis();
		String etag = "W/\"" + length + "-" + modified + "\"";
		String method = request.getMethod();
		switch (Preconditions.evaluate(method, field(request, "If-Match"), request.getHeader("If-Unmodified-Since"),
				field(request, "If-None-Match"), request.getHeader("If-Modified-Since"), etag, modified)) {
			case NOT_MODIFIED -> {
				response.setStatus(HttpServletResponse.SC_NOT_MODIFIED);
				response.setHeader("ETag", etag);
				return;
			}
			case FAILED -> {
				response.sendError(HttpServletResponse.SC_PRECONDITION_FAILED);
				return;
			}
			case PROCEED -> {
				// serve below
			}
		}
		response.setHeader("Accept-Ranges", "bytes");
		response.setHeader("ETag", etag);
		response.setDateHeader("Last-Modified", modified);
		String range = request.getHeader("Range");
		// range handling is defined for GET only (RFC 9110 section 14.2)
		ByteRanges ranges = ("GET".equals(method) && range != null
				&& Preconditions.rangeApplies(request.getHeader("If-Range"), etag, modified))
				? ByteRanges.parse(range, length) : ByteRanges.WHOLE;
		if (ranges.unsatisfiable()) {
			response.setHeader("Content-Range", "bytes */" + length);
			response.sendError(HttpServletResponse.SC_REQUESTED_RANGE_NOT_SATISFIABLE);
			return;
		}
		String boundary = null;
		if (ranges.whole()) {
			if (type != null) {
				response.setContentType(type);
			}
			response.setContentLengthLong(length);
		}
		else {
			response.setStatus(HttpServletResponse.SC_PARTIAL_CONTENT);
			if (ranges.count() == 1) {
				response.setHeader("Content-Range", ranges.contentRange(0, length));
				if (type != null) {
					response.setContentType(type);
				}
				response.setContentLengthLong(ranges.length(0));
			}
			else {
				boundary = boundary();
				response.setContentType("multipart/byteranges; boundary=" + boundary);
				response.setContentLengthLong(multipartLength(ranges, length, type, boundary));
			}
		}
		if (!"HEAD".equals(method)) {
			send(file, ranges, length, type, boundary, response.getOutputStream());
		}
	}

	/**
	 * The path of the file asked for: of the include, or the servlet path and path info of the
	 * request as it reached this servlet (by its mapping, a forward to a path, or a forward by
	 * name, which keeps the request's own).
	 */
	private static String path(HttpServletRequest request, boolean included) {
		String servletPath = included ? (String) request.getAttribute(RequestDispatcher.INCLUDE_SERVLET_PATH)
				: request.getServletPath();
		String pathInfo = included ? (String) request.getAttribute(RequestDispatcher.INCLUDE_PATH_INFO)
				: request.getPathInfo();
		String path = ((servletPath != null) ? servletPath : "") + ((pathInfo != null) ? pathInfo : "");
		return path.isEmpty() ? "/" : path;
	}

	/** A field's lines joined with commas, as a list field reads, or {@code null}. */
	private static String field(HttpServletRequest request, String name) {
		Enumeration<String> values = request.getHeaders(name);
		if (values == null || !values.hasMoreElements()) {
			return null;
		}
		String first = values.nextElement();
		if (!values.hasMoreElements()) {
			return first;
		}
		StringBuilder joined = new StringBuilder(first);
		while (values.hasMoreElements()) {
			joined.append(',').append(values.nextElement());
		}
		return joined.toString();
	}

	private static BasicFileAttributes attributes(Path file) {
		try {
			return Files.readAttributes(file, BasicFileAttributes.class);
		}
		catch (IOException ex) {
			// gone since it was found
			return null;
		}
	}

	private static String boundary() {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		return Long.toHexString(random.nextLong() | Long.MIN_VALUE) + Long.toHexString(random.nextLong() | Long.MIN_VALUE);
	}

	/** The head of a part of a multipart answer, with the delimiter before it. */
	private static String partHead(ByteRanges ranges, int range, long length, String type, String boundary) {
		return "--" + boundary + "\r\n" + ((type != null) ? "Content-Type: " + type + "\r\n" : "") + "Content-Range: "
				+ ranges.contentRange(range, length) + "\r\n\r\n";
	}

	private static String closeDelimiter(String boundary) {
		return "--" + boundary + "--\r\n";
	}

	private static long multipartLength(ByteRanges ranges, long length, String type, String boundary) {
		long total = closeDelimiter(boundary).length();
		for (int i = 0; i < ranges.count(); i++) {
			// each part's data is followed by the CRLF that begins the next delimiter
			total += partHead(ranges, i, length, type, boundary).length() + ranges.length(i) + 2;
		}
		return total;
	}

	private static void send(Path file, ByteRanges ranges, long length, String type, String boundary, OutputStream out)
			throws IOException {
		long largest = (ranges.count() == 0) ? length : 0;
		for (int i = 0; i < ranges.count(); i++) {
			largest = Math.max(largest, ranges.length(i));
		}
		if (largest == 0) {
			return;
		}
		byte[] chunk = new byte[(int) Math.min(CHUNK, largest)];
		try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
			if (ranges.count() == 0) {
				copy(channel, 0, length, out, chunk);
			}
			else if (boundary == null) {
				copy(channel, ranges.first(0), ranges.length(0), out, chunk);
			}
			else {
				for (int i = 0; i < ranges.count(); i++) {
					out.write(partHead(ranges, i, length, type, boundary).getBytes(StandardCharsets.ISO_8859_1));
					copy(channel, ranges.first(i), ranges.length(i), out, chunk);
					out.write('\r');
					out.write('\n');
				}
				out.write(closeDelimiter(boundary).getBytes(StandardCharsets.ISO_8859_1));
			}
		}
	}

	private static void copy(FileChannel channel, long position, long count, OutputStream out, byte[] chunk)
			throws IOException {
		ByteBuffer buffer = ByteBuffer.wrap(chunk);
		long at = position;
		long left = count;
		while (left > 0) {
			buffer.clear().limit((int) Math.min(chunk.length, left));
			int read = channel.read(buffer, at);
			if (read < 0) {
				throw new EOFException("The file got shorter while it was served: " + left + " of its bytes are missing");
			}
			out.write(chunk, 0, read);
			at += read;
			left -= read;
		}
	}

}
