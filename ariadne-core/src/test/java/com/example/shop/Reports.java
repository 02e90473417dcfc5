package com.example.shop;

/**
 * A slow route's work for the diagnosis scenarios: building a report takes a while (a sleep
 * standing in for a long query).
 */
public final class Reports {

	private Reports() {
	}

	/**
	 * Builds a report.
	 * @param millis how long it takes
	 * @return the report
	 * @throws InterruptedException if interrupted while building
	 */
	public static String build(long millis) throws InterruptedException {
		Thread.sleep(millis);
		return "report";
	}

}
