package dev.ariadne;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import javax.net.ssl.SSLSession;

import dev.ariadne.server.connection.ConnectionOutput;
import dev.ariadne.server.protocol.Http1Protocol;
import dev.ariadne.server.protocol.Phase;
import dev.ariadne.server.protocol.Protocol;
import dev.ariadne.server.protocol.Wire;

/**
 * A protocol that speaks first on a connection, for the tests of the hand-off: the client sends
 * a line; {@code HELLO} is answered {@code WELCOME} and the connection goes to HTTP/1.1 with
 * whatever the client sent after the line, anything else is answered {@code GO AWAY} and
 * closed. It reads and writes only through its {@link Wire}, as any protocol does.
 */
final class GreetingProtocol implements Protocol {

	static final String HELLO = "HELLO\r\n";

	static final String WELCOME = "WELCOME\r\n";

	static final String GO_AWAY = "GO AWAY\r\n";

	private final Wire wire;

	private final ConnectionOutput out;

	private Phase phase = Phase.READING;

	private ByteBuffer in;

	private long deadline;

	GreetingProtocol(Wire wire) {
		this.wire = wire;
		this.out = new ConnectionOutput(wire.transmitter(), wire.context().outputBuffers());
	}

	@Override
	public String name() {
		return "greeting";
	}

	@Override
	public Phase phase() {
		return this.phase;
	}

	@Override
	public void start(long deadline, long waitedNanos) {
		this.deadline = deadline;
	}

	@Override
	public void handshaken(SSLSession session) {
	}

	@Override
	public void takeOver(ByteBuffer unread) {
		throw new UnsupportedOperationException("the greeting only comes first");
	}

	@Override
	public int fill(long until) throws IOException {
		return borrowInput() ? this.wire.read(this.in, until) : 0;
	}

	@Override
	public boolean holdsInput() {
		return this.in != null;
	}

	@Override
	public boolean borrowInput() {
		if (this.in == null) {
			this.in = this.wire.borrowInput();
		}
		return this.in != null;
	}

	@Override
	public void awaitingInputBuffer() {
	}

	@Override
	public void releaseEmptyInput() {
		if (this.in != null && !this.in.hasRemaining()) {
			releaseInput();
		}
	}

	private void releaseInput() {
		if (this.in != null) {
			this.wire.releaseInput(this.in);
			this.in = null;
		}
	}

	@Override
	public void onInput(int read) {
		int end = -1;
		for (int i = this.in.position(); i < this.in.limit(); i++) {
			if (this.in.get(i) == '\n') {
				end = i + 1;
				break;
			}
		}
		if (end < 0) {
			if (this.in.remaining() > 64) {
				answerAndClose(GO_AWAY);
			}
			return;
		}
		byte[] line = new byte[end - this.in.position()];
		this.in.get(line);
		if (!HELLO.equals(new String(line, StandardCharsets.US_ASCII))) {
			answerAndClose(GO_AWAY);
			return;
		}
		try {
			this.out.append(WELCOME);
			this.wire.send(this.out);
		}
		catch (IOException ex) {
			this.wire.close();
			return;
		}
		this.out.release();
		ByteBuffer rest = this.in;
		this.in = null;
		this.phase = Phase.CLOSED;
		this.wire.handOff(Http1Protocol::new, rest);
	}

	private void answerAndClose(String answer) {
		this.out.append(answer);
		this.phase = Phase.CLOSING;
		this.wire.closeAfterAnswer(this.out, true);
		releaseInput();
	}

	@Override
	public void plaintextOnTls() {
		this.wire.close();
	}

	@Override
	public void reject(String reason, int retryAfterSeconds) {
		// the transport closes the connection
	}

	@Override
	public ConnectionOutput out() {
		return this.out;
	}

	@Override
	public boolean isIdle() {
		return false;
	}

	@Override
	public long readDeadline() {
		return this.deadline;
	}

	@Override
	public boolean isDue(long now) {
		return now - this.deadline >= 0;
	}

	@Override
	public void checkTimeout(long now) {
		if (this.phase == Phase.READING && isDue(now)) {
			this.wire.close();
		}
	}

	@Override
	public void flushed() {
	}

	@Override
	public String workerPool() {
		return null;
	}

	@Override
	public boolean inExchange() {
		return false;
	}

	@Override
	public void goAway() {
	}

	@Override
	public boolean saysGoodbye() {
		return false;
	}

	@Override
	public void closed() {
		this.phase = Phase.CLOSED;
		releaseInput();
		this.out.release();
	}

	@Override
	public void abandoned() {
		this.wire.close();
	}

	@Override
	public void abort(boolean beforePoolsStop) {
	}

}
