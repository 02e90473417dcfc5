package dev.ariadne.servlet;

import dev.ariadne.server.IoModel;

class EventLoopCompressionIT extends AbstractCompressionIT {

	@Override
	IoModel model() {
		return IoModel.EVENT_LOOP;
	}

}
