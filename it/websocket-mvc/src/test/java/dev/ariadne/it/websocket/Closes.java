package dev.ariadne.it.websocket;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.springframework.web.socket.CloseStatus;

/**
 * Finds how the echo handler saw a session close, among those of the tests before.
 */
final class Closes {

	private Closes() {
	}

	/**
	 * Waits for a close the handler was told of.
	 * @param app the application
	 * @param reason the reason to look for, or {@code null} for the first close of a code other
	 * than 1000 and 1006 without a reason from the tests
	 * @return the close
	 */
	static CloseStatus next(WebSocketApp app, String reason) throws InterruptedException {
		List<CloseStatus> seen = new ArrayList<>();
		long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
		while (System.nanoTime() - end < 0) {
			CloseStatus status = app.echo().closes().poll(100, TimeUnit.MILLISECONDS);
			if (status == null) {
				continue;
			}
			if ((reason != null) ? reason.equals(status.getReason())
					: (status.getCode() != 1000 && status.getCode() != 1006 && status.getCode() < 4000)) {
				return status;
			}
			seen.add(status);
		}
		throw new AssertionError("No close " + ((reason != null) ? "'" + reason + "'" : "") + " within 20 s; saw " + seen);
	}

}
