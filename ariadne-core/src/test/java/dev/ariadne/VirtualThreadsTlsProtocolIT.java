package dev.ariadne;

/**
 * The conformance suite against the {@code virtual-threads} I/O model over TLS: the same
 * requests and the same answers as over plaintext; skipped, with the reason, on a JDK older
 * than 21.
 */
class VirtualThreadsTlsProtocolIT extends VirtualThreadsProtocolIT {

	@Override
	boolean tls() {
		return true;
	}

}
