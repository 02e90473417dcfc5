package dev.ariadne.servlet;

import dev.ariadne.server.IoModel;

class BlockingAsyncIT extends AbstractAsyncIT {

	@Override
	IoModel model() {
		return IoModel.BLOCKING;
	}

}
