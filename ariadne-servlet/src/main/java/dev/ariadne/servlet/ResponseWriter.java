package dev.ariadne.servlet;

import java.io.IOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;

/**
 * Encodes characters straight into the response output, keeping nothing back but half of a
 * surrogate pair: so whatever was written is in the response buffer when the container decides
 * between {@code Content-Length} and chunked framing.
 */
final class ResponseWriter extends Writer {

	private final ResponseOutput output;

	private final CharsetEncoder encoder;

	private final ByteBuffer bytes = ByteBuffer.allocate(1024);

	private char pendingHighSurrogate;

	ResponseWriter(ResponseOutput output, Charset charset) {
		this.output = output;
		this.encoder = charset.newEncoder()
			.onMalformedInput(CodingErrorAction.REPLACE)
			.onUnmappableCharacter(CodingErrorAction.REPLACE);
	}

	@Override
	public void write(char[] chars, int offset, int length) throws IOException {
		CharBuffer in;
		if (this.pendingHighSurrogate != 0) {
			in = CharBuffer.allocate(length + 1);
			in.put(this.pendingHighSurrogate).put(chars, offset, length).flip();
			this.pendingHighSurrogate = 0;
		}
		else {
			in = CharBuffer.wrap(chars, offset, length);
		}
		encode(in, false);
		if (in.hasRemaining()) {
			// a high surrogate whose low half comes with the next write
			this.pendingHighSurrogate = in.get();
		}
	}

	@Override
	public void write(String text, int offset, int length) throws IOException {
		write(text.toCharArray(), offset, length);
	}

	@Override
	public void write(int c) throws IOException {
		write(new char[] { (char) c }, 0, 1);
	}

	private void encode(CharBuffer in, boolean endOfInput) throws IOException {
		while (true) {
			CoderResult result = this.encoder.encode(in, this.bytes, endOfInput);
			if (result.isOverflow()) {
				drain();
				continue;
			}
			if (result.isError()) {
				result.throwException();
			}
			break;
		}
		drain();
	}

	private void drain() throws IOException {
		this.bytes.flip();
		if (this.bytes.hasRemaining()) {
			this.output.write(this.bytes.array(), this.bytes.arrayOffset() + this.bytes.position(),
					this.bytes.remaining());
		}
		this.bytes.clear();
	}

	/** Encodes a pending half surrogate as a replacement, before the response ends. */
	void endOfInput() throws IOException {
		if (this.pendingHighSurrogate != 0) {
			CharBuffer in = CharBuffer.wrap(new char[] { this.pendingHighSurrogate });
			this.pendingHighSurrogate = 0;
			encode(in, true);
		}
	}

	@Override
	public void flush() throws IOException {
		this.output.flush();
	}

	@Override
	public void close() throws IOException {
		endOfInput();
		this.output.close();
	}

}
