package dev.ariadne.servlet;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.http.Part;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import dev.ariadne.server.ContentLimits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The multipart reader on bodies arriving in pieces of every size, so that delimiters split
 * across reads are found, and on the limits and malformed bodies.
 */
class MultipartPartsTest {

	private static final String TYPE = "multipart/form-data; boundary=" + Multipart.BOUNDARY;

	private static final ContentLimits LIMITS = ContentLimits.DEFAULTS;

	private static final RequestMemory NO_BUDGET = (bytes) -> {
	};

	@TempDir
	Path temp;

	private static byte[] content(int size) {
		byte[] bytes = new byte[size];
		for (int i = 0; i < size; i++) {
			// carriage returns and dashes inside the content must not confuse the scanner
			bytes[i] = (byte) "\r\n--abc-".charAt(i % 8);
		}
		return bytes;
	}

	@ParameterizedTest
	@ValueSource(ints = { 1, 2, 3, 7, 41, 100, 4096, 70_000 })
	void findsEveryPartWhateverSizeThePiecesOfTheBodyArriveIn(int piece) throws IOException {
		byte[] file = content(40_000);
		byte[] body = new Multipart().field("a", "1").file("f", "x.bin", "application/octet-stream", file)
			.field("b", "zwei").bytes();
		MultipartParts parts = MultipartParts.read(trickle(body, piece), TYPE, body.length, this.temp,
				new MultipartConfigElement("", -1, -1, 1000), LIMITS, NO_BUDGET);
		List<Part> all = new ArrayList<>(parts.parts());
		assertThat(all).extracting(Part::getName).containsExactly("a", "f", "b");
		assertThat(all.get(1).getInputStream().readAllBytes()).isEqualTo(file);
		assertThat(all.get(2).getInputStream().readAllBytes()).isEqualTo("zwei".getBytes(StandardCharsets.UTF_8));
		assertThat(files()).isEqualTo(1);
		parts.delete();
		assertThat(files()).isZero();
	}

	@Test
	void skipsThePreambleAndTheEpilogue() throws IOException {
		String body = "preamble text\r\n--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nvalue\r\n--b--\r\nepilogue";
		MultipartParts parts = MultipartParts.read(new ByteArrayInputStream(body.getBytes(StandardCharsets.US_ASCII)),
				"multipart/form-data; boundary=\"b\"", -1, this.temp, new MultipartConfigElement(""), LIMITS,
				NO_BUDGET);
		Part part = parts.parts().iterator().next();
		assertThat(new String(part.getInputStream().readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("value");
	}

	@Test
	void readsAnRfc5987FileName() throws IOException {
		String body = "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"fallback.txt\"; "
				+ "filename*=UTF-8''caf%C3%A9+1.txt\r\n\r\nx\r\n--b--\r\n";
		MultipartParts parts = MultipartParts.read(new ByteArrayInputStream(body.getBytes(StandardCharsets.US_ASCII)),
				"multipart/form-data; boundary=b", -1, this.temp, new MultipartConfigElement(""), LIMITS,
				NO_BUDGET);
		assertThat(parts.parts().iterator().next().getSubmittedFileName()).isEqualTo("café+1.txt");
	}

	@Test
	void failsAsSoonAsAPartPassesTheFileLimitAndLeavesNoFile() {
		byte[] body = new Multipart().file("f", "x.bin", "application/octet-stream", content(5000)).bytes();
		assertThatExceptionOfType(MultipartLimitException.class)
			.isThrownBy(() -> MultipartParts.read(trickle(body, 512), TYPE, -1, this.temp,
					new MultipartConfigElement("", 4000, -1, 100), LIMITS, NO_BUDGET))
			.withMessageContaining("exceeds the maximum file size of 4000");
		assertThat(files()).isZero();
	}

	@Test
	void failsWhenTheBodyPassesTheRequestLimitWithoutALength() {
		byte[] body = new Multipart().field("a", "1").file("f", "x.bin", "text/plain", content(5000)).bytes();
		assertThatExceptionOfType(MultipartLimitException.class)
			.isThrownBy(() -> MultipartParts.read(trickle(body, 1000), TYPE, -1, this.temp,
					new MultipartConfigElement("", -1, 3000, 100), LIMITS, NO_BUDGET))
			.withMessageContaining("exceeds the maximum request size of 3000");
	}

	@ParameterizedTest
	@ValueSource(strings = { "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nno end",
			"--b\r\nno-colon-header\r\n\r\nx\r\n--b--\r\n", "--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--\r\n",
			"no delimiter at all", "--bX\r\n" })
	void refusesMalformedBodiesWith400(String body) {
		assertThatExceptionOfType(StatusException.class)
			.isThrownBy(() -> MultipartParts.read(new ByteArrayInputStream(body.getBytes(StandardCharsets.US_ASCII)),
					"multipart/form-data; boundary=b", -1, this.temp, new MultipartConfigElement(""), LIMITS,
					NO_BUDGET))
			.satisfies((ex) -> assertThat(ex.status()).isEqualTo(400));
	}

	@ParameterizedTest(name = "{0} parts within {1}")
	@CsvSource({ "3, 3", "1, 1", "50, 50" })
	void readsAsManyPartsAsTheLimit(int count, int max) throws IOException {
		Multipart multipart = new Multipart();
		for (int i = 0; i < count; i++) {
			multipart.field("f" + i, "v" + i);
		}
		byte[] body = multipart.bytes();
		MultipartParts parts = MultipartParts.read(new ByteArrayInputStream(body), TYPE, body.length, this.temp,
				new MultipartConfigElement("", -1, -1, 0), limits(max, 512), NO_BUDGET);
		assertThat(parts.parts()).hasSize(count);
		parts.delete();
	}

	@ParameterizedTest(name = "{0} parts within {1}")
	@CsvSource({ "4, 3", "2, 1", "51, 50" })
	void refusesThePartPastTheLimitWith400BeforeReadingItAndLeavesNoFile(int count, int max) {
		Multipart multipart = new Multipart();
		for (int i = 0; i < count - 1; i++) {
			// large enough for a file of its own each
			multipart.file("f" + i, "f" + i + ".bin", "application/octet-stream", content(PartStore.SMALL_PART + 1));
		}
		byte[] parts = multipart.bytes();
		byte[] end = ("--" + Multipart.BOUNDARY + "--\r\n").getBytes(StandardCharsets.US_ASCII);
		// headers that would fail as malformed if this part were read
		byte[] last = ("--" + Multipart.BOUNDARY + "\r\nno-colon-header\r\n\r\nx\r\n").getBytes(StandardCharsets.US_ASCII);
		byte[] all = concat(concat(java.util.Arrays.copyOf(parts, parts.length - end.length), last), end);
		assertThatExceptionOfType(StatusException.class)
			.isThrownBy(() -> MultipartParts.read(trickle(all, 4096), TYPE, -1, this.temp,
					new MultipartConfigElement("", -1, -1, 0), limits(max, 512), NO_BUDGET))
			.satisfies((ex) -> assertThat(ex.status()).isEqualTo(400))
			.withMessage("More than " + max + " parts in the multipart body (ariadne.server.request.max-parts)");
		assertThat(files()).isZero();
	}

	@ParameterizedTest(name = "a header section of {0} bytes within {1}")
	@CsvSource({ "512, 512", "100, 512", "513, 512", "600, 512", "20000, 512", "64, 64", "65, 64" })
	void refusesAPartHeaderSectionLargerThanTheLimitWith413(int sectionBytes, int max) {
		// the section: the disposition line, a padding line, and the empty line
		String disposition = "Content-Disposition: form-data; name=\"a\"\r\n";
		String padding = "X-Pad: ";
		int pad = sectionBytes - disposition.length() - padding.length() - 4;
		String section = (pad >= 0) ? disposition + padding + "p".repeat(pad) + "\r\n\r\n"
				: disposition.substring(0, sectionBytes - 2) + "\r\n";
		byte[] body = ("--b\r\n" + section + "x\r\n--b--\r\n").getBytes(StandardCharsets.US_ASCII);
		if (sectionBytes <= max) {
			MultipartParts parts = MultipartParts.read(trickle(body, 7), "multipart/form-data; boundary=b", -1, this.temp,
					new MultipartConfigElement(""), limits(50, max), NO_BUDGET);
			assertThat(parts.parts()).hasSize(1);
			return;
		}
		assertThatExceptionOfType(StatusException.class)
			.isThrownBy(() -> MultipartParts.read(trickle(body, 7), "multipart/form-data; boundary=b", -1, this.temp,
					new MultipartConfigElement(""), limits(50, max), NO_BUDGET))
			.satisfies((ex) -> assertThat(ex.status()).isEqualTo(413))
			.withMessage("A multipart part's header section exceeds the maximum size of " + max
					+ " bytes (ariadne.server.request.max-part-header-size)");
	}

	@Test
	void keepsSmallPartsPastTheThresholdInOneSpoolFileAndLargerOnesInFilesOfTheirOwn() throws IOException {
		Multipart multipart = new Multipart();
		for (int i = 0; i < 200; i++) {
			multipart.field("f" + i, "value " + i);
		}
		byte[] large = content(PartStore.SMALL_PART + 1);
		multipart.file("large", "large.bin", "application/octet-stream", large);
		multipart.field("empty", "");
		byte[] body = multipart.bytes();
		MultipartParts parts = MultipartParts.read(trickle(body, 1000), TYPE, body.length, this.temp,
				new MultipartConfigElement("", -1, -1, 0), limits(1000, 512), NO_BUDGET);
		assertThat(files()).as("the spool and the large part's file").isEqualTo(2);
		List<Part> all = new ArrayList<>(parts.parts());
		assertThat(all).hasSize(202);
		for (int i = 0; i < 200; i++) {
			assertThat(all.get(i).getInputStream().readAllBytes()).asString(StandardCharsets.UTF_8).isEqualTo("value " + i);
		}
		assertThat(all.get(200).getInputStream().readAllBytes()).isEqualTo(large);
		assertThat(all.get(201).getSize()).isZero();
		Parameters fields = new Parameters(1000);
		parts.addFieldsTo(fields, null);
		assertThat(fields.first("f199")).isEqualTo("value 199");
		Path copy = this.temp.resolve("copies/f7.txt");
		all.get(7).write("copies/f7.txt");
		assertThat(Files.readString(copy)).isEqualTo("value 7");
		Files.delete(copy);
		Files.delete(copy.getParent());
		parts.delete();
		assertThat(files()).isZero();
	}

	@Test
	void reservesWhatThePartsHoldInMemoryBeforeHoldingIt() throws IOException {
		byte[] body = new Multipart().field("a", "x".repeat(5000)).field("b", "y".repeat(5000)).bytes();
		List<Long> reserved = new ArrayList<>();
		MultipartParts parts = MultipartParts.read(new ByteArrayInputStream(body), TYPE, body.length, this.temp,
				new MultipartConfigElement("", -1, -1, 100_000), limits(50, 512), reserved::add);
		long total = reserved.stream().mapToLong(Long::longValue).sum();
		// both parts in memory, the buffer they were read through, the headers
		assertThat(total).isGreaterThanOrEqualTo(10_000 + 5000 + 16 * 1024);
		assertThat(total).isLessThan(10_000 + 2 * 5000 + 16 * 1024 + 4096);
		parts.delete();
	}

	@Test
	void failsWhenNoMemoryIsFreeAndLeavesNoFile() {
		byte[] body = new Multipart().file("f", "a.bin", "application/octet-stream", content(PartStore.SMALL_PART + 1))
			.field("b", "y".repeat(5000))
			.bytes();
		// no memory left once the first part is in its file
		RequestMemory spent = (bytes) -> {
			if (files() > 0) {
				throw new IOException("no memory free");
			}
		};
		assertThatExceptionOfType(java.io.UncheckedIOException.class)
			.isThrownBy(() -> MultipartParts.read(new ByteArrayInputStream(body), TYPE, body.length, this.temp,
					new MultipartConfigElement("", -1, -1, 0), limits(50, 512), spent))
			.withMessageContaining("no memory free");
		assertThat(files()).isZero();
	}

	private static ContentLimits limits(int maxParts, int maxPartHeaderSize) {
		return new ContentLimits(1000, 1024, 200, maxParts, maxPartHeaderSize);
	}

	private static byte[] concat(byte[] first, byte[] second) {
		byte[] all = java.util.Arrays.copyOf(first, first.length + second.length);
		System.arraycopy(second, 0, all, first.length, second.length);
		return all;
	}

	private long files() {
		try (Stream<Path> files = Files.list(this.temp)) {
			return files.count();
		}
		catch (IOException ex) {
			throw new AssertionError(ex);
		}
	}

	/** A stream that hands out at most {@code piece} bytes per read. */
	private static InputStream trickle(byte[] body, int piece) {
		return new ByteArrayInputStream(body) {

			@Override
			public synchronized int read(byte[] bytes, int offset, int length) {
				return super.read(bytes, offset, Math.min(length, piece));
			}

		};
	}

}
