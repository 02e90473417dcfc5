package dev.ariadne.servlet;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Compresses response bodies with gzip for clients that accept it: what
 * {@code server.compression.*} asks of a servlet container. A body is compressed when the
 * request's {@code Accept-Encoding} allows {@code gzip}, the response's media type is one of
 * the configured ones ({@code text/html}; {@code text/*} and {@code *}{@code /*} match a whole
 * family; parameters are ignored on both sides), nothing set a {@code Content-Encoding}
 * already, the status carries a whole body (not 1xx, 204, 206 or 304), the client's
 * {@code User-Agent} is not excluded, and the body is not known to be under the minimum size.
 *
 * <p>The size is judged as Tomcat and Jetty judge it: by the {@code Content-Length} the
 * application declared, if any; else by the body itself when it ends within the response's
 * buffer (its first bytes are held until the minimum is reached, the buffer would overflow or
 * the body ends); a body that outgrows the buffer, or is flushed before it ends, commits with
 * its length unknown and is compressed, however short. Non-blocking writers
 * ({@code WriteListener}) are compressed the same way: every write of the application is one
 * write of the container's stream, and {@code isReady()} is the container's.
 *
 * <p>A compressed response loses the application's {@code Content-Length} (it gets the
 * compressed one when that fits the container's buffer, else goes out chunked), gains
 * {@code Vary: Accept-Encoding}, and a strong {@code ETag} becomes weak (the bytes differ from
 * the identity's). A response that would have been compressed for a client that accepts gzip
 * gains {@code Vary: Accept-Encoding} too, so that a cache keeps the two apart.
 * {@code flush()} flushes the compressor too, so streamed bodies still arrive as they are
 * written.
 */
public final class GzipCompressionFilter implements Filter {

	private static final Pattern GZIP = Pattern.compile("(^|,)\\s*(gzip|\\*)\\s*(;\\s*q\\s*=\\s*(?<q>[0-9.]+))?\\s*(,|$)");

	/** Exact media types, {@code text/html}. */
	private final Set<String> mimeTypes = new HashSet<>();

	/** Families by their type ({@code text} for {@code text/*}); {@code *} for every type. */
	private final Set<String> mimeFamilies = new HashSet<>();

	/** Structured-syntax families, {@code application/*+json} as {@code application} and {@code +json}. */
	private final List<String[]> mimeSuffixes = new ArrayList<>();

	private final List<Pattern> excludedUserAgents;

	private final int minResponseSize;

	/**
	 * Creates the filter.
	 * @param mimeTypes the media types to compress ({@code text/html}, {@code text/*},
	 * {@code application/*+json}); parameters are ignored
	 * @param excludedUserAgents regular expressions of user agents never given gzip
	 * @param minResponseSize the smallest body worth compressing, in bytes
	 */
	public GzipCompressionFilter(Set<String> mimeTypes, List<String> excludedUserAgents, int minResponseSize) {
		for (String configured : mimeTypes) {
			String type = MediaTypes.type(configured);
			int slash = type.indexOf('/');
			String subtype = (slash >= 0) ? type.substring(slash + 1) : "";
			if (type.equals("*") || type.equals("*/*")) {
				this.mimeFamilies.add("*");
			}
			else if (subtype.equals("*")) {
				this.mimeFamilies.add(type.substring(0, slash));
			}
			else if (subtype.startsWith("*+")) {
				this.mimeSuffixes.add(new String[] { type.substring(0, slash), subtype.substring(1) });
			}
			else {
				this.mimeTypes.add(type);
			}
		}
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
		if (!(request instanceof HttpServletRequest http) || !(response instanceof HttpServletResponse httpResponse)) {
			chain.doFilter(request, response);
			return;
		}
		boolean gzip = acceptsGzip(http) && !isExcluded(http.getHeader("User-Agent"));
		CompressingResponse compressing = new CompressingResponse(httpResponse, this, gzip);
		try {
			chain.doFilter(request, compressing);
		}
		catch (IOException | ServletException | RuntimeException | Error ex) {
			// the container answers with an error page: nothing held is sent
			compressing.abandon();
			throw ex;
		}
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

	int minResponseSize() {
		return this.minResponseSize;
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

	boolean compressible(HttpServletResponse response) {
		return compressible(response.getStatus(), response.getContentType(), response.getHeader("Content-Encoding"));
	}

	private boolean compressible(int status, String contentType, String contentEncoding) {
		// a 206 carries ranges of the uncompressed body, which its Content-Range counts
		if (status < 200 || status == 204 || status == 206 || status == 304 || contentEncoding != null
				|| contentType == null) {
			return false;
		}
		String type = MediaTypes.type(contentType);
		if (this.mimeTypes.contains(type) || this.mimeFamilies.contains("*")) {
			return true;
		}
		int slash = type.indexOf('/');
		if (slash <= 0) {
			return false;
		}
		String family = type.substring(0, slash);
		if (this.mimeFamilies.contains(family)) {
			return true;
		}
		for (String[] suffix : this.mimeSuffixes) {
			if (suffix[0].equals(family) && type.endsWith(suffix[1])) {
				return true;
			}
		}
		return false;
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

}
