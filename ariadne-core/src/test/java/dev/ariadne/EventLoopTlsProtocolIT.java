package dev.ariadne;

/**
 * The conformance suite against the {@code event-loop} I/O model over TLS: the same requests and
 * the same answers as over plaintext.
 */
class EventLoopTlsProtocolIT extends EventLoopProtocolIT {

	@Override
	boolean tls() {
		return true;
	}

}
