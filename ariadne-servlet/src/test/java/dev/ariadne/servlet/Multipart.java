package dev.ariadne.servlet;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Builds {@code multipart/form-data} requests for the tests.
 */
final class Multipart {

	static final String BOUNDARY = "----ariadne-test-7MA4YWxkTrZu0gW";

	private final ByteArrayOutputStream body = new ByteArrayOutputStream();

	Multipart field(String name, String value) {
		text("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n");
		byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
		this.body.write(bytes, 0, bytes.length);
		text("\r\n");
		return this;
	}

	Multipart file(String name, String fileName, String type, byte[] content) {
		text("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"" + name + "\"; filename=\"" + fileName
				+ "\"\r\nContent-Type: " + type + "\r\n\r\n");
		this.body.write(content, 0, content.length);
		text("\r\n");
		return this;
	}

	private void text(String text) {
		byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
		this.body.write(bytes, 0, bytes.length);
	}

	byte[] bytes() {
		ByteArrayOutputStream all = new ByteArrayOutputStream();
		byte[] parts = this.body.toByteArray();
		all.write(parts, 0, parts.length);
		byte[] end = ("--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.US_ASCII);
		all.write(end, 0, end.length);
		return all.toByteArray();
	}

	/**
	 * Returns a whole POST request carrying this body.
	 * @param path the request target
	 * @param chunked whether to send the body chunked (in 1000-byte chunks) instead of with a length
	 * @return the request as ISO-8859-1 text
	 */
	String request(String path, boolean chunked) {
		byte[] content = bytes();
		StringBuilder request = new StringBuilder("POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: "
				+ "multipart/form-data; boundary=" + BOUNDARY + "\r\n");
		String body = new String(content, StandardCharsets.ISO_8859_1);
		if (!chunked) {
			return request.append("Content-Length: ").append(content.length).append("\r\n\r\n").append(body).toString();
		}
		request.append("Transfer-Encoding: chunked\r\n\r\n");
		for (int i = 0; i < body.length(); i += 1000) {
			String chunk = body.substring(i, Math.min(body.length(), i + 1000));
			request.append(Integer.toHexString(chunk.length())).append("\r\n").append(chunk).append("\r\n");
		}
		return request.append("0\r\n\r\n").toString();
	}

}
