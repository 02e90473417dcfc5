package dev.ariadne.bench;

/**
 * h2c for the bench servers: when {@code bench/run} starts a {@code -h2c} variant it sets the
 * system property {@value #PROPERTY}, and every server then serves HTTP/2 without TLS (by prior
 * knowledge, as h2load connects) beside HTTP/1.1 on the same port, as Spring Boot configures each
 * of them for {@code server.http2.enabled} without SSL.
 */
final class BenchH2c {

	/** System property: {@code true} to serve h2c. */
	static final String PROPERTY = "bench.h2c";

	private BenchH2c() {
	}

	/**
	 * Returns whether this server is to serve h2c.
	 * @return whether the property is {@code true}
	 */
	static boolean enabled() {
		return Boolean.getBoolean(PROPERTY);
	}

}
