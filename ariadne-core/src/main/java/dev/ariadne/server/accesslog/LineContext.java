package dev.ariadne.server.accesslog;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;

/**
 * What a line needs beyond its entry: the listener's name and I/O model, the time stamps, and
 * the text of the last IPv4 address written (most lines of a burst come from few clients, and
 * an IPv4 address's hash is its value, so the cache costs no allocation). Owned by the writer
 * thread.
 */
final class LineContext {

	final String listener;

	final String ioModel;

	final Timestamps timestamps;

	private int lastIpv4;

	private byte[] lastIpv4Text;

	LineContext(String listener, String ioModel, ZoneId zone) {
		this.listener = listener;
		this.ioModel = ioModel;
		this.timestamps = new Timestamps(zone);
	}

	/**
	 * Appends an address without brackets or port ({@code 127.0.0.1}, {@code 0:0:0:0:0:0:0:1}),
	 * {@code -} when unknown; what is not a plain IPv4 address is escaped as the format escapes.
	 */
	void address(InetSocketAddress socket, LineBuffer out, boolean json) {
		if (socket == null) {
			out.ascii('-');
			return;
		}
		InetAddress address = socket.getAddress();
		if (address == null) {
			// unresolved: a host name as given, which may be anything
			text(socket.getHostString(), out, json);
			return;
		}
		if (address instanceof Inet4Address) {
			int value = address.hashCode();
			if (this.lastIpv4Text == null || value != this.lastIpv4) {
				this.lastIpv4Text = address.getHostAddress().getBytes(StandardCharsets.US_ASCII);
				this.lastIpv4 = value;
			}
			out.ascii(this.lastIpv4Text, 0, this.lastIpv4Text.length);
			return;
		}
		// an IPv6 literal, perhaps with a scope name: escaped like any text
		text(address.getHostAddress(), out, json);
	}

	private static void text(String text, LineBuffer out, boolean json) {
		if (json) {
			out.json(text);
		}
		else {
			out.ncsa(text);
		}
	}

}
