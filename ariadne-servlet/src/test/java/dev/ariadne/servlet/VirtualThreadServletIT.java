package dev.ariadne.servlet;

import dev.ariadne.server.IoModel;

class VirtualThreadServletIT extends AbstractServletIT {

	@Override
	IoModel model() {
		return IoModel.VIRTUAL_THREADS;
	}

}
