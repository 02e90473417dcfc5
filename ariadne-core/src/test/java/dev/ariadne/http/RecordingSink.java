package dev.ariadne.http;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A sink that writes what the parser reports as one line per event, so that tests compare
 * plain lists of strings:
 * <ul>
 * <li>{@code head GET / HTTP/1.1 [Host: a]}, followed by flags for the facts the parser
 * derived when they differ from a plain request: {@code form=ABSOLUTE}, {@code path=/p} (when the
 * path and query differ from the target), {@code length=3}, {@code chunked},
 * {@code expect-continue}, {@code close} (when {@link RequestHead#keepAlive()} is false);</li>
 * <li>{@code content 'abc'}: adjacent content calls are merged, so the event does not depend on
 * how the input was split;</li>
 * <li>{@code complete}, or {@code complete [X: y]} with the trailers.</li>
 * </ul>
 * Bytes outside printable ASCII are written as escapes ({@code \r}, {@code \x00}).
 */
final class RecordingSink implements RequestSink {

	private final List<String> events = new ArrayList<>();

	private final ByteArrayOutputStream content = new ByteArrayOutputStream();

	/** Index of the content event still being collected, or -1. */
	private int contentEvent = -1;

	private RequestHead head;

	private long bodyBytes;

	private long largestBody;

	List<String> events() {
		endContent();
		return this.events;
	}

	/** The most content bytes reported for one request. */
	long largestBody() {
		return this.largestBody;
	}

	@Override
	public boolean headComplete(RequestHead head) {
		endContent();
		this.head = head;
		this.bodyBytes = 0;
		this.events.add(describe(head));
		return false;
	}

	@Override
	public boolean content(ByteBuffer content) {
		if (!content.hasRemaining()) {
			throw new AssertionError("content called without content");
		}
		// The buffer is a view of the caller's input, valid only during this call: copy it.
		byte[] copy = new byte[content.remaining()];
		content.duplicate().get(copy);
		int last = this.events.size() - 1;
		if (this.contentEvent < 0 && last >= 0 && this.events.get(last).startsWith("content ")) {
			// events() was read in the middle of the content: keep merging into that event
			this.contentEvent = last;
		}
		if (this.contentEvent < 0) {
			this.content.reset();
			this.events.add("");
			this.contentEvent = this.events.size() - 1;
		}
		this.content.writeBytes(copy);
		this.bodyBytes += copy.length;
		this.largestBody = Math.max(this.largestBody, this.bodyBytes);
		return false;
	}

	@Override
	public boolean messageComplete() {
		endContent();
		Headers trailers = this.head.trailers();
		this.events.add(trailers.isEmpty() ? "complete" : "complete " + fields(trailers));
		return false;
	}

	/** Writes the merged content event once, so that many small pieces cost linear time. */
	private void endContent() {
		if (this.contentEvent >= 0) {
			this.events.set(this.contentEvent, "content '" + Wire.escape(this.content.toByteArray()) + "'");
			this.contentEvent = -1;
		}
	}

	static String describe(RequestHead head) {
		StringBuilder line = new StringBuilder("head ").append(head.method())
			.append(' ')
			.append(head.target())
			.append(' ')
			.append(head.version())
			.append(' ')
			.append(fields(head.headers()));
		if (head.targetForm() != RequestHead.TargetForm.ORIGIN) {
			line.append(" form=").append(head.targetForm());
		}
		if (!head.pathAndQuery().equals(head.target())) {
			line.append(" path=").append(head.pathAndQuery());
		}
		if (head.contentLength() >= 0) {
			line.append(" length=").append(head.contentLength());
		}
		if (head.chunked()) {
			line.append(" chunked");
		}
		if (head.expectContinue()) {
			line.append(" expect-continue");
		}
		if (!head.keepAlive()) {
			line.append(" close");
		}
		return line.toString();
	}

	private static String fields(Headers headers) {
		List<String> fields = new ArrayList<>(headers.size());
		for (int i = 0; i < headers.size(); i++) {
			fields.add(headers.name(i) + ": " + Wire.escape(headers.value(i)));
		}
		return fields.toString();
	}

}
