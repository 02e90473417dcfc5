package dev.ariadne.server;

import java.net.InetAddress;
import java.util.List;
import java.util.Objects;

/**
 * Whether a listener believes the forwarded headers of a request ({@code Forwarded}, RFC 7239,
 * and {@code X-Forwarded-For}, {@code -Proto}, {@code -Host}, {@code -Port}), and from which
 * peers: the client's address, the scheme and the host the proxy in front saw take the place of
 * the connection's own. A request from a peer outside the trusted proxies keeps its connection's
 * values, whatever its headers say.
 *
 * <p>The trusted proxies are addresses or CIDR blocks; by default the private, loopback and
 * link-local ranges, where the proxies of a cluster or a host live (what Tomcat's
 * {@code RemoteIpValve} calls its internal proxies).
 */
public final class ForwardedConfig {

	/** The private, shared (carrier-grade NAT), loopback and link-local ranges, IPv4 and IPv6. */
	public static final List<String> INTERNAL_PROXIES = List.of("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",
			"100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "::1/128", "fc00::/7", "fe80::/10");

	/** Off, trusting the internal proxies once turned on. */
	public static final ForwardedConfig DISABLED = new ForwardedConfig(false, INTERNAL_PROXIES);

	private final boolean enabled;

	private final List<String> trustedProxies;

	private final byte[][] networks;

	private final int[] prefixes;

	/**
	 * Creates the configuration, checking every block.
	 * @param enabled whether forwarded headers are read at all
	 * @param trustedProxies addresses ({@code 10.1.2.3}, {@code ::1}) or CIDR blocks
	 * ({@code 10.0.0.0/8}) of the proxies whose headers are believed
	 * @throws IllegalArgumentException naming {@code ariadne.server.forwarded.trusted-proxies}
	 * for a value that is neither
	 */
	public ForwardedConfig(boolean enabled, List<String> trustedProxies) {
		this.enabled = enabled;
		this.trustedProxies = List.copyOf(Objects.requireNonNull(trustedProxies, "forwarded.trusted-proxies"));
		this.networks = new byte[this.trustedProxies.size()][];
		this.prefixes = new int[this.trustedProxies.size()];
		for (int i = 0; i < this.networks.length; i++) {
			String block = this.trustedProxies.get(i).trim();
			int slash = block.indexOf('/');
			byte[] address = literal((slash < 0) ? block : block.substring(0, slash));
			int prefix = (address != null) ? address.length * 8 : -1;
			if (address != null && slash >= 0) {
				prefix = prefix(block.substring(slash + 1), address.length * 8);
			}
			if (address == null || prefix < 0) {
				throw ServerConfig.invalid("forwarded.trusted-proxies", block,
						"an IPv4 or IPv6 address or a CIDR block such as 10.0.0.0/8 or fc00::/7");
			}
			this.networks[i] = address;
			this.prefixes[i] = prefix;
		}
	}

	/**
	 * Returns whether forwarded headers are read at all.
	 * @return whether enabled
	 */
	public boolean enabled() {
		return this.enabled;
	}

	/**
	 * Returns the trusted proxies as configured.
	 * @return addresses and CIDR blocks
	 */
	public List<String> trustedProxies() {
		return this.trustedProxies;
	}

	/**
	 * Returns whether a peer is one of the trusted proxies.
	 * @param address the peer's address, or {@code null}
	 * @return whether its forwarded headers are believed
	 */
	public boolean trusts(InetAddress address) {
		return address != null && trusts(address.getAddress());
	}

	/**
	 * Returns whether an address, given as its bytes, is one of the trusted proxies.
	 * @param address 4 or 16 bytes
	 * @return whether trusted
	 */
	public boolean trusts(byte[] address) {
		for (int i = 0; i < this.networks.length; i++) {
			if (matches(this.networks[i], this.prefixes[i], address)) {
				return true;
			}
		}
		return false;
	}

	private static boolean matches(byte[] network, int prefix, byte[] address) {
		if (network.length != address.length) {
			return false;
		}
		int full = prefix / 8;
		for (int i = 0; i < full; i++) {
			if (network[i] != address[i]) {
				return false;
			}
		}
		int rest = prefix % 8;
		if (rest == 0) {
			return true;
		}
		int mask = (0xFF << (8 - rest)) & 0xFF;
		return (network[full] & mask) == (address[full] & mask);
	}

	private static int prefix(String text, int max) {
		if (text.isEmpty() || text.length() > 3) {
			return -1;
		}
		int value = 0;
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c < '0' || c > '9') {
				return -1;
			}
			value = value * 10 + (c - '0');
		}
		return (value <= max) ? value : -1;
	}

	/**
	 * Parses an IP address literal without ever asking a name service: dotted IPv4, or IPv6 with
	 * {@code ::} and an IPv4 tail; {@code null} for anything else (a host name among them).
	 * @param text the literal, IPv6 without brackets
	 * @return 4 or 16 bytes, or {@code null}
	 */
	public static byte[] literal(String text) {
		if (text.indexOf(':') < 0) {
			return ipv4(text);
		}
		return ipv6(text);
	}

	private static byte[] ipv4(String text) {
		byte[] bytes = new byte[4];
		int part = 0;
		int value = -1;
		for (int i = 0; i <= text.length(); i++) {
			char c = (i < text.length()) ? text.charAt(i) : '.';
			if (c == '.') {
				if (value < 0 || part == 4) {
					return null;
				}
				bytes[part++] = (byte) value;
				value = -1;
			}
			else if (c >= '0' && c <= '9') {
				value = (value < 0) ? c - '0' : value * 10 + (c - '0');
				if (value > 255) {
					return null;
				}
			}
			else {
				return null;
			}
		}
		return (part == 4) ? bytes : null;
	}

	private static byte[] ipv6(String text) {
		if (text.length() < 2 || text.length() > 45) {
			return null;
		}
		int gap = text.indexOf("::");
		if (gap >= 0 && text.indexOf("::", gap + 1) >= 0) {
			return null;
		}
		byte[] bytes = new byte[16];
		String head = (gap >= 0) ? text.substring(0, gap) : text;
		String tail = (gap >= 0) ? text.substring(gap + 2) : "";
		int[] front = groups(head, bytes, 0, gap < 0);
		if (front == null) {
			return null;
		}
		if (gap < 0) {
			return (front[0] == 16) ? bytes : null;
		}
		byte[] back = new byte[16];
		int[] end = groups(tail, back, 0, true);
		if (end == null || front[0] + end[0] > 14) {
			return null;
		}
		System.arraycopy(back, 0, bytes, 16 - end[0], end[0]);
		return bytes;
	}

	/** Fills bytes from hexadecimal groups (and a last IPv4 part); returns {count} or null. */
	private static int[] groups(String text, byte[] bytes, int from, boolean ipv4Tail) {
		if (text.isEmpty()) {
			return new int[] { from };
		}
		int at = from;
		String[] parts = text.split(":", -1);
		for (int p = 0; p < parts.length; p++) {
			String part = parts[p];
			if (p == parts.length - 1 && ipv4Tail && part.indexOf('.') >= 0) {
				byte[] v4 = ipv4(part);
				if (v4 == null || at + 4 > 16) {
					return null;
				}
				System.arraycopy(v4, 0, bytes, at, 4);
				at += 4;
				continue;
			}
			if (part.isEmpty() || part.length() > 4 || at + 2 > 16) {
				return null;
			}
			int value = 0;
			for (int i = 0; i < part.length(); i++) {
				int digit = Character.digit(part.charAt(i), 16);
				if (digit < 0) {
					return null;
				}
				value = value * 16 + digit;
			}
			bytes[at++] = (byte) (value >> 8);
			bytes[at++] = (byte) value;
		}
		return new int[] { at };
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof ForwardedConfig that && this.enabled == that.enabled
				&& this.trustedProxies.equals(that.trustedProxies);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.enabled, this.trustedProxies);
	}

	@Override
	public String toString() {
		return "ForwardedConfig[enabled=" + this.enabled + ", trustedProxies=" + this.trustedProxies + "]";
	}

}
