package dev.ariadne;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Throwaway certificates for TLS tests, generated with the JDK's {@code keytool} when first
 * needed and kept under {@code target/test-certificates} for a day (they are valid for three):
 * a test CA, and key pairs it signed for {@link #LOCALHOST} (also valid for 127.0.0.1), a
 * renewal of it ({@link #RENEWED}), {@link #A_TEST} and {@link #WILDCARD} for SNI, and a client
 * ({@link #CLIENT}). Nothing here is a secret: the keys exist for one build on one machine.
 */
public final class TestCertificates {

	/** The password of the generated key store and of its keys. */
	public static final String PASSWORD = "test-only";

	/** The CA's alias. */
	public static final String CA = "ca";

	/** A server certificate for {@code localhost} and {@code 127.0.0.1}. */
	public static final String LOCALHOST = "localhost";

	/** Another server certificate for {@code localhost}, as a renewal would bring. */
	public static final String RENEWED = "localhost-renewed";

	/** A server certificate for {@code a.test}. */
	public static final String A_TEST = "a.test";

	/** A server certificate for {@code *.wild.test}. */
	public static final String WILDCARD = "wildcard";

	/** A client certificate, {@code CN=client}. */
	public static final String CLIENT = "client";

	private static final Duration REUSE = Duration.ofDays(1);

	private static TestCertificates instance;

	private final Path directory;

	private final KeyStore store;

	private TestCertificates(Path directory) throws IOException, GeneralSecurityException {
		this.directory = directory;
		this.store = KeyStore.getInstance("PKCS12");
		try (InputStream in = Files.newInputStream(keyStore())) {
			this.store.load(in, PASSWORD.toCharArray());
		}
	}

	/**
	 * Returns the certificates, generating them on first use.
	 * @return the certificates
	 */
	public static synchronized TestCertificates get() {
		if (instance == null) {
			Path directory = Path.of("target", "test-certificates").toAbsolutePath();
			try {
				if (!fresh(directory)) {
					generate(directory);
				}
				instance = new TestCertificates(directory);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			catch (GeneralSecurityException ex) {
				throw new IllegalStateException(ex);
			}
		}
		return instance;
	}

	private static boolean fresh(Path directory) throws IOException {
		Path done = directory.resolve("done");
		return Files.exists(done)
				&& Files.getLastModifiedTime(done).toInstant().isAfter(Instant.now().minus(REUSE));
	}

	private static void generate(Path directory) throws IOException, GeneralSecurityException {
		Files.createDirectories(directory);
		Files.deleteIfExists(directory.resolve("done"));
		Path store = directory.resolve("certificates.p12");
		Files.deleteIfExists(store);
		keytool(directory, "-genkeypair", "-alias", CA, "-dname", "CN=Ariadne Test CA", "-ext", "bc:c");
		leaf(directory, LOCALHOST, "CN=localhost", "SAN=dns:localhost,ip:127.0.0.1");
		leaf(directory, RENEWED, "CN=localhost,OU=renewed", "SAN=dns:localhost,ip:127.0.0.1");
		leaf(directory, A_TEST, "CN=a.test", "SAN=dns:a.test");
		leaf(directory, WILDCARD, "CN=*.wild.test", "SAN=dns:*.wild.test");
		leaf(directory, CLIENT, "CN=client", "EKU=clientAuth");
		KeyStore keys = KeyStore.getInstance("PKCS12");
		try (InputStream in = Files.newInputStream(store)) {
			keys.load(in, PASSWORD.toCharArray());
		}
		Files.writeString(directory.resolve("ca.pem"), pem("CERTIFICATE", keys.getCertificate(CA).getEncoded()));
		for (String alias : List.of(LOCALHOST, RENEWED, A_TEST, WILDCARD, CLIENT)) {
			StringBuilder chain = new StringBuilder();
			for (Certificate certificate : keys.getCertificateChain(alias)) {
				chain.append(pem("CERTIFICATE", certificate.getEncoded()));
			}
			Files.writeString(directory.resolve(alias + ".crt"), chain);
			Files.writeString(directory.resolve(alias + ".key"),
					pem("PRIVATE KEY", keys.getKey(alias, PASSWORD.toCharArray()).getEncoded()));
		}
		Files.writeString(directory.resolve("done"), "");
		Files.setLastModifiedTime(directory.resolve("done"), FileTime.from(Instant.now()));
	}

	private static void leaf(Path directory, String alias, String name, String extension) throws IOException {
		keytool(directory, "-genkeypair", "-alias", alias, "-dname", name, "-ext", extension, "-signer", CA);
	}

	private static void keytool(Path directory, String... arguments) throws IOException {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
		command.addAll(List.of(arguments));
		command.addAll(List.of("-keyalg", "EC", "-groupname", "secp256r1", "-validity", "3", "-keystore",
				"certificates.p12", "-storetype", "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD));
		Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
		try {
			if (!process.waitFor(60, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				throw new IOException("keytool did not finish within 60 s: " + command);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			process.destroyForcibly();
			throw new IOException("Interrupted while running keytool", ex);
		}
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (process.exitValue() != 0) {
			throw new IOException("keytool failed (" + process.exitValue() + "): " + command + "\n" + output);
		}
	}

	private static String pem(String type, byte[] der) {
		return "-----BEGIN " + type + "-----\n"
				+ Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
				+ "\n-----END " + type + "-----\n";
	}

	/**
	 * Returns the PKCS12 key store holding the CA and every key pair, by alias, with
	 * {@link #PASSWORD}.
	 * @return the file
	 */
	public Path keyStore() {
		return this.directory.resolve("certificates.p12");
	}

	/**
	 * Returns the CA's certificate, PEM.
	 * @return the file
	 */
	public Path caCertificate() {
		return this.directory.resolve("ca.pem");
	}

	/**
	 * Returns a key pair's certificate chain, PEM, the CA's last.
	 * @param alias the key pair
	 * @return the file
	 */
	public Path certificateChain(String alias) {
		return this.directory.resolve(alias + ".crt");
	}

	/**
	 * Returns a key pair's private key, PEM (PKCS#8, unencrypted).
	 * @param alias the key pair
	 * @return the file
	 */
	public Path privateKey(String alias) {
		return this.directory.resolve(alias + ".key");
	}

	/**
	 * Returns a key pair's certificate.
	 * @param alias the key pair
	 * @return the certificate
	 */
	public X509Certificate certificate(String alias) {
		try {
			return (X509Certificate) this.store.getCertificate(alias);
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Returns a server's context: the key pair of an alias, and the CA as the only trust anchor
	 * (for client certificates).
	 * @param alias the server's key pair
	 * @return the context
	 */
	public SSLContext serverContext(String alias) {
		return context(alias);
	}

	/**
	 * Returns a client's context that trusts the CA only.
	 * @return the context
	 */
	public SSLContext clientContext() {
		return context(null);
	}

	/**
	 * Returns a client's context that trusts the CA only and presents {@link #CLIENT}'s
	 * certificate.
	 * @return the context
	 */
	public SSLContext clientContextWithCertificate() {
		return context(CLIENT);
	}

	private SSLContext context(String alias) {
		try {
			KeyStore keys = KeyStore.getInstance("PKCS12");
			keys.load(null, null);
			if (alias != null) {
				keys.setKeyEntry(alias, this.store.getKey(alias, PASSWORD.toCharArray()), PASSWORD.toCharArray(),
						this.store.getCertificateChain(alias));
			}
			KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
			keyManagers.init(keys, PASSWORD.toCharArray());
			KeyStore trust = KeyStore.getInstance("PKCS12");
			trust.load(null, null);
			trust.setCertificateEntry(CA, this.store.getCertificate(CA));
			TrustManagerFactory trustManagers = TrustManagerFactory
				.getInstance(TrustManagerFactory.getDefaultAlgorithm());
			trustManagers.init(trust);
			SSLContext context = SSLContext.getInstance("TLS");
			context.init(keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), null);
			return context;
		}
		catch (GeneralSecurityException | IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
