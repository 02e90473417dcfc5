package dev.ariadne.server.tls;

import javax.net.ssl.SSLException;

/**
 * The client sent plaintext HTTP to a TLS port. Nothing was written to it: the connection
 * answers 400 in plaintext, saying that the port expects TLS, then closes. From then on the
 * {@link TlsChannel} that threw it passes bytes through unencrypted, so that the answer goes
 * out the same way as any other.
 */
public final class PlaintextRequestException extends SSLException {

	private static final long serialVersionUID = 1L;

	PlaintextRequestException() {
		super("Plaintext HTTP sent to a TLS port");
	}

}
