package dev.ariadne.servlet;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UnsupportedEncodingException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

/**
 * The response an application writes to under {@link GzipCompressionFilter}: its body goes
 * through a {@link CompressingStream}, which decides whether to compress, and the
 * {@code Content-Length} it declares is held back until then (a compressed body has another).
 */
final class CompressingResponse extends HttpServletResponseWrapper {

	private final HttpServletResponse response;

	private final GzipCompressionFilter filter;

	private final boolean gzip;

	private CompressingStream stream;

	private PrintWriter writer;

	private boolean outputStreamUsed;

	/** The Content-Length the application declared, held until the stream decides. */
	private long declaredLength = -1;

	/**
	 * Wraps a response.
	 * @param response the container's response
	 * @param filter the settings
	 * @param gzip whether the client may be given gzip (it accepts it and is not excluded)
	 */
	CompressingResponse(HttpServletResponse response, GzipCompressionFilter filter, boolean gzip) {
		super(response);
		this.response = response;
		this.filter = filter;
		this.gzip = gzip;
	}

	HttpServletResponse wrapped() {
		return this.response;
	}

	GzipCompressionFilter filter() {
		return this.filter;
	}

	boolean gzip() {
		return this.gzip;
	}

	long declaredLength() {
		return this.declaredLength;
	}

	@Override
	public ServletOutputStream getOutputStream() throws IOException {
		if (this.writer != null) {
			throw new IllegalStateException("getWriter() was already called for this response");
		}
		this.outputStreamUsed = true;
		return stream();
	}

	@Override
	public PrintWriter getWriter() throws IOException {
		if (this.writer == null) {
			if (this.outputStreamUsed) {
				throw new IllegalStateException("getOutputStream() was already called for this response");
			}
			String encoding = getCharacterEncoding();
			Charset charset;
			try {
				charset = (encoding != null) ? Charset.forName(encoding) : StandardCharsets.ISO_8859_1;
			}
			catch (RuntimeException ex) {
				throw new UnsupportedEncodingException(encoding);
			}
			this.writer = new PrintWriter(new OutputStreamWriter(stream(), charset));
		}
		return this.writer;
	}

	private CompressingStream stream() {
		if (this.stream == null) {
			this.stream = new CompressingStream(this);
		}
		return this.stream;
	}

	@Override
	public void setContentLength(int length) {
		setContentLengthLong(length);
	}

	@Override
	public void setContentLengthLong(long length) {
		if (this.stream != null && this.stream.decided()) {
			if (!this.stream.compressing()) {
				super.setContentLengthLong(length);
			}
			return;
		}
		this.declaredLength = length;
	}

	@Override
	public void setHeader(String name, String value) {
		if (isContentLength(name)) {
			setContentLengthLong((value != null) ? parseLength(value) : -1);
			return;
		}
		super.setHeader(name, value);
	}

	@Override
	public void addHeader(String name, String value) {
		if (isContentLength(name)) {
			setContentLengthLong(parseLength(value));
			return;
		}
		super.addHeader(name, value);
	}

	@Override
	public void setIntHeader(String name, int value) {
		if (isContentLength(name)) {
			setContentLengthLong(value);
			return;
		}
		super.setIntHeader(name, value);
	}

	@Override
	public void addIntHeader(String name, int value) {
		setIntHeader(name, value);
	}

	@Override
	public String getHeader(String name) {
		if (isContentLength(name) && holdsLength()) {
			return Long.toString(this.declaredLength);
		}
		return super.getHeader(name);
	}

	@Override
	public boolean containsHeader(String name) {
		return (isContentLength(name) && holdsLength()) || super.containsHeader(name);
	}

	private boolean holdsLength() {
		return this.declaredLength >= 0 && (this.stream == null || !this.stream.decided());
	}

	private static boolean isContentLength(String name) {
		return "Content-Length".equalsIgnoreCase(name);
	}

	private static long parseLength(String value) {
		try {
			return Long.parseLong(value.trim());
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

	/** Commits the response, as the container's would: the stream decides with what it holds. */
	@Override
	public void flushBuffer() throws IOException {
		if (this.writer != null) {
			this.writer.flush();
		}
		stream().flush();
	}

	@Override
	public void reset() {
		super.reset();
		if (this.stream != null) {
			this.stream.abandon();
		}
		this.stream = null;
		this.writer = null;
		this.outputStreamUsed = false;
		this.declaredLength = -1;
	}

	@Override
	public void resetBuffer() {
		super.resetBuffer();
		if (this.stream != null) {
			this.stream.clearHeld();
		}
	}

	/**
	 * Ends the body: what is held or encoded is written, a length declared without a body (the
	 * answer to a {@code HEAD}) decides as the body would have.
	 * @throws IOException if the connection failed
	 */
	void finish() throws IOException {
		if (this.stream == null && this.declaredLength < 0) {
			return;
		}
		CompressingStream stream = stream();
		stream.ending();
		if (this.writer != null) {
			this.writer.flush();
		}
		stream.finish();
	}

	/** Frees the compressor of a response the application failed. */
	void abandon() {
		if (this.stream != null) {
			this.stream.abandon();
		}
	}

}
