package dev.ariadne;

import dev.ariadne.server.IoModel;

/**
 * The conformance suite against the {@code blocking} I/O model.
 */
class BlockingProtocolIT extends AbstractProtocolIT {

	@Override
	IoModel ioModel() {
		return IoModel.BLOCKING;
	}

}
