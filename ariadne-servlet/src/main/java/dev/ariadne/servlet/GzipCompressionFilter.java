package dev.ariadne.servlet;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UnsupportedEncodingException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.zip.GZIPOutputStream;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

/**
 * Compresses response bodies with gzip for clients that accept it: what
 * {@code server.compression.*} asks of a servlet container. A body is compressed when the
 * request's {@code Accept-Encoding} allows {@code gzip}, the response's media type is one of
 * the configured ones, nothing set a {@code Content-Encoding} already, the client's
 * {@code User-Agent} is not excluded, and the body is at least the minimum size: a body with a
 * declared {@code Content-Length} is judged by it, any other by its first bytes, held until
 * the minimum is reached or the body ends. Compressed responses lose their
 * {@code Content-Length} (they go out chunked) and gain {@code Vary: Accept-Encoding}.
 * {@code flush()} flushes the compressor too, so streamed bodies still arrive as they are
 * written.
 */
public final class GzipCompressionFilter implements Filter {

	private static final Pattern GZIP = Pattern.compile("(^|,)\\s*(gzip|\\*)\\s*(;\\s*q\\s*=\\s*(?<q>[0-9.]+))?\\s*(,|$)");

	private final Set<String> mimeTypes;

	private final List<Pattern> excludedUserAgents;

	private final int minResponseSize;

	/**
	 * Creates the filter.
	 * @param mimeTypes the media types to compress, without parameters ({@code text/html})
	 * @param excludedUserAgents regular expressions of user agents never given gzip
	 * @param minResponseSize the smallest body worth compressing, in bytes
	 */
	public GzipCompressionFilter(Set<String> mimeTypes, List<String> excludedUserAgents, int minResponseSize) {
		this.mimeTypes = mimeTypes.stream()
			.map((type) -> type.toLowerCase(Locale.ROOT))
			.collect(Collectors.toUnmodifiableSet());
		this.excludedUserAgents = excludedUserAgents.stream().map(Pattern::compile).toList();
		this.minResponseSize = Math.max(0, minResponseSize);
	}

	/**
	 * Returns an initializer that registers the filter before every other filter, for requests
	 * and their asynchronous and error dispatches.
	 * @param filter the filter
	 * @return the initializer
	 */
	public static ServletStartup initializer(GzipCompressionFilter filter) {
		return (context) -> {
			FilterRegistration.Dynamic registration = context.addFilter("ariadneGzipCompressionFilter", filter);
			registration.setAsyncSupported(true);
			registration.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
		};
	}

	@Override
	public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		if (!(request instanceof HttpServletRequest http) || !(response instanceof HttpServletResponse httpResponse)
				|| !acceptsGzip(http) || isExcluded(http.getHeader("User-Agent"))) {
			chain.doFilter(request, response);
			return;
		}
		CompressingResponse compressing = new CompressingResponse(httpResponse);
		// on an exception the container answers with an error page: nothing held is sent
		chain.doFilter(request, compressing);
		if (request.isAsyncStarted()) {
			request.getAsyncContext().addListener(new FinishOnComplete(compressing));
		}
		else {
			compressing.finish();
		}
	}

	static boolean acceptsGzip(HttpServletRequest request) {
		return acceptsGzip(request.getHeader("Accept-Encoding"));
	}

	private static boolean acceptsGzip(String accept) {
		if (accept == null) {
			return false;
		}
		Matcher matcher = GZIP.matcher(accept.toLowerCase(Locale.ROOT));
		while (matcher.find()) {
			String q = matcher.group("q");
			try {
				if (q == null || Double.parseDouble(q) > 0) {
					return true;
				}
			}
			catch (NumberFormatException ex) {
				return false;
			}
		}
		return false;
	}

	/**
	 * Returns whether these settings compress a response, for a server that applies them
	 * outside a servlet filter chain (Ariadne's WebFlux adapter): the request accepts gzip,
	 * its user agent is not excluded, the status may carry a body, the media type is one of
	 * the configured ones, nothing encoded the body already, and a declared length is at least
	 * the minimum size (a body of unknown length is compressed).
	 * @param acceptEncoding the request's {@code Accept-Encoding}, or {@code null}
	 * @param userAgent the request's {@code User-Agent}, or {@code null}
	 * @param status the response status
	 * @param contentType the response's {@code Content-Type}, or {@code null}
	 * @param contentEncoding the response's {@code Content-Encoding}, or {@code null}
	 * @param contentLength the declared body length, or -1 when unknown
	 * @return whether to compress the body
	 */
	public boolean compresses(String acceptEncoding, String userAgent, int status, String contentType,
			String contentEncoding, long contentLength) {
		return acceptsGzip(acceptEncoding) && !isExcluded(userAgent)
				&& compressible(status, contentType, contentEncoding)
				&& (contentLength < 0 || contentLength >= this.minResponseSize);
	}

	private boolean isExcluded(String userAgent) {
		if (userAgent == null) {
			return false;
		}
		for (Pattern pattern : this.excludedUserAgents) {
			if (pattern.matcher(userAgent).matches()) {
				return true;
			}
		}
		return false;
	}

	private boolean compressible(HttpServletResponse response) {
		return compressible(response.getStatus(), response.getContentType(), response.getHeader("Content-Encoding"));
	}

	private boolean compressible(int status, String type, String contentEncoding) {
		// a 206 carries ranges of the uncompressed body, which its Content-Range counts
		if (status < 200 || status == 204 || status == 206 || status == 304 || contentEncoding != null
				|| type == null) {
			return false;
		}
		int semicolon = type.indexOf(';');
		String mediaType = ((semicolon >= 0) ? type.substring(0, semicolon) : type).trim().toLowerCase(Locale.ROOT);
		return this.mimeTypes.contains(mediaType);
	}

	/** Ends the body after an asynchronous request completes. */
	private static final class FinishOnComplete implements AsyncListener {

		private final CompressingResponse response;

		FinishOnComplete(CompressingResponse response) {
			this.response = response;
		}

		@Override
		public void onComplete(AsyncEvent event) throws IOException {
			this.response.finish();
		}

		@Override
		public void onTimeout(AsyncEvent event) {
		}

		@Override
		public void onError(AsyncEvent event) {
		}

		@Override
		public void onStartAsync(AsyncEvent event) {
			event.getAsyncContext().addListener(this);
		}

	}

	/** The response the application writes to: decides at its first bytes whether to compress. */
	private final class CompressingResponse extends HttpServletResponseWrapper {

		private final HttpServletResponse response;

		private CompressingStream stream;

		private PrintWriter writer;

		/** The Content-Length the application declared, held until the stream decides. */
		private long declaredLength = -1;

		CompressingResponse(HttpServletResponse response) {
			super(response);
			this.response = response;
		}

		@Override
		public ServletOutputStream getOutputStream() throws IOException {
			if (this.writer != null) {
				throw new IllegalStateException("getWriter() was already called for this response");
			}
			return stream();
		}

		@Override
		public PrintWriter getWriter() throws IOException {
			if (this.writer == null) {
				if (this.stream != null) {
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
			if (this.stream != null && this.stream.decided) {
				if (this.stream.gzip == null) {
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
			if (isContentLength(name) && this.declaredLength >= 0 && (this.stream == null || !this.stream.decided)) {
				return Long.toString(this.declaredLength);
			}
			return super.getHeader(name);
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

		@Override
		public void flushBuffer() throws IOException {
			if (this.writer != null) {
				this.writer.flush();
			}
			if (this.stream != null) {
				this.stream.flush();
			}
			else {
				super.flushBuffer();
			}
		}

		@Override
		public void reset() {
			super.reset();
			this.stream = null;
			this.writer = null;
			this.declaredLength = -1;
		}

		@Override
		public void resetBuffer() {
			super.resetBuffer();
			if (this.stream != null && !this.stream.decided) {
				this.stream.held = 0;
			}
		}

		void finish() throws IOException {
			if (this.writer != null) {
				this.writer.flush();
			}
			if (this.stream != null) {
				this.stream.finish();
			}
		}

	}

	/** Holds the first bytes until it can decide, then writes them plain or through gzip. */
	private final class CompressingStream extends ServletOutputStream {

		private final CompressingResponse response;

		private byte[] heldBytes;

		private int held;

		private boolean decided;

		private GZIPOutputStream gzip;

		private ServletOutputStream target;

		private boolean finished;

		CompressingStream(CompressingResponse response) {
			this.response = response;
		}

		@Override
		public void write(int b) throws IOException {
			write(new byte[] { (byte) b }, 0, 1);
		}

		@Override
		public void write(byte[] bytes, int offset, int length) throws IOException {
			if (this.finished) {
				throw new IOException("The response body has ended");
			}
			if (!this.decided) {
				long declared = this.response.declaredLength;
				boolean small = declared >= 0 && declared < GzipCompressionFilter.this.minResponseSize;
				if (small || !compressible(this.response)) {
					decide(false);
				}
				else if (declared >= 0 || this.held + length >= GzipCompressionFilter.this.minResponseSize) {
					decide(true);
				}
				else {
					hold(bytes, offset, length);
					return;
				}
			}
			out().write(bytes, offset, length);
		}

		private void hold(byte[] bytes, int offset, int length) {
			if (this.heldBytes == null) {
				this.heldBytes = new byte[Math.max(64, GzipCompressionFilter.this.minResponseSize)];
			}
			System.arraycopy(bytes, offset, this.heldBytes, this.held, length);
			this.held += length;
		}

		private void decide(boolean compress) throws IOException {
			this.decided = true;
			HttpServletResponse response = this.response.response;
			if (compress) {
				response.setHeader("Content-Encoding", "gzip");
				response.addHeader("Vary", "Accept-Encoding");
				this.target = response.getOutputStream();
				this.gzip = new GZIPOutputStream(this.target, 8192, true);
			}
			else {
				if (this.response.declaredLength >= 0) {
					response.setContentLengthLong(this.response.declaredLength);
				}
				this.target = response.getOutputStream();
			}
			if (this.held > 0) {
				out().write(this.heldBytes, 0, this.held);
				this.held = 0;
			}
			this.heldBytes = null;
		}

		private OutputStream out() {
			return (this.gzip != null) ? this.gzip : this.target;
		}

		@Override
		public void flush() throws IOException {
			if (!this.decided) {
				// a flush commits the response: decide with what is held
				decide(compressible(this.response) && this.held >= GzipCompressionFilter.this.minResponseSize);
			}
			out().flush();
		}

		@Override
		public void close() throws IOException {
			finish();
		}

		void finish() throws IOException {
			if (this.finished) {
				return;
			}
			if (!this.decided) {
				// the whole body is held and shorter than the minimum
				decide(false);
			}
			this.finished = true;
			if (this.gzip != null) {
				this.gzip.finish();
			}
			this.target.close();
		}

		@Override
		public boolean isReady() {
			return (this.target == null) || this.target.isReady();
		}

		@Override
		public void setWriteListener(WriteListener listener) {
			if (this.target == null) {
				try {
					decide(false);
				}
				catch (IOException ex) {
					listener.onError(ex);
					return;
				}
			}
			this.target.setWriteListener(listener);
		}

	}

}
