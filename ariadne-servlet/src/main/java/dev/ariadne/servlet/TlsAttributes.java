package dev.ariadne.servlet;

import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;

import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * The request attributes of a request that came over TLS (Servlet 6.1 section 3.10): the
 * client's certificate chain, the cipher suite, the key size and the session id, which
 * frameworks such as Spring Security read.
 */
final class TlsAttributes {

	/** The client's certificate chain, an {@code X509Certificate[]}, when it presented one. */
	static final String CERTIFICATES = "jakarta.servlet.request.X509Certificate";

	/** The cipher suite's name, a {@code String}. */
	static final String CIPHER_SUITE = "jakarta.servlet.request.cipher_suite";

	/** The bulk cipher's key size in bits, an {@code Integer}. */
	static final String KEY_SIZE = "jakarta.servlet.request.key_size";

	/** The TLS session id in hexadecimal, a {@code String}. */
	static final String SESSION_ID = "jakarta.servlet.request.ssl_session_id";

	private TlsAttributes() {
	}

	/**
	 * Puts the attributes of a TLS session into a request's attributes.
	 * @param session the session, or {@code null} for a plaintext request, which gets none
	 * @param attributes the request's attributes
	 */
	static void put(SSLSession session, Map<String, Object> attributes) {
		if (session == null) {
			return;
		}
		String suite = session.getCipherSuite();
		attributes.put(CIPHER_SUITE, suite);
		attributes.put(KEY_SIZE, keySize(suite));
		attributes.put(SESSION_ID, HexFormat.of().formatHex(session.getId()));
		X509Certificate[] chain = certificates(session);
		if (chain != null) {
			attributes.put(CERTIFICATES, chain);
		}
	}

	private static X509Certificate[] certificates(SSLSession session) {
		Certificate[] peer;
		try {
			peer = session.getPeerCertificates();
		}
		catch (SSLPeerUnverifiedException ex) {
			return null;
		}
		X509Certificate[] chain = Arrays.stream(peer)
			.filter(X509Certificate.class::isInstance)
			.map(X509Certificate.class::cast)
			.toArray(X509Certificate[]::new);
		return (chain.length > 0) ? chain : null;
	}

	/** The key size of the suite's bulk cipher, from its name (every suite TLS 1.2 and 1.3 allow). */
	static int keySize(String suite) {
		if (suite.contains("_256_") || suite.contains("CHACHA20")) {
			return 256;
		}
		if (suite.contains("_128_")) {
			return 128;
		}
		return 0;
	}

}
