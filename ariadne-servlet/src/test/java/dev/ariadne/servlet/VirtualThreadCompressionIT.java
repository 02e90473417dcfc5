package dev.ariadne.servlet;

import dev.ariadne.server.IoModel;

class VirtualThreadCompressionIT extends AbstractCompressionIT {

	@Override
	IoModel model() {
		return IoModel.VIRTUAL_THREADS;
	}

}
