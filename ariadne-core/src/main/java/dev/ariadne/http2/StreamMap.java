package dev.ariadne.http2;

import java.util.function.Consumer;

/**
 * The streams of one connection by id: open addressing on the (odd) stream ids, so a lookup per
 * frame boxes nothing. Not thread-safe, as the session that owns it.
 */
final class StreamMap {

	private SessionStream[] slots = new SessionStream[16];

	private int size;

	int size() {
		return this.size;
	}

	SessionStream get(int id) {
		SessionStream[] slots = this.slots;
		int mask = slots.length - 1;
		for (int i = index(id, mask);; i = (i + 1) & mask) {
			SessionStream stream = slots[i];
			if (stream == null || stream.id == id) {
				return stream;
			}
		}
	}

	void put(SessionStream stream) {
		if ((this.size + 1) * 2 > this.slots.length) {
			grow();
		}
		insert(this.slots, stream);
		this.size++;
	}

	void remove(int id) {
		SessionStream[] slots = this.slots;
		int mask = slots.length - 1;
		int i = index(id, mask);
		while (slots[i] != null && slots[i].id != id) {
			i = (i + 1) & mask;
		}
		if (slots[i] == null) {
			return;
		}
		slots[i] = null;
		this.size--;
		// Backward-shift the run after the hole, so that lookups never stop at it early.
		for (int j = (i + 1) & mask; slots[j] != null; j = (j + 1) & mask) {
			SessionStream moved = slots[j];
			slots[j] = null;
			insert(slots, moved);
		}
	}

	void forEach(Consumer<SessionStream> action) {
		for (SessionStream stream : this.slots.clone()) {
			if (stream != null) {
				action.accept(stream);
			}
		}
	}

	private void grow() {
		SessionStream[] old = this.slots;
		SessionStream[] slots = new SessionStream[old.length * 2];
		for (SessionStream stream : old) {
			if (stream != null) {
				insert(slots, stream);
			}
		}
		this.slots = slots;
	}

	private static void insert(SessionStream[] slots, SessionStream stream) {
		int mask = slots.length - 1;
		int i = index(stream.id, mask);
		while (slots[i] != null) {
			i = (i + 1) & mask;
		}
		slots[i] = stream;
	}

	private static int index(int id, int mask) {
		// Client stream ids are odd and consecutive: drop the low bit, then spread.
		return ((id >>> 1) * 0x9E3779B9 >>> 7) & mask;
	}

}
