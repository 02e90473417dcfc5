package dev.ariadne.it.mvc;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A {@code multipart/form-data} body written by hand, so that a test knows its exact bytes.
 */
final class Multipart {

	static final String BOUNDARY = "conformance-7d9f2b";

	private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

	/**
	 * Adds a text field.
	 * @param name the field's name
	 * @param value its value, sent as UTF-8
	 * @return this body
	 */
	Multipart field(String name, String value) {
		write("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n"
				+ "Content-Type: text/plain; charset=UTF-8\r\n\r\n");
		this.bytes.writeBytes(value.getBytes(StandardCharsets.UTF_8));
		write("\r\n");
		return this;
	}

	/**
	 * Adds a file.
	 * @param name the field's name
	 * @param filename the file's name
	 * @param contentType the file's type
	 * @param content the file's bytes
	 * @return this body
	 */
	Multipart file(String name, String filename, String contentType, byte[] content) {
		write("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"" + name + "\"; filename=\"" + filename
				+ "\"\r\nContent-Type: " + contentType + "\r\n\r\n");
		this.bytes.writeBytes(content);
		write("\r\n");
		return this;
	}

	/**
	 * Ends the body.
	 * @return its bytes
	 */
	byte[] end() {
		write("--" + BOUNDARY + "--\r\n");
		return this.bytes.toByteArray();
	}

	static String contentType() {
		return "multipart/form-data; boundary=" + BOUNDARY;
	}

	private void write(String text) {
		this.bytes.writeBytes(text.getBytes(StandardCharsets.UTF_8));
	}

}
