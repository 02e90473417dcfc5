package dev.ariadne;

import dev.ariadne.server.IoModel;

/**
 * The conformance suite against the {@code event-loop} I/O model.
 */
class EventLoopProtocolIT extends AbstractProtocolIT {

	@Override
	IoModel ioModel() {
		return IoModel.EVENT_LOOP;
	}

}
