package dev.ariadne.servlet;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Locale;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The body of a {@link CompressingResponse}: decides, at the point the container would commit
 * the response, whether it goes out plain or through gzip, then writes it that way.
 *
 * <ul>
 * <li>A declared {@code Content-Length} decides at the first write: under the minimum size,
 * plain with that length; else compressed.</li>
 * <li>Without one, the first bytes are held: reaching the minimum, or more than the response's
 * buffer would hold, compresses (the container would have committed the response with its
 * length unknown); a flush compresses for the same reason; the end of the body with less than
 * the minimum held sends it plain, with its length.</li>
 * <li>A client that may not be given gzip, or a response whose status or media type is not
 * compressed, decides at once: plain.</li>
 * </ul>
 *
 * <p>Each write, flush or end of the application is at most one write of the container's stream
 * (a flush adds the container's flush), so a non-blocking writer that writes only when
 * {@link #isReady()} is true is never made to write again before it asks; {@code isReady()} and
 * the {@link WriteListener} are the container's own.
 */
final class CompressingStream extends ServletOutputStream {

	private final CompressingResponse response;

	private byte[] held;

	private int heldCount;

	private boolean decided;

	private GzipEncoder gzip;

	private ServletOutputStream target;

	private boolean nonBlocking;

	private boolean finished;

	/** Set while the body ends: a flush then (the writer's, draining) is no commit. */
	private boolean ending;

	CompressingStream(CompressingResponse response) {
		this.response = response;
	}

	boolean decided() {
		return this.decided;
	}

	boolean compressing() {
		return this.gzip != null;
	}

	@Override
	public void write(int b) throws IOException {
		write(new byte[] { (byte) b }, 0, 1);
	}

	@Override
	public void write(byte[] bytes, int offset, int length) throws IOException {
		if (this.finished) {
			throw new IOException("The response body has ended");
		}
		if (!this.decided && !decideAtWrite(length)) {
			hold(bytes, offset, length);
			return;
		}
		if (this.gzip != null) {
			this.gzip.encode(bytes, offset, length);
			this.gzip.send();
		}
		else if (this.heldCount > 0) {
			byte[] joined = Arrays.copyOf(this.held, this.heldCount + length);
			System.arraycopy(bytes, offset, joined, this.heldCount, length);
			clearHeld();
			target().write(joined, 0, joined.length);
		}
		else {
			target().write(bytes, offset, length);
		}
	}

	@Override
	public void write(ByteBuffer source) throws IOException {
		if (!isReady()) {
			throw new IllegalStateException("write(ByteBuffer) called while isReady() is false");
		}
		if (this.decided && !this.finished && this.gzip != null) {
			this.gzip.encode(source);
			this.gzip.send();
		}
		else if (this.decided && !this.finished && this.heldCount == 0) {
			target().write(source);
		}
		else {
			byte[] bytes = new byte[source.remaining()];
			source.get(bytes);
			write(bytes, 0, bytes.length);
		}
	}

	/**
	 * Decides at a write of this many bytes, unless they can be held.
	 * @return whether decided
	 */
	private boolean decideAtWrite(int length) throws IOException {
		if (!eligible()) {
			begin(false);
			return true;
		}
		long declared = this.response.declaredLength();
		int total = this.heldCount + length;
		if (declared >= 0 || total >= this.response.filter().minResponseSize()
				|| total > this.response.wrapped().getBufferSize()) {
			begin(declared < 0 || declared >= this.response.filter().minResponseSize());
			return true;
		}
		return false;
	}

	/** Whether the client may have gzip and the response's status and media type allow it. */
	private boolean eligible() {
		return this.response.gzip() && this.response.filter().compressible(this.response.wrapped());
	}

	private void hold(byte[] bytes, int offset, int length) {
		if (this.held == null) {
			int limit = Math.min(this.response.filter().minResponseSize(), this.response.wrapped().getBufferSize());
			this.held = new byte[Math.max(limit, length)];
		}
		System.arraycopy(bytes, offset, this.held, this.heldCount, length);
		this.heldCount += length;
	}

	void clearHeld() {
		this.heldCount = 0;
	}

	/** Sets the response up for the chosen way; the held bytes are the caller's to send. */
	private void begin(boolean compress) throws IOException {
		this.decided = true;
		HttpServletResponse response = this.response.wrapped();
		long declared = this.response.declaredLength();
		if (compress) {
			response.setHeader("Content-Encoding", "gzip");
			vary(response);
			String etag = response.getHeader("ETag");
			if (etag != null && !etag.startsWith("W/")) {
				// the compressed bytes are not the identity's: no longer the same strong validator
				response.setHeader("ETag", "W/" + etag.trim());
			}
			this.gzip = new GzipEncoder(target(), !this.nonBlocking);
			if (this.heldCount > 0) {
				this.gzip.encode(this.held, 0, this.heldCount);
				clearHeld();
			}
			return;
		}
		if (!this.response.gzip() && wouldCompress(response, declared)) {
			vary(response);
		}
		if (declared >= 0) {
			response.setContentLengthLong(declared);
		}
	}

	/** Whether a client that accepts gzip would have been given it. */
	private boolean wouldCompress(HttpServletResponse response, long declared) {
		GzipCompressionFilter filter = this.response.filter();
		return filter.compressible(response) && (declared < 0 || declared >= filter.minResponseSize());
	}

	private static void vary(HttpServletResponse response) {
		for (String vary : response.getHeaders("Vary")) {
			String lower = vary.toLowerCase(Locale.ROOT);
			if (lower.contains("accept-encoding") || lower.trim().equals("*")) {
				return;
			}
		}
		response.addHeader("Vary", "Accept-Encoding");
	}

	private ServletOutputStream target() throws IOException {
		if (this.target == null) {
			this.target = this.response.wrapped().getOutputStream();
		}
		return this.target;
	}

	/** Commits the response: a body of unknown length flushed before its end is compressed. */
	@Override
	public void flush() throws IOException {
		if (this.finished || this.ending) {
			return;
		}
		if (!this.decided) {
			long declared = this.response.declaredLength();
			begin(eligible() && (declared < 0 || declared >= this.response.filter().minResponseSize()));
		}
		if (this.gzip != null) {
			this.gzip.syncFlush();
			this.gzip.send();
		}
		else {
			sendHeld();
		}
		target().flush();
	}

	@Override
	public void close() throws IOException {
		finish();
	}

	/** The body is about to end: what a writer flushes now is its last, not a commit. */
	void ending() {
		this.ending = true;
	}

	/** Ends the body: what is held is judged by its size, the gzip member is ended. */
	void finish() throws IOException {
		if (this.finished) {
			return;
		}
		if (!this.decided) {
			long declared = this.response.declaredLength();
			long size = (declared >= 0) ? declared : this.heldCount;
			begin(eligible() && size > 0 && size >= this.response.filter().minResponseSize());
		}
		this.finished = true;
		if (this.gzip != null) {
			if (this.gzip.empty() && this.response.declaredLength() > 0) {
				// a length declared without a body (a HEAD): commit with the length unknown, as
				// the compressed body's would be, not with that of an empty gzip member
				target().flush();
			}
			this.gzip.finish();
			this.gzip.send();
		}
		else {
			sendHeld();
		}
		target().close();
	}

	private void sendHeld() throws IOException {
		if (this.heldCount > 0) {
			int length = this.heldCount;
			clearHeld();
			target().write(this.held, 0, length);
		}
	}

	/** Frees the compressor; nothing more is written. */
	void abandon() {
		this.finished = true;
		if (this.gzip != null) {
			this.gzip.end();
		}
	}

	@Override
	public boolean isReady() {
		return (this.target == null) || this.target.isReady();
	}

	/**
	 * Makes the body non-blocking, as the container's is: the decision still waits for the
	 * first bytes (the status and headers are often set after the listener).
	 */
	@Override
	public void setWriteListener(WriteListener listener) {
		this.nonBlocking = true;
		try {
			target().setWriteListener(listener);
		}
		catch (IOException ex) {
			listener.onError(ex);
		}
	}

}
