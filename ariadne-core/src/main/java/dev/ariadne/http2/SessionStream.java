package dev.ariadne.http2;

/**
 * What a session knows of one stream: its state, its windows both ways, and what its request
 * declared and sent.
 */
final class SessionStream {

	final int id;

	StreamState state = StreamState.OPEN;

	/** What the server may still send on the stream. */
	final FlowWindow sendWindow;

	/** What the client may still send on the stream before the server credits it. */
	long receiveWindow;

	/** Content delivered to the listener and not yet consumed. */
	long unconsumed;

	/** Consumed content not yet credited back with a {@code WINDOW_UPDATE}. */
	long uncredited;

	/** The request's {@code content-length}, or -1. */
	long declaredLength = -1;

	/** Content bytes the client has sent, padding excluded. */
	long received;

	/** Whether the listener has been given the request (so it must hear of a reset). */
	boolean delivered;

	SessionStream(int id, int sendWindow, int receiveWindow) {
		this.id = id;
		this.sendWindow = new FlowWindow(sendWindow);
		this.receiveWindow = receiveWindow;
	}

}
