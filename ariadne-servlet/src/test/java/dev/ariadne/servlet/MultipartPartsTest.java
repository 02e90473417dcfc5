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
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The multipart reader on bodies arriving in pieces of every size, so that delimiters split
 * across reads are found, and on the limits and malformed bodies.
 */
class MultipartPartsTest {

	private static final String TYPE = "multipart/form-data; boundary=" + Multipart.BOUNDARY;

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
				new MultipartConfigElement("", -1, -1, 1000));
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
				"multipart/form-data; boundary=\"b\"", -1, this.temp, new MultipartConfigElement(""));
		Part part = parts.parts().iterator().next();
		assertThat(new String(part.getInputStream().readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("value");
	}

	@Test
	void readsAnRfc5987FileName() throws IOException {
		String body = "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"fallback.txt\"; "
				+ "filename*=UTF-8''caf%C3%A9+1.txt\r\n\r\nx\r\n--b--\r\n";
		MultipartParts parts = MultipartParts.read(new ByteArrayInputStream(body.getBytes(StandardCharsets.US_ASCII)),
				"multipart/form-data; boundary=b", -1, this.temp, new MultipartConfigElement(""));
		assertThat(parts.parts().iterator().next().getSubmittedFileName()).isEqualTo("café+1.txt");
	}

	@Test
	void failsAsSoonAsAPartPassesTheFileLimitAndLeavesNoFile() {
		byte[] body = new Multipart().file("f", "x.bin", "application/octet-stream", content(5000)).bytes();
		assertThatExceptionOfType(MultipartLimitException.class)
			.isThrownBy(() -> MultipartParts.read(trickle(body, 512), TYPE, -1, this.temp,
					new MultipartConfigElement("", 4000, -1, 100)))
			.withMessageContaining("exceeds the maximum file size of 4000");
		assertThat(files()).isZero();
	}

	@Test
	void failsWhenTheBodyPassesTheRequestLimitWithoutALength() {
		byte[] body = new Multipart().field("a", "1").file("f", "x.bin", "text/plain", content(5000)).bytes();
		assertThatExceptionOfType(MultipartLimitException.class)
			.isThrownBy(() -> MultipartParts.read(trickle(body, 1000), TYPE, -1, this.temp,
					new MultipartConfigElement("", -1, 3000, 100)))
			.withMessageContaining("exceeds the maximum request size of 3000");
	}

	@ParameterizedTest
	@ValueSource(strings = { "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nno end",
			"--b\r\nno-colon-header\r\n\r\nx\r\n--b--\r\n", "--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--\r\n",
			"no delimiter at all", "--bX\r\n" })
	void refusesMalformedBodiesWith400(String body) {
		assertThatExceptionOfType(StatusException.class)
			.isThrownBy(() -> MultipartParts.read(new ByteArrayInputStream(body.getBytes(StandardCharsets.US_ASCII)),
					"multipart/form-data; boundary=b", -1, this.temp, new MultipartConfigElement("")))
			.satisfies((ex) -> assertThat(ex.status()).isEqualTo(400));
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
