package dev.ariadne.websocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import org.junit.jupiter.api.Test;

import dev.ariadne.websocket.CloseHandshake.State;

/**
 * The closing handshake's states (RFC 6455 §5.5.1, §7.1): each transition, and what each state
 * lets the server send and receive.
 */
class CloseHandshakeTest {

	@Test
	void serverClosesFirstThenTheClientsAnswerCompletesIt() {
		CloseHandshake close = new CloseHandshake();
		assertThat(close.send(CloseCode.GOING_AWAY)).isTrue();
		assertThat(close.state()).isEqualTo(State.CLOSE_SENT);
		assertThat(close.send(CloseCode.NORMAL)).as("a second close").isFalse();
		assertThat(close.sentCode()).isEqualTo(CloseCode.GOING_AWAY);
		assertThat(close.received(CloseCode.GOING_AWAY)).as("nothing to answer").isEqualTo(-1);
		assertThat(close.state()).isEqualTo(State.CLOSED);
		assertThat(close.isClosed()).isTrue();
		assertThat(close.receivedCode()).isEqualTo(CloseCode.GOING_AWAY);
	}

	@Test
	void clientClosesFirstAndTheServerEchoesItsCode() {
		CloseHandshake close = new CloseHandshake();
		assertThat(close.received(4321)).isEqualTo(4321);
		assertThat(close.state()).isEqualTo(State.CLOSE_RECEIVED);
		assertThat(close.isClosed()).isFalse();
		assertThat(close.send(4321)).isTrue();
		assertThat(close.state()).isEqualTo(State.CLOSED);
	}

	@Test
	void aCloseWithoutACodeIsAnsweredWithoutOne() {
		CloseHandshake close = new CloseHandshake();
		assertThat(close.received(CloseCode.NO_STATUS)).isEqualTo(CloseCode.NO_STATUS);
	}

	@Test
	void aSecondCloseFromTheClientIsAnError() {
		CloseHandshake close = new CloseHandshake();
		close.received(CloseCode.NORMAL);
		assertThatIllegalStateException().isThrownBy(() -> close.received(CloseCode.NORMAL));
		assertThat(close.receivedCode()).isEqualTo(CloseCode.NORMAL);
	}

	@Test
	void failingSendsACloseUnlessOneWasSentAndClosesAtOnce() {
		CloseHandshake open = new CloseHandshake();
		assertThat(open.fail(CloseCode.PROTOCOL_ERROR)).isTrue();
		assertThat(open.isClosed()).isTrue();
		assertThat(open.sentCode()).isEqualTo(CloseCode.PROTOCOL_ERROR);
		assertThat(open.send(CloseCode.NORMAL)).isFalse();

		CloseHandshake sent = new CloseHandshake();
		sent.send(CloseCode.NORMAL);
		assertThat(sent.fail(CloseCode.MESSAGE_TOO_BIG)).isFalse();
		assertThat(sent.isClosed()).isTrue();
		assertThat(sent.sentCode()).isEqualTo(CloseCode.NORMAL);

		CloseHandshake received = new CloseHandshake();
		received.received(CloseCode.NORMAL);
		assertThat(received.fail(CloseCode.INTERNAL_ERROR)).isTrue();
	}

	@Test
	void whatEachStateAllows() {
		CloseHandshake open = new CloseHandshake();
		assertAllows(open, true, true, true);
		CloseHandshake sent = new CloseHandshake();
		sent.send(CloseCode.NORMAL);
		assertAllows(sent, false, false, true);
		CloseHandshake received = new CloseHandshake();
		received.received(CloseCode.NORMAL);
		assertAllows(received, true, false, false);
		CloseHandshake closed = new CloseHandshake();
		closed.send(CloseCode.NORMAL);
		closed.received(CloseCode.NORMAL);
		assertAllows(closed, false, false, false);
	}

	private static void assertAllows(CloseHandshake close, boolean data, boolean control, boolean receive) {
		assertThat(close.maySendData()).as("%s: send data", close.state()).isEqualTo(data);
		assertThat(close.maySendControl()).as("%s: send ping or pong", close.state()).isEqualTo(control);
		assertThat(close.mayReceive()).as("%s: receive", close.state()).isEqualTo(receive);
	}

}
