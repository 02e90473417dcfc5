package dev.ariadne.server.tls;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;

import javax.net.ssl.SSLSession;

/**
 * TLS over a blocking socket, for the models that give each connection a thread: the
 * handshake runs on that thread within the handshake timeout, then the connection reads and
 * writes through {@link #input()} and {@link #output()}. The connection keeps using the socket
 * itself for its timeouts, half-close and close; a close from another thread (the watchdog, a
 * shutdown) fails a read in progress as on a plaintext socket.
 */
public final class TlsSocket {

	private final TlsChannel channel;

	private final StreamNet net;

	private final InputStream input = new Input();

	private final OutputStream output = new Output();

	private TlsSocket(TlsChannel channel, StreamNet net) {
		this.channel = channel;
		this.net = net;
	}

	static TlsSocket open(TlsEndpoint endpoint, Socket socket) throws IOException {
		StreamNet net = new StreamNet(socket);
		TlsChannel channel = new TlsChannel(endpoint, net, true, null);
		net.deadline(System.nanoTime() + endpoint.handshakeTimeoutNanos());
		try {
			channel.handshake();
			net.deadline(0);
		}
		catch (IOException | RuntimeException ex) {
			channel.release();
			throw ex;
		}
		return new TlsSocket(channel, net);
	}

	/**
	 * Returns the stream of decrypted input; reads block until a record arrives.
	 * @return the input
	 */
	public InputStream input() {
		return this.input;
	}

	/**
	 * Returns the stream that encrypts what is written to it; each write is sent whole.
	 * @return the output
	 */
	public OutputStream output() {
		return this.output;
	}

	/**
	 * Returns the TLS session.
	 * @return the session
	 */
	public SSLSession session() {
		return this.channel.session();
	}

	/**
	 * Returns the application protocol ALPN chose in the handshake.
	 * @return its id, or {@code null} when none was chosen
	 */
	public String applicationProtocol() {
		return this.channel.applicationProtocol();
	}

	/**
	 * Sends close_notify, the orderly end of the server's side, before the socket's output is
	 * shut down.
	 * @throws IOException if the socket failed
	 */
	public void closeOutbound() throws IOException {
		this.channel.closeOutbound();
	}

	/**
	 * Gives the buffers back, once the connection's thread is done with the socket.
	 */
	public void release() {
		this.channel.release();
	}

	private final class Input extends InputStream {

		@Override
		public int read() throws IOException {
			byte[] one = new byte[1];
			int read = read(one, 0, 1);
			return (read < 0) ? -1 : one[0] & 0xff;
		}

		@Override
		public int read(byte[] bytes, int offset, int length) throws IOException {
			if (length == 0) {
				return 0;
			}
			return TlsSocket.this.channel.read(ByteBuffer.wrap(bytes, offset, length));
		}

		/** Decrypted bytes waiting, or 1 when only encrypted ones do (the socket's too). */
		@Override
		public int available() throws IOException {
			int decrypted = TlsSocket.this.channel.available();
			return (decrypted > 0 || TlsSocket.this.net.available() == 0) ? decrypted : 1;
		}

	}

	private final class Output extends OutputStream {

		@Override
		public void write(int b) throws IOException {
			write(new byte[] { (byte) b }, 0, 1);
		}

		@Override
		public void write(byte[] bytes, int offset, int length) throws IOException {
			ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, length);
			while (buffer.hasRemaining()) {
				TlsSocket.this.channel.write(buffer);
			}
		}

	}

}
