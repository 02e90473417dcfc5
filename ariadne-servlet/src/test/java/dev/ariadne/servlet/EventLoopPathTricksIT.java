package dev.ariadne.servlet;

import dev.ariadne.server.IoModel;

class EventLoopPathTricksIT extends AbstractPathTricksIT {

	@Override
	IoModel model() {
		return IoModel.EVENT_LOOP;
	}

}
