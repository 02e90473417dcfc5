package dev.ariadne.servlet.websocket;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

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

	/** A ping frame from the server: FIN, opcode 9, unmasked, no payload (RFC 6455 §5.5.2). */
	private static final byte[] PING = { (byte) 0x89, 0x00 };

	private final ServletOutputStream out;

	private final TyrusUpgradeHandler session;

	private static final AtomicIntegerFieldUpdater<ConnectionWriter> WRITING = AtomicIntegerFieldUpdater
		.newUpdater(ConnectionWriter.class, "writing");

	/** Frames being written or waiting to: a field and a static updater, no object per session. */
	private volatile int writing;

	ConnectionWriter(ServletOutputStream out, TyrusUpgradeHandler session) {
		this.out = out;
		this.session = session;
	}

	@Override
	public void write(ByteBuffer buffer, CompletionHandler<ByteBuffer> completionHandler) {
		// Tyrus writes one whole frame per call
		byte first = buffer.hasRemaining() ? buffer.get(buffer.position()) : 0;
		WRITING.incrementAndGet(this);
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
		finally {
			WRITING.decrementAndGet(this);
		}
		this.session.wrote(first);
		if (completionHandler != null) {
			completionHandler.completed(buffer);
		}
	}

	/**
	 * Writes an empty ping of the server's own ({@code websocket.ping-interval}), which is not the
	 * session's activity; the timer's thread. Skipped while another frame is being written: the
	 * session is not quiet then, and the timer must not wait behind a client that does not read.
	 * The client's pong reaches Tyrus, which gives it to the endpoint's pong handler, if any.
	 */
	void ping() {
		if (this.writing != 0) {
			return;
		}
		try {
			synchronized (this) {
				this.out.write(PING);
			}
		}
		catch (IOException | RuntimeException ex) {
			// the connection is gone: the reader finds out and ends the session
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
