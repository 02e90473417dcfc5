package dev.ariadne;

import dev.ariadne.server.IoModel;

/**
 * The conformance suite against the {@code virtual-threads} I/O model; skipped, with the reason,
 * on a JDK older than 21.
 */
class VirtualThreadsProtocolIT extends AbstractProtocolIT {

	@Override
	IoModel ioModel() {
		return IoModel.VIRTUAL_THREADS;
	}

}
