package dev.ariadne.autoconfigure;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * PKCS12 key stores generated for a test by the JDK's {@code keytool}: a self-signed EC key
 * for {@code localhost}, valid two days, so that no private key is committed.
 */
public final class TestKeyStores {

	/** The password of every store and key. */
	public static final String PASSWORD = "test-only";

	private TestKeyStores() {
	}

	/**
	 * Generates a key store with one key, alias {@code server}, for {@code CN=<name>}.
	 * @param directory where to write it
	 * @param name the certificate's common name, and the file's name
	 * @return the store's path
	 * @throws Exception if keytool fails
	 */
	public static Path generate(Path directory, String name) throws Exception {
		Path store = directory.resolve(name + ".p12");
		Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
				"-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + name,
				"-ext", "san=dns:localhost,ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12", "-keystore",
				store.toString(), "-storepass", PASSWORD)
			.redirectErrorStream(true)
			.start();
		String output = new String(process.getInputStream().readAllBytes());
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).as(output).isZero();
		return store;
	}

	/**
	 * Loads a generated store.
	 * @param path the store
	 * @return the store
	 * @throws Exception if it cannot be read
	 */
	public static KeyStore load(Path path) throws Exception {
		KeyStore store = KeyStore.getInstance("PKCS12");
		try (InputStream in = Files.newInputStream(path)) {
			store.load(in, PASSWORD.toCharArray());
		}
		return store;
	}

	/**
	 * Returns a server context with the store's key.
	 * @param path the store
	 * @return the context
	 * @throws Exception if it cannot be built
	 */
	public static SSLContext serverContext(Path path) throws Exception {
		KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
		keys.init(load(path), PASSWORD.toCharArray());
		SSLContext context = SSLContext.getInstance("TLS");
		context.init(keys.getKeyManagers(), null, null);
		return context;
	}

	/**
	 * Returns a client context that trusts the store's certificate.
	 * @param path the store
	 * @return the context
	 * @throws Exception if it cannot be built
	 */
	public static SSLContext clientContext(Path path) throws Exception {
		TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
		trust.init(load(path));
		SSLContext context = SSLContext.getInstance("TLS");
		context.init(null, trust.getTrustManagers(), null);
		return context;
	}

}
