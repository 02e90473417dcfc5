package dev.ariadne.servlet;

import dev.ariadne.server.IoModel;

class BlockingPathTricksIT extends AbstractPathTricksIT {

	@Override
	IoModel model() {
		return IoModel.BLOCKING;
	}

}
