package dev.ariadne.servlet;

import dev.ariadne.server.IoModel;

class EventLoopDefaultServletIT extends AbstractDefaultServletIT {

	@Override
	IoModel model() {
		return IoModel.EVENT_LOOP;
	}

}
