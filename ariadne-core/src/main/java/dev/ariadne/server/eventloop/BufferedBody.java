package dev.ariadne.server.eventloop;

import dev.ariadne.http.Headers;
import dev.ariadne.http.RequestHead;
import dev.ariadne.server.connection.RequestBody;

/**
 * A body the selector thread read in full before dispatching its request.
 */
final class BufferedBody extends RequestBody {

	private final RequestHead head;

	private final byte[] bytes;

	private final int length;

	private int position;

	BufferedBody(RequestHead head, byte[] bytes, int length) {
		this.head = head;
		this.bytes = bytes;
		this.length = length;
	}

	@Override
	public boolean finished() {
		return true;
	}

	@Override
	public boolean awaitingContinue() {
		return false;
	}

	@Override
	public Headers trailers() {
		return this.head.trailers();
	}

	@Override
	public int read(byte[] target, int offset, int count) {
		if (this.position >= this.length) {
			return -1;
		}
		int n = Math.min(count, this.length - this.position);
		System.arraycopy(this.bytes, this.position, target, offset, n);
		this.position += n;
		return n;
	}

	@Override
	public int available() {
		return this.length - this.position;
	}

}
