package dev.ariadne.servlet.websocket;

import java.io.IOException;
import java.nio.ByteBuffer;

import jakarta.servlet.ServletOutputStream;

import org.glassfish.tyrus.spi.CompletionHandler;
import org.glassfish.tyrus.spi.Writer;

/**
 * Where Tyrus writes a session's frames: the output of the upgraded connection, each frame sent
 * as it is written. The writing thread (the application's, for a basic or an async remote, or
 * the reader's, for a pong or a close) waits while the connection's output is past its high
 * water mark, as a blocking servlet write does; frames of several threads go out whole, one
 * after the other.
 */
final class ConnectionWriter extends Writer {

	private final ServletOutputStream out;

	private final TyrusUpgradeHandler session;

	ConnectionWriter(ServletOutputStream out, TyrusUpgradeHandler session) {
		this.out = out;
		this.session = session;
	}

	@Override
	public void write(ByteBuffer buffer, CompletionHandler<ByteBuffer> completionHandler) {
		// Tyrus writes one whole frame per call
		byte first = buffer.hasRemaining() ? buffer.get(buffer.position()) : 0;
		try {
			synchronized (this) {
				if (buffer.hasArray()) {
					this.out.write(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
				}
				else {
					byte[] copy = new byte[buffer.remaining()];
					buffer.duplicate().get(copy);
					this.out.write(copy);
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			if (completionHandler != null) {
				completionHandler.failed(ex);
			}
			return;
		}
		this.session.wrote(first);
		if (completionHandler != null) {
			completionHandler.completed(buffer);
		}
	}

	/**
	 * Tyrus is done with the connection: the session ends, and the connection closes when the
	 * closing handshake is over ({@link TyrusUpgradeHandler}).
	 */
	@Override
	public void close() {
		this.session.closedByTyrus();
	}

}
