package dev.ariadne.servlet;

import dev.ariadne.server.IoModel;

class VirtualThreadPathTricksIT extends AbstractPathTricksIT {

	@Override
	IoModel model() {
		return IoModel.VIRTUAL_THREADS;
	}

}
