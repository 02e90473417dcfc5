package dev.ariadne.server;

/**
 * The conformance suite against the {@code event-loop} I/O model.
 */
class EventLoopProtocolIT extends AbstractProtocolIT {

	@Override
	IoModel ioModel() {
		return IoModel.EVENT_LOOP;
	}

	@Override
	boolean readsBodyBeforeHandler() {
		return true;
	}

}
