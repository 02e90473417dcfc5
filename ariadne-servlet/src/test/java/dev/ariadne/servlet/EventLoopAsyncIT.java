package dev.ariadne.servlet;

import dev.ariadne.server.IoModel;

class EventLoopAsyncIT extends AbstractAsyncIT {

	@Override
	IoModel model() {
		return IoModel.EVENT_LOOP;
	}

}
