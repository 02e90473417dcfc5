package dev.ariadne.servlet;

import dev.ariadne.server.IoModel;

class VirtualThreadDefaultServletIT extends AbstractDefaultServletIT {

	@Override
	IoModel model() {
		return IoModel.VIRTUAL_THREADS;
	}

}
