package dev.ariadne;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.blocking.BlockingTransport;
import dev.ariadne.server.connection.ConnectionContext;
import dev.ariadne.server.eventloop.EventLoopTransport;
import dev.ariadne.server.transport.Transport;
import dev.ariadne.server.virtual.VirtualThreadTransport;
import dev.ariadne.server.protocol.Protocol;

/**
 * The one place that picks the I/O model's transport.
 */
final class Transports {

	private Transports() {
	}

	static Transport create(ConnectionContext context, Protocol.Factory first) {
		IoModel model = context.config().ioModel();
		return switch (model) {
			case BLOCKING -> new BlockingTransport(context, first);
			case EVENT_LOOP -> new EventLoopTransport(context, first);
			case VIRTUAL_THREADS -> new VirtualThreadTransport(context, first);
		};
	}

}
