package dev.ariadne;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * ClientHello records written byte by byte, for clients no TLS library will play: one that
 * offers nothing newer than TLS 1.1 (the JDK's and OpenSSL's own clients refuse to send one),
 * and the start of one that never ends.
 */
final class ClientHellos {

	private ClientHellos() {
	}

	/**
	 * Returns a whole ClientHello record offering TLS 1.1 at most (no supported_versions
	 * extension), with ECDHE-ECDSA and ECDHE-RSA AES-CBC suites, P-256, and a server name.
	 * @param serverName the host name to send (SNI)
	 * @return the record
	 */
	static byte[] tls11(String serverName) {
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		body.writeBytes(new byte[] { 0x03, 0x02 });
		body.writeBytes(new byte[32]);
		body.write(0);
		body.writeBytes(new byte[] { 0x00, 0x04, (byte) 0xc0, 0x09, (byte) 0xc0, 0x13 });
		body.writeBytes(new byte[] { 0x01, 0x00 });
		byte[] name = serverName.getBytes(StandardCharsets.US_ASCII);
		ByteArrayOutputStream extensions = new ByteArrayOutputStream();
		extension(extensions, 0x0000, concat(u16(name.length + 3), new byte[] { 0 }, u16(name.length), name));
		extension(extensions, 0x000a, new byte[] { 0x00, 0x02, 0x00, 0x17 });
		extension(extensions, 0x000b, new byte[] { 0x01, 0x00 });
		body.writeBytes(u16(extensions.size()));
		body.writeBytes(extensions.toByteArray());
		byte[] hello = concat(new byte[] { 0x01 }, u24(body.size()), body.toByteArray());
		return concat(new byte[] { 0x16, 0x03, 0x01 }, u16(hello.length), hello);
	}

	/**
	 * Returns the first bytes of a ClientHello record that announces more than it sends.
	 * @return the bytes
	 */
	static byte[] partial() {
		byte[] whole = tls11("localhost");
		byte[] start = new byte[20];
		System.arraycopy(whole, 0, start, 0, start.length);
		return start;
	}

	private static void extension(ByteArrayOutputStream out, int type, byte[] data) {
		out.writeBytes(u16(type));
		out.writeBytes(u16(data.length));
		out.writeBytes(data);
	}

	private static byte[] u16(int value) {
		return new byte[] { (byte) (value >> 8), (byte) value };
	}

	private static byte[] u24(int value) {
		return new byte[] { (byte) (value >> 16), (byte) (value >> 8), (byte) value };
	}

	private static byte[] concat(byte[]... parts) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		for (byte[] part : parts) {
			out.writeBytes(part);
		}
		return out.toByteArray();
	}

}
