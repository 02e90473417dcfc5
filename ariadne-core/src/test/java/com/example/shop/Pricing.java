package com.example.shop;

/**
 * CPU-heavy application code for the diagnosis scenarios: computes for a given time on the
 * calling thread, never waiting.
 */
public final class Pricing {

	private Pricing() {
	}

	/**
	 * Computes a quote for about the given time of wall clock, on the CPU.
	 * @param millis how long to compute
	 * @return the quote
	 */
	public static long quote(long millis) {
		long end = System.nanoTime() + millis * 1_000_000;
		long value = 17;
		while (System.nanoTime() < end) {
			for (int i = 0; i < 1000; i++) {
				value = value * 31 + i;
			}
		}
		return value;
	}

}
