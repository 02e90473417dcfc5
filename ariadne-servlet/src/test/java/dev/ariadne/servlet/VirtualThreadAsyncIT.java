package dev.ariadne.servlet;

import dev.ariadne.server.IoModel;

class VirtualThreadAsyncIT extends AbstractAsyncIT {

	@Override
	IoModel model() {
		return IoModel.VIRTUAL_THREADS;
	}

}
