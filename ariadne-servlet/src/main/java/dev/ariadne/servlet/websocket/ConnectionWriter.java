package dev.ariadne.servlet.websocket;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.WebConnection;

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

	private static final Logger logger = System.getLogger(ConnectionWriter.class.getName());

	private final WebConnection connection;

	private final ServletOutputStream out;

	ConnectionWriter(WebConnection connection, ServletOutputStream out) {
		this.connection = connection;
		this.out = out;
	}

	@Override
	public void write(ByteBuffer buffer, CompletionHandler<ByteBuffer> completionHandler) {
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
		if (completionHandler != null) {
			completionHandler.completed(buffer);
		}
	}

	/** Tyrus is done with the connection: what was written goes out, then the connection closes. */
	@Override
	public void close() {
		try {
			this.connection.close();
		}
		catch (Exception ex) {
			logger.log(Level.DEBUG, "An upgraded connection failed to close", ex);
		}
	}

}
