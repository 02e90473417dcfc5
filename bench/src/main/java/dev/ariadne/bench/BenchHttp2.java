package dev.ariadne.bench;

/**
 * HTTP/2 for the bench servers: when {@code bench/run} starts a {@code -h2c} or {@code -h2}
 * variant it sets the system property {@value #PROPERTY}, and every server then serves HTTP/2
 * beside HTTP/1.1 on the same port, as Spring Boot configures each of them for
 * {@code server.http2.enabled}: h2c (by prior knowledge, as h2load connects, or by
 * {@code Upgrade}) without TLS, and h2 chosen by ALPN ({@code h2}, {@code http/1.1}) with
 * {@link BenchTls}.
 */
final class BenchHttp2 {

	/** System property: {@code true} to serve HTTP/2. */
	static final String PROPERTY = "bench.http2";

	/** The ALPN protocol identifiers a TLS server offers with HTTP/2 on, in its order. */
	static final String[] ALPN = { "h2", "http/1.1" };

	private BenchHttp2() {
	}

	/**
	 * Returns whether this server is to serve HTTP/2.
	 * @return whether the property is {@code true}
	 */
	static boolean enabled() {
		return Boolean.getBoolean(PROPERTY);
	}

}
