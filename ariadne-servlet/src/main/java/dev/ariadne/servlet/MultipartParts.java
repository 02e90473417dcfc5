package dev.ariadne.servlet;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.Part;

import dev.ariadne.server.ContentLimits;

/**
 * The parts of a {@code multipart/form-data} request (RFC 7578), read from the body stream as
 * it arrives, through a buffer of a few KiB: part content goes to memory up to the servlet's
 * file-size threshold and to temporary files beyond it ({@link PartStore}), so an upload is
 * never held whole. Limits fail as soon as they are passed, before the work they bound: the
 * servlet's {@code maxFileSize} per part and {@code maxRequestSize} for the body with a
 * {@link MultipartLimitException} (413), the most parts with a 400 before the part beyond is
 * created, and the largest header section of a part with a 413. What the parts hold in memory
 * is reserved in the server's buffer budget, and every temporary file is deleted when reading
 * fails, or by {@link #delete()} when the request ends.
 */
final class MultipartParts {

	/** The property that sets the most parts of a multipart body. */
	static final String MAX_PARTS_PROPERTY = "ariadne.server.request.max-parts";

	/** The property that sets the largest header section of a part. */
	static final String MAX_PART_HEADER_SIZE_PROPERTY = "ariadne.server.request.max-part-header-size";

	/** What a part costs in memory beyond its header text, roughly: the part and its header map. */
	private static final int PART_OVERHEAD = 256;

	private static final int BUFFER_SIZE = 16 * 1024;

	private final List<UploadPart> parts;

	private final PartStore store;

	private MultipartParts(List<UploadPart> parts, PartStore store) {
		this.parts = parts;
		this.store = store;
	}

	/**
	 * Reads the parts of a request, reserving what they hold in memory in the server's buffer
	 * budget.
	 * @param request the request, positioned at the start of its body
	 * @param config the servlet's multipart config
	 * @return the parts
	 * @throws MultipartLimitException if a limit of the config is passed
	 * @throws StatusException 400 if the body is not well-formed multipart or has too many parts,
	 * 413 if a part's headers are too large, the core's status if no memory is free
	 */
	static MultipartParts read(ExchangeRequest request, MultipartConfigElement config) {
		return read(request.input(), request.getContentType(), request.getContentLengthLong(),
				location(request.getServletContext(), config.getLocation()), config,
				request.exchange().context().settings().contentLimits(), request.core()::reserveMemory);
	}

	/**
	 * Reads the parts of a body.
	 * @param body the body stream
	 * @param contentType the request's content type, with the boundary
	 * @param declared the request's content length, or -1
	 * @param location where parts over the threshold are spooled
	 * @param config the servlet's limits
	 * @param limits the container's limits: the most parts, the largest header section of one
	 * @param memory where memory the parts hold is reserved
	 * @return the parts
	 */
	static MultipartParts read(InputStream body, String contentType, long declared, Path location,
			MultipartConfigElement config, ContentLimits limits, RequestMemory memory) {
		String boundary = MediaTypes.parameter(contentType, "boundary");
		if (boundary == null || boundary.isEmpty() || boundary.length() > 200) {
			throw new StatusException(HttpServletResponse.SC_BAD_REQUEST,
					"multipart/form-data request without a valid boundary parameter");
		}
		long maxRequest = config.getMaxRequestSize();
		if (maxRequest >= 0 && declared > maxRequest) {
			throw new MultipartLimitException("The multipart request of " + declared
					+ " bytes exceeds the maximum request size of " + maxRequest + " bytes");
		}
		PartStore store = new PartStore(location, memory);
		List<UploadPart> parts = new ArrayList<>();
		boolean read = false;
		try {
			memory.reserve(BUFFER_SIZE);
			Reader reader = new Reader(body, boundary, maxRequest, limits.maxPartHeaderSize());
			reader.skipPreamble();
			while (!reader.atEnd()) {
				if (parts.size() == limits.maxParts()) {
					// Spring's multipart resolver answers 413 for a message that says a limit was
					// exceeded with a size or count in it: this one must stay a 400
					throw StatusException.refusal(HttpServletResponse.SC_BAD_REQUEST, "More than "
							+ limits.maxParts() + " parts in the multipart body (" + MAX_PARTS_PROPERTY + ")");
				}
				Map<String, List<String>> headers = reader.headers();
				memory.reserve(2L * reader.headerBytes() + PART_OVERHEAD);
				String disposition = first(headers, "content-disposition");
				String name = MediaTypes.parameter(disposition, "name");
				if (disposition == null || name == null) {
					throw new StatusException(HttpServletResponse.SC_BAD_REQUEST,
							"A multipart part has no Content-Disposition with a name");
				}
				UploadPart part = new UploadPart(headers, name, fileName(disposition), store,
						Math.max(config.getFileSizeThreshold(), 0), config.getMaxFileSize());
				parts.add(part);
				reader.content(part);
				part.close();
			}
			read = true;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		finally {
			if (!read) {
				deleteAll(parts, store);
			}
		}
		return new MultipartParts(parts, store);
	}

	private static Path location(ServletContext context, String configured) {
		Object tempdir = context.getAttribute(ServletContext.TEMPDIR);
		Path base = (tempdir instanceof java.io.File file) ? file.toPath()
				: Path.of(System.getProperty("java.io.tmpdir"));
		if (configured == null || configured.isEmpty()) {
			return base;
		}
		Path path = Path.of(configured);
		return path.isAbsolute() ? path : base.resolve(path);
	}

	private static String first(Map<String, List<String>> headers, String name) {
		List<String> values = headers.get(name);
		return (values != null && !values.isEmpty()) ? values.get(0) : null;
	}

	/** The submitted file name: RFC 5987's {@code filename*} if present, else {@code filename}. */
	private static String fileName(String disposition) {
		String extended = MediaTypes.parameter(disposition, "filename*");
		if (extended != null) {
			int quote = extended.indexOf("''");
			if (quote > 0) {
				try {
					Charset charset = Charset.forName(extended.substring(0, quote));
					return Parameters.decode(extended.substring(quote + 2).replace("+", "%2B"), charset);
				}
				catch (IllegalArgumentException ex) {
					// fall back to the plain parameter
				}
			}
		}
		return MediaTypes.parameter(disposition, "filename");
	}

	Collection<Part> parts() {
		return Collections.unmodifiableList(this.parts);
	}

	/**
	 * Adds the form fields (parts without a file name) to the request's parameters, decoded in
	 * the {@code _charset_} field's charset, else the request's, else UTF-8.
	 * @param parameters the parameters
	 * @param requestEncoding the request's character encoding, or {@code null}
	 */
	void addFieldsTo(Parameters parameters, String requestEncoding) {
		Charset charset = charset(requestEncoding);
		for (UploadPart part : this.parts) {
			if (part.isField() && part.getName().equals("_charset_")) {
				charset = charset(textOf(part, StandardCharsets.US_ASCII).trim());
			}
		}
		for (UploadPart part : this.parts) {
			if (part.isField()) {
				parameters.add(part.getName(), textOf(part, charset));
			}
		}
	}

	private static Charset charset(String name) {
		if (name == null || name.isEmpty()) {
			return StandardCharsets.UTF_8;
		}
		try {
			return Charset.forName(name);
		}
		catch (IllegalCharsetNameException | UnsupportedCharsetException ex) {
			return StandardCharsets.UTF_8;
		}
	}

	private static String textOf(UploadPart part, Charset charset) {
		try {
			return part.text(charset);
		}
		catch (IOException ex) {
			throw new StatusException(HttpServletResponse.SC_INTERNAL_SERVER_ERROR, "Reading a form field failed", ex);
		}
	}

	/** Deletes the temporary files; called when the request ends. */
	void delete() {
		deleteAll(this.parts, this.store);
	}

	private static void deleteAll(List<UploadPart> parts, PartStore store) {
		for (UploadPart part : parts) {
			try {
				part.delete();
			}
			catch (IOException ex) {
				// a temporary file that cannot be deleted stays in the context's temp directory
			}
		}
		try {
			store.delete();
		}
		catch (IOException ex) {
			// as above
		}
	}

	/**
	 * Scans the body for delimiters ({@code CRLF--boundary}) through a fixed buffer, handing part
	 * content on as it goes and keeping back only what could be the start of a delimiter.
	 */
	private static final class Reader {

		private final InputStream in;

		private final byte[] delimiter;

		private final long maxRequest;

		private final int maxHeaderBytes;

		private final byte[] buffer = new byte[BUFFER_SIZE];

		private int headerBytes;

		private int start;

		private int end;

		private long read;

		private boolean eof;

		private boolean last;

		Reader(InputStream in, String boundary, long maxRequest, int maxHeaderBytes) {
			this.in = in;
			this.delimiter = ("\r\n--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
			this.maxRequest = maxRequest;
			this.maxHeaderBytes = maxHeaderBytes;
			// the first delimiter may open the body: pretend a CRLF came before it
			this.buffer[0] = '\r';
			this.buffer[1] = '\n';
			this.end = 2;
		}

		boolean atEnd() {
			return this.last;
		}

		/** Skips everything up to and including the first delimiter and its line end. */
		void skipPreamble() throws IOException {
			while (true) {
				int found = find();
				if (found >= 0) {
					this.start = found + this.delimiter.length;
					afterDelimiter();
					return;
				}
				this.start = Math.max(this.start, this.end - this.delimiter.length + 1);
				if (!fill()) {
					throw malformed("no boundary delimiter found");
				}
			}
		}

		/** After a delimiter: "--" ends the body; otherwise optional whitespace and CRLF. */
		private void afterDelimiter() throws IOException {
			ensure(2);
			if (this.buffer[this.start] == '-' && this.buffer[this.start + 1] == '-') {
				this.last = true;
				return;
			}
			while (true) {
				ensure(1);
				byte b = this.buffer[this.start];
				if (b == ' ' || b == '\t') {
					this.start++;
					continue;
				}
				ensure(2);
				if (b != '\r' || this.buffer[this.start + 1] != '\n') {
					throw malformed("a boundary delimiter is not followed by CRLF");
				}
				this.start += 2;
				return;
			}
		}

		/**
		 * Reads a part's header lines, up to the empty line, refusing a section larger than the
		 * limit as soon as it is.
		 */
		Map<String, List<String>> headers() throws IOException {
			Map<String, List<String>> headers = new LinkedHashMap<>();
			this.headerBytes = 0;
			while (true) {
				String line = line();
				if (line.isEmpty()) {
					return headers;
				}
				int colon = line.indexOf(':');
				if (colon <= 0) {
					throw malformed("a part header line has no name");
				}
				headers.computeIfAbsent(line.substring(0, colon).trim().toLowerCase(Locale.ROOT),
						(key) -> new ArrayList<>(1))
					.add(line.substring(colon + 1).trim());
			}
		}

		/** The bytes of the header section read last, line ends included. */
		int headerBytes() {
			return this.headerBytes;
		}

		private String line() throws IOException {
			int from = this.start;
			while (true) {
				for (int i = from; i + 1 < this.end; i++) {
					if (this.buffer[i] == '\r' && this.buffer[i + 1] == '\n') {
						int lineBytes = i + 2 - this.start;
						checkHeaderSize(lineBytes);
						this.headerBytes += lineBytes;
						String line = new String(this.buffer, this.start, i - this.start, StandardCharsets.UTF_8);
						this.start = i + 2;
						return line;
					}
				}
				// no line end yet, and the section already has what was read of this line
				checkHeaderSize(this.end - this.start);
				if (this.end - this.start >= this.buffer.length - 1) {
					throw malformed("a part header line is longer than " + this.buffer.length + " bytes");
				}
				// the scan goes on where it stopped, at the last byte, which may be a CR
				int scanned = Math.max(this.end - 1 - this.start, 0);
				if (!fill()) {
					throw malformed("the body ends inside part headers");
				}
				from = this.start + scanned;
			}
		}

		private void checkHeaderSize(int lineBytes) {
			if (this.headerBytes + lineBytes > this.maxHeaderBytes) {
				// Spring's multipart resolver answers 413 for a message like this, as the container does
				throw StatusException.refusal(HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE,
						"A multipart part's header section exceeds the maximum size of " + this.maxHeaderBytes
								+ " bytes (" + MAX_PART_HEADER_SIZE_PROPERTY + ")");
			}
		}

		/** Streams a part's content into the part, up to the next delimiter. */
		void content(UploadPart part) throws IOException {
			while (true) {
				int found = find();
				if (found >= 0) {
					part.write(this.buffer, this.start, found - this.start);
					this.start = found + this.delimiter.length;
					afterDelimiter();
					return;
				}
				int safe = this.end - this.delimiter.length + 1;
				if (safe > this.start) {
					part.write(this.buffer, this.start, safe - this.start);
					this.start = safe;
				}
				if (!fill()) {
					throw malformed("the body ends inside a part");
				}
			}
		}

		private int find() {
			byte first = this.delimiter[0];
			int limit = this.end - this.delimiter.length;
			outer: for (int i = this.start; i <= limit; i++) {
				if (this.buffer[i] != first) {
					continue;
				}
				for (int j = 1; j < this.delimiter.length; j++) {
					if (this.buffer[i + j] != this.delimiter[j]) {
						continue outer;
					}
				}
				return i;
			}
			return -1;
		}

		private void ensure(int count) throws IOException {
			while (this.end - this.start < count) {
				if (!fill()) {
					throw malformed("the body ends after a boundary delimiter");
				}
			}
		}

		/** Moves the unread bytes to the front and reads more; returns false at the end. */
		private boolean fill() throws IOException {
			if (this.eof) {
				return false;
			}
			if (this.start > 0) {
				System.arraycopy(this.buffer, this.start, this.buffer, 0, this.end - this.start);
				this.end -= this.start;
				this.start = 0;
			}
			int count = this.in.read(this.buffer, this.end, this.buffer.length - this.end);
			if (count < 0) {
				this.eof = true;
				return false;
			}
			this.read += count;
			if (this.maxRequest >= 0 && this.read > this.maxRequest) {
				throw new MultipartLimitException("The multipart request exceeds the maximum request size of "
						+ this.maxRequest + " bytes");
			}
			this.end += count;
			return true;
		}

		private static StatusException malformed(String reason) {
			return new StatusException(HttpServletResponse.SC_BAD_REQUEST, "Malformed multipart body: " + reason);
		}

	}

}
