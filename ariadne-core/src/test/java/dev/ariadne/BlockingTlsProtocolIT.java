package dev.ariadne;

/**
 * The conformance suite against the {@code blocking} I/O model over TLS: the same requests and
 * the same answers as over plaintext.
 */
class BlockingTlsProtocolIT extends BlockingProtocolIT {

	@Override
	boolean tls() {
		return true;
	}

}
