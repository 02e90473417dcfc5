package dev.ariadne.servlet;

import dev.ariadne.server.IoModel;

class BlockingDefaultServletIT extends AbstractDefaultServletIT {

	@Override
	IoModel model() {
		return IoModel.BLOCKING;
	}

}
