package dev.ariadne.server.tls;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLSocket;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.ariadne.TestCertificates;
import dev.ariadne.server.TlsConfig;
import dev.ariadne.server.internal.BufferBudget;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a {@link TlsChannel} over a non-blocking loopback socket hands encrypted bytes to it, seen
 * by counting the socket writes, with a JDK client at the other end: a handshake flight and a
 * write of 64 KiB (five records) each leave with one write; a socket that takes only part of them loses nothing.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TlsChannelWriteTest {

	private static final TestCertificates certificates = TestCertificates.get();

	private ServerSocketChannel listener;

	private SSLSocket client;

	private CountingChannel net;

	private TlsChannel tls;

	@BeforeEach
	void connect() throws Exception {
		this.listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
		this.client = (SSLSocket) certificates.clientContext().getSocketFactory().createSocket();
		this.client.setEnabledProtocols(new String[] { "TLSv1.3" });
		this.client.connect(this.listener.getLocalAddress());
		SocketChannel accepted = this.listener.accept();
		accepted.configureBlocking(false);
		accepted.setOption(StandardSocketOptions.SO_SNDBUF, 1 << 20);
		this.net = new CountingChannel(accepted);
		TlsEndpoint endpoint = TlsEndpoint.create(TlsConfig.of(certificates.serverContext(TestCertificates.LOCALHOST)),
				new BufferBudget(Long.MAX_VALUE), false);
		this.tls = endpoint.channel(this.net, null);
	}

	@AfterEach
	void close() throws IOException {
		this.client.close();
		this.tls.close();
		this.listener.close();
	}

	@Test
	void writesTheServersHandshakeFlightWithOneSocketWrite() throws Exception {
		handshake();
		// the flight up to the server's Finished, then the session ticket after the client's
		assertThat(this.net.writes).isEqualTo(2);
	}

	@Test
	void writesSixtyFourKilobytesWithOneSocketWrite() throws Exception {
		handshake();
		byte[] sent = random(64 * 1024);
		CompletableFuture<byte[]> received = CompletableFuture.supplyAsync(() -> readFully(sent.length));
		this.net.writes = 0;
		ByteBuffer src = ByteBuffer.wrap(sent);
		assertThat(this.tls.write(src)).isEqualTo(sent.length);
		assertThat(this.net.writes).isEqualTo(1);
		assertThat(received.get(10, TimeUnit.SECONDS)).isEqualTo(sent);
	}

	@Test
	void losesNothingWhenTheSocketTakesPartOfTheRecords() throws Exception {
		handshake();
		byte[] sent = random(200_000);
		CompletableFuture<byte[]> received = CompletableFuture.supplyAsync(() -> readFully(sent.length));
		this.net.takes = 7_000;
		ByteBuffer src = ByteBuffer.wrap(sent);
		int offers = 0;
		while (src.hasRemaining()) {
			this.tls.write(src);
			offers++;
			while (!this.tls.flush()) {
				// the socket takes more once writable again
			}
		}
		assertThat(offers).isGreaterThan(3);
		assertThat(received.get(10, TimeUnit.SECONDS)).isEqualTo(sent);
	}

	private void handshake() throws Exception {
		CompletableFuture<Void> clientSide = CompletableFuture.runAsync(() -> {
			try {
				this.client.startHandshake();
			}
			catch (IOException ex) {
				throw new IllegalStateException(ex);
			}
		});
		ByteBuffer dst = ByteBuffer.allocate(1024);
		while (!this.tls.handshaken()) {
			if (this.tls.read(dst) == 0) {
				Thread.sleep(1);
			}
		}
		clientSide.get(10, TimeUnit.SECONDS);
	}

	private byte[] readFully(int length) {
		try {
			InputStream in = this.client.getInputStream();
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			byte[] buffer = new byte[8192];
			while (out.size() < length) {
				int read = in.read(buffer);
				if (read < 0) {
					break;
				}
				out.write(buffer, 0, read);
			}
			return out.toByteArray();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static byte[] random(int length) {
		byte[] bytes = new byte[length];
		new Random(length).nextBytes(bytes);
		return bytes;
	}

	/**
	 * The socket, counting the writes made to it (a gathering write is one); with {@code takes}
	 * set, every other write takes at most that many bytes and the next one none, as a full
	 * socket would.
	 */
	private static final class CountingChannel implements ByteChannel, GatheringByteChannel {

		private final SocketChannel socket;

		int writes;

		int takes;

		private boolean full;

		CountingChannel(SocketChannel socket) {
			this.socket = socket;
		}

		@Override
		public int read(ByteBuffer dst) throws IOException {
			return this.socket.read(dst);
		}

		@Override
		public int write(ByteBuffer src) throws IOException {
			return (int) write(new ByteBuffer[] { src }, 0, 1);
		}

		@Override
		public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
			this.writes++;
			if (this.takes == 0) {
				return this.socket.write(srcs, offset, length);
			}
			this.full = !this.full;
			if (!this.full) {
				return 0;
			}
			int left = this.takes;
			long written = 0;
			for (int i = offset; i < offset + length && left > 0; i++) {
				ByteBuffer part = srcs[i].duplicate();
				part.limit(part.position() + Math.min(part.remaining(), left));
				int n = this.socket.write(part);
				srcs[i].position(part.position());
				written += n;
				left -= n;
				if (srcs[i].hasRemaining()) {
					break;
				}
			}
			return written;
		}

		@Override
		public long write(ByteBuffer[] srcs) throws IOException {
			return write(srcs, 0, srcs.length);
		}

		@Override
		public boolean isOpen() {
			return this.socket.isOpen();
		}

		@Override
		public void close() throws IOException {
			this.socket.close();
		}

	}

}
