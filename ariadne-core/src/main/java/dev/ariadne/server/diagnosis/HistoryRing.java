package dev.ariadne.server.diagnosis;

import java.util.ArrayList;
import java.util.List;

/**
 * The last samples of one listener, a fixed number of them; the oldest is overwritten.
 * Written by the diagnosis' thread, read by anyone.
 */
final class HistoryRing {

	private final History.Sample[] samples;

	private int next;

	private int size;

	/**
	 * Creates an empty ring.
	 * @param capacity how many samples it keeps
	 */
	HistoryRing(int capacity) {
		this.samples = new History.Sample[capacity];
	}

	synchronized void add(History.Sample sample) {
		this.samples[this.next] = sample;
		this.next = (this.next + 1) % this.samples.length;
		this.size = Math.min(this.size + 1, this.samples.length);
	}

	synchronized List<History.Sample> snapshot() {
		List<History.Sample> copy = new ArrayList<>(this.size);
		int start = (this.next - this.size + this.samples.length) % this.samples.length;
		for (int i = 0; i < this.size; i++) {
			copy.add(this.samples[(start + i) % this.samples.length]);
		}
		return copy;
	}

}
