package dev.ariadne.servlet;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A form body read for its parameters: whole within the limits, whatever the pieces it arrives
 * in, and refused at the first byte past a limit, with nothing read after it.
 */
class FormBodyTest {

	private final AtomicLong reserved = new AtomicLong();

	@ParameterizedTest(name = "in pieces of {0}")
	@ValueSource(ints = { 1, 2, 3, 7, 8192 })
	void readsAFormWithinTheLimitsWholeAndReservesWhatItHolds(int piece) throws IOException {
		String form = "a=1&&b=2&c=&=x&";
		byte[] read = bytes(FormBody.read(new Pieces(form, piece), form.length(), 1024, new Parameters(4),
				this::reserve));
		assertThat(new String(read, StandardCharsets.ISO_8859_1)).isEqualTo(form);
		assertThat(this.reserved.get()).isGreaterThanOrEqualTo(form.length()).isLessThanOrEqualTo(1024);
	}

	@ParameterizedTest(name = "in pieces of {0}")
	@ValueSource(ints = { 1, 5, 8192 })
	void refusesThePairPastTheRoomLeftByTheQueryWithoutReadingFurther(int piece) throws IOException {
		Parameters parameters = new Parameters(5);
		parameters.addEncoded("q=1&r=2", StandardCharsets.UTF_8);
		String form = "a=1&b=2&c=3" + "&x=1".repeat(100_000);
		Pieces body = new Pieces(form, piece);
		assertThatExceptionOfType(StatusException.class)
			.isThrownBy(() -> FormBody.read(body, form.length(), 2 * 1024 * 1024, parameters, this::reserve))
			.satisfies((ex) -> assertThat(ex.status()).isEqualTo(400))
			.withMessage("More than 5 request parameters (ariadne.server.request.max-parameters)");
		// the fourth pair starts at byte 11: one piece more at most was read
		assertThat(body.consumed()).isLessThanOrEqualTo(12 + piece);
		assertThat(this.reserved.get()).isLessThanOrEqualTo(16 * 1024);
	}

	@Test
	void refusesABodyDeclaredLongerThanTheLimitBeforeReadingIt() {
		Pieces body = new Pieces("a=1", 1);
		assertThatExceptionOfType(StatusException.class)
			.isThrownBy(() -> FormBody.read(body, 11, 10, new Parameters(5), this::reserve))
			.satisfies((ex) -> assertThat(ex.status()).isEqualTo(413))
			.withMessage("Form body of 11 bytes exceeds the maximum form size of 10 bytes "
					+ "(ariadne.server.request.max-form-size)");
		assertThat(body.consumed()).isZero();
	}

	@ParameterizedTest(name = "in pieces of {0}")
	@ValueSource(ints = { 1, 4, 8192 })
	void refusesABodyOfUnknownLengthAtTheFirstBytePastTheLimit(int piece) throws IOException {
		assertThat(bytes(FormBody.read(new Pieces("a=1&b=2&c=", piece), -1, 10, new Parameters(5), this::reserve)))
			.hasSize(10);
		Pieces longer = new Pieces("a=1&b=2&c=3" + "x".repeat(10_000), piece);
		assertThatExceptionOfType(StatusException.class)
			.isThrownBy(() -> FormBody.read(longer, -1, 10, new Parameters(5), this::reserve))
			.satisfies((ex) -> assertThat(ex.status()).isEqualTo(413))
			.withMessage("Form body exceeds the maximum form size of 10 bytes (ariadne.server.request.max-form-size)");
		assertThat(longer.consumed()).isEqualTo(11);
	}

	private static byte[] bytes(FormBody form) {
		return java.util.Arrays.copyOf(form.bytes(), form.length());
	}

	private void reserve(long bytes) {
		assertThat(bytes).isNotNegative();
		this.reserved.addAndGet(bytes);
	}

	/** A body that arrives in pieces of at most a size, counting what was taken from it. */
	private static final class Pieces extends InputStream {

		private final ByteArrayInputStream in;

		private final int piece;

		private long consumed;

		Pieces(String text, int piece) {
			this.in = new ByteArrayInputStream(text.getBytes(StandardCharsets.ISO_8859_1));
			this.piece = piece;
		}

		@Override
		public int read() {
			int b = this.in.read();
			this.consumed += (b < 0) ? 0 : 1;
			return b;
		}

		@Override
		public int read(byte[] bytes, int offset, int length) {
			int count = this.in.read(bytes, offset, Math.min(length, this.piece));
			this.consumed += Math.max(count, 0);
			return count;
		}

		long consumed() {
			return this.consumed;
		}

	}

}
