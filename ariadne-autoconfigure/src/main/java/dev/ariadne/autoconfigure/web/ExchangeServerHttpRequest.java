package dev.ariadne.autoconfigure.web;

import java.net.InetSocketAddress;
import java.net.URI;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

import dev.ariadne.http.Headers;
import dev.ariadne.server.AsyncResponse;
import dev.ariadne.server.Request;
import reactor.core.publisher.Flux;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.http.HttpCookie;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.AbstractServerHttpRequest;
import org.springframework.http.server.reactive.SslInfo;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;

/**
 * A WebFlux {@code ServerHttpRequest} on Ariadne's exchange: the core's {@link Request} with
 * its body read without waiting ({@link RequestBodyPublisher}), on the exchange's pool.
 */
final class ExchangeServerHttpRequest extends AbstractServerHttpRequest {

	private final Request request;

	private final RequestBodyPublisher publisher;

	private final Flux<DataBuffer> body;

	ExchangeServerHttpRequest(Request request, URI uri, AsyncResponse exchange, DataBufferFactory bufferFactory) {
		super(HttpMethod.valueOf(request.method().name()), uri,
				(request.forwardedPrefix() != null) ? request.forwardedPrefix() : "", headers(request.headers()));
		this.request = request;
		this.publisher = hasBody(request) ? new RequestBodyPublisher(exchange, bufferFactory) : null;
		this.body = (this.publisher != null) ? Flux.from(this.publisher) : Flux.empty();
	}

	/**
	 * Returns whether reading the body failed on its framing or a limit, so that the response
	 * says the connection closes.
	 * @return whether the framing is lost
	 */
	boolean framingLost() {
		return this.publisher != null && this.publisher.framingLost();
	}

	/**
	 * Returns the URI of a request as WebFlux expects it: scheme and authority (from the
	 * {@code Host} header, else the local address) followed by the target as sent; behind a
	 * trusted proxy's {@code X-Forwarded-Prefix}, the prefix before the path, which is then the
	 * request's context path, as on Reactor Netty.
	 * @param request the request
	 * @return the URI, or {@code null} when the target or host cannot be one
	 */
	static URI uri(Request request) {
		String target = request.target();
		String scheme = request.secure() ? "https" : "http";
		String prefix = (request.forwardedPrefix() != null) ? request.forwardedPrefix() : "";
		try {
			if (target.startsWith("/")) {
				String host = request.header("Host");
				if (host == null || host.isEmpty()) {
					InetSocketAddress local = request.localAddress();
					String address = local.getAddress().getHostAddress();
					host = ((address.indexOf(':') >= 0) ? "[" + address + "]" : address) + ":" + local.getPort();
				}
				return new URI(scheme + "://" + host + prefix + target);
			}
			URI absolute = new URI(target);
			if (absolute.getScheme() == null || absolute.getRawAuthority() == null) {
				return null;
			}
			if (prefix.isEmpty()) {
				return absolute;
			}
			String query = absolute.getRawQuery();
			return new URI(absolute.getScheme() + "://" + absolute.getRawAuthority() + prefix + absolute.getRawPath()
					+ ((query != null) ? "?" + query : ""));
		}
		catch (Exception ex) {
			return null;
		}
	}

	private static HttpHeaders headers(Headers fields) {
		HttpHeaders headers = new HttpHeaders();
		for (int i = 0; i < fields.size(); i++) {
			headers.add(fields.name(i), fields.value(i));
		}
		return headers;
	}

	private static boolean hasBody(Request request) {
		if (request.header("Transfer-Encoding") != null) {
			return true;
		}
		String length = request.header("Content-Length");
		return length != null && !length.equals("0");
	}

	@Override
	protected MultiValueMap<String, HttpCookie> initCookies() {
		MultiValueMap<String, HttpCookie> cookies = new LinkedMultiValueMap<>();
		for (String header : this.request.headers().all("Cookie")) {
			int start = 0;
			while (start < header.length()) {
				int end = header.indexOf(';', start);
				if (end < 0) {
					end = header.length();
				}
				int equals = header.indexOf('=', start);
				if (equals > start && equals < end) {
					String name = header.substring(start, equals).trim();
					String value = header.substring(equals + 1, end).trim();
					if (value.length() >= 2 && value.charAt(0) == '"' && value.charAt(value.length() - 1) == '"') {
						value = value.substring(1, value.length() - 1);
					}
					if (!name.isEmpty()) {
						cookies.add(name, new HttpCookie(name, value));
					}
				}
				start = end + 1;
			}
		}
		return cookies;
	}

	@Override
	protected SslInfo initSslInfo() {
		SSLSession session = this.request.tlsSession();
		if (session == null) {
			return null;
		}
		String id = HexFormat.of().formatHex(session.getId());
		List<X509Certificate> certificates = new ArrayList<>();
		try {
			for (Certificate certificate : session.getPeerCertificates()) {
				if (certificate instanceof X509Certificate x509) {
					certificates.add(x509);
				}
			}
		}
		catch (SSLPeerUnverifiedException ex) {
			// the client presented no certificate
		}
		return SslInfo.from(id, certificates.toArray(new X509Certificate[0]));
	}

	@Override
	public InetSocketAddress getRemoteAddress() {
		return this.request.remoteAddress();
	}

	@Override
	public InetSocketAddress getLocalAddress() {
		return this.request.localAddress();
	}

	@Override
	public Flux<DataBuffer> getBody() {
		return this.body;
	}

	@Override
	@SuppressWarnings("unchecked")
	public <T> T getNativeRequest() {
		return (T) this.request;
	}

}
