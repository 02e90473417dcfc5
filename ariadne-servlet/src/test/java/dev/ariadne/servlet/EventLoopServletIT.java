package dev.ariadne.servlet;

import dev.ariadne.server.IoModel;

class EventLoopServletIT extends AbstractServletIT {

	@Override
	IoModel model() {
		return IoModel.EVENT_LOOP;
	}

}
