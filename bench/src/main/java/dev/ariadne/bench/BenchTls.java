package dev.ariadne.bench;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * TLS for the bench servers: when {@code bench/run} starts a {@code -tls} variant it passes a
 * PKCS12 key store it generated with {@code keytool} as the system properties
 * {@value #KEY_STORE} and {@value #PASSWORD}; every server then serves TLS 1.3 and 1.2 with the
 * JDK's provider (SunJSSE), so that the comparison measures the servers, not the providers.
 */
final class BenchTls {

	/** System property: the PKCS12 key store's path. */
	static final String KEY_STORE = "bench.tls.key-store";

	/** System property: the key store's and the key's password. */
	static final String PASSWORD = "bench.tls.password";

	private BenchTls() {
	}

	/**
	 * Returns whether this server is to serve TLS.
	 * @return whether the key store property is set
	 */
	static boolean enabled() {
		return System.getProperty(KEY_STORE) != null;
	}

	static String keyStore() {
		return System.getProperty(KEY_STORE);
	}

	static String password() {
		return System.getProperty(PASSWORD, "");
	}

	/**
	 * Returns a server context with the key store's key.
	 * @return the context
	 * @throws Exception if the store cannot be read
	 */
	static SSLContext context() throws Exception {
		SSLContext context = SSLContext.getInstance("TLS");
		context.init(keyManagers().getKeyManagers(), null, null);
		return context;
	}

	/**
	 * Returns the JDK's key managers for the key store's key, for a server that builds its own
	 * context from them (Netty's {@code SslContextBuilder}).
	 * @return the initialised factory
	 * @throws Exception if the store cannot be read
	 */
	static KeyManagerFactory keyManagers() throws Exception {
		KeyStore store = KeyStore.getInstance("PKCS12");
		try (InputStream in = Files.newInputStream(Path.of(keyStore()))) {
			store.load(in, password().toCharArray());
		}
		KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
		keys.init(store, password().toCharArray());
		return keys;
	}

}
