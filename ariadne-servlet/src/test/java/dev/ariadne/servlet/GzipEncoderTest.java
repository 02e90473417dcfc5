package dev.ariadne.servlet;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link GzipEncoder}: what it writes is one gzip member any decoder reads, however the body is
 * split into writes and flushes; a flush makes everything so far decodable; a non-blocking
 * writer's call is one write of the target, a blocking writer's never more than the buffer.
 */
class GzipEncoderTest {

	private static final byte[] TEXT = ("The quick brown fox jumps over the lazy dog; ".repeat(900))
		.getBytes(StandardCharsets.US_ASCII);

	@ParameterizedTest(name = "bounded={0}")
	@ValueSource(booleans = { true, false })
	void encodesABodySplitAtEveryPositionIntoOneMemberThatDecodesToIt(boolean bounded) throws IOException {
		byte[] body = "Hello, compressed world! ".repeat(3).getBytes(StandardCharsets.US_ASCII);
		for (int split = 0; split <= body.length; split++) {
			Writes target = new Writes();
			GzipEncoder encoder = new GzipEncoder(target, bounded);
			encoder.encode(body, 0, split);
			encoder.send();
			encoder.encode(ByteBuffer.wrap(body, split, body.length - split));
			encoder.send();
			encoder.finish();
			encoder.send();
			assertThat(gunzip(target.bytes())).as("split at %d", split).isEqualTo(body);
		}
	}

	@ParameterizedTest(name = "bounded={0}")
	@ValueSource(booleans = { true, false })
	void encodesAnEmptyBodyAsAValidMember(boolean bounded) throws IOException {
		Writes target = new Writes();
		GzipEncoder encoder = new GzipEncoder(target, bounded);
		encoder.finish();
		encoder.send();
		assertThat(gunzip(target.bytes())).isEmpty();
		assertThat(target.writes).hasSize(1);
	}

	@Test
	void makesEverythingWrittenDecodableAtAFlush() throws IOException {
		Writes target = new Writes();
		GzipEncoder encoder = new GzipEncoder(target, false);
		byte[] first = "first event\n".getBytes(StandardCharsets.US_ASCII);
		encoder.encode(first, 0, first.length);
		encoder.send();
		encoder.syncFlush();
		encoder.send();
		// the member is not ended: inflate what was sent so far, after the 10-byte header
		byte[] sent = target.bytes();
		Inflater inflater = new Inflater(true);
		inflater.setInput(sent, 10, sent.length - 10);
		byte[] out = new byte[64];
		int count;
		try {
			count = inflater.inflate(out);
		}
		catch (java.util.zip.DataFormatException ex) {
			throw new AssertionError(ex);
		}
		finally {
			inflater.end();
		}
		assertThat(new String(out, 0, count, StandardCharsets.US_ASCII)).isEqualTo("first event\n");
	}

	@Test
	void writesOncePerCallForANonBlockingWriterWhateverTheSize() throws IOException {
		byte[] noise = new byte[200_000];
		new Random(7).nextBytes(noise);
		Writes target = new Writes();
		GzipEncoder encoder = new GzipEncoder(target, false);
		encoder.encode(noise, 0, noise.length);
		encoder.send();
		assertThat(target.writes).hasSize(1);
		encoder.encode(TEXT, 0, TEXT.length);
		encoder.syncFlush();
		encoder.send();
		assertThat(target.writes).hasSize(2);
		encoder.finish();
		encoder.send();
		assertThat(target.writes).hasSize(3);
		ByteArrayOutputStream expected = new ByteArrayOutputStream();
		expected.write(noise);
		expected.write(TEXT);
		assertThat(gunzip(target.bytes())).isEqualTo(expected.toByteArray());
	}

	@Test
	void neverHoldsMoreThanItsBufferForABlockingWriter() throws IOException {
		byte[] noise = new byte[200_000];
		new Random(11).nextBytes(noise);
		Writes target = new Writes();
		GzipEncoder encoder = new GzipEncoder(target, true);
		encoder.encode(noise, 0, noise.length);
		encoder.send();
		encoder.finish();
		encoder.send();
		assertThat(target.writes).hasSizeGreaterThan(20).allSatisfy((size) -> assertThat(size).isLessThanOrEqualTo(8192));
		assertThat(gunzip(target.bytes())).isEqualTo(noise);
	}

	@Test
	void compressesText() throws IOException {
		Writes target = new Writes();
		GzipEncoder encoder = new GzipEncoder(target, true);
		encoder.encode(TEXT, 0, TEXT.length);
		encoder.finish();
		encoder.send();
		assertThat(target.bytes().length).isLessThan(TEXT.length / 20);
	}

	private static byte[] gunzip(byte[] bytes) throws IOException {
		try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
			return in.readAllBytes();
		}
	}

	/** Records each write the encoder makes. */
	private static final class Writes extends OutputStream {

		private final ByteArrayOutputStream all = new ByteArrayOutputStream();

		private final List<Integer> writes = new ArrayList<>();

		@Override
		public void write(int b) {
			throw new AssertionError("single-byte write");
		}

		@Override
		public void write(byte[] bytes, int offset, int length) {
			this.writes.add(length);
			this.all.write(bytes, offset, length);
		}

		byte[] bytes() {
			return this.all.toByteArray();
		}

	}

}
