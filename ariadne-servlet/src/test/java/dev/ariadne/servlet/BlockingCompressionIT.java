package dev.ariadne.servlet;

import dev.ariadne.server.IoModel;

class BlockingCompressionIT extends AbstractCompressionIT {

	@Override
	IoModel model() {
		return IoModel.BLOCKING;
	}

}
