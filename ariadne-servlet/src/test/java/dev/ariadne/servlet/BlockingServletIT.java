package dev.ariadne.servlet;

import dev.ariadne.server.IoModel;

class BlockingServletIT extends AbstractServletIT {

	@Override
	IoModel model() {
		return IoModel.BLOCKING;
	}

}
