package dev.ariadne.server.connection;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.ariadne.http.HeaderName;
import dev.ariadne.http.Headers;
import dev.ariadne.server.ForwardedConfig;

/**
 * Reads what a trusted proxy says of the client it forwards: RFC 7239's {@code Forwarded}, or
 * else the {@code X-Forwarded-For}, {@code -Proto}, {@code -Host} and {@code -Port} fields; and
 * in either case {@code X-Forwarded-Prefix} ({@link ForwardedPrefix}), which RFC 7239 has no
 * parameter for.
 *
 * <p>The client is found from the end of the chain: the last hop is the connection's peer, and
 * each hop that is itself a trusted proxy hands over to the one before it, until a hop that is
 * not trusted (or the first): that hop is the client, and the scheme and host are those its
 * proxy recorded. A single value of {@code X-Forwarded-Proto}, {@code -Host} or {@code -Port}
 * applies whatever the chain; a list as long as {@code X-Forwarded-For} is read at the client's
 * position. A request whose peer is not trusted is left as it is. Nothing here asks a name
 * service: an address that is not a literal ends the walk.
 */
final class Forwarding {

	private static final String FORWARDED = "Forwarded";

	private static final String FOR = "X-Forwarded-For";

	private static final String PROTO = "X-Forwarded-Proto";

	private static final String HOST = "X-Forwarded-Host";

	private static final String PORT = "X-Forwarded-Port";

	private Forwarding() {
	}

	/**
	 * Applies the forwarded fields of a request from a trusted proxy: its client's address, its
	 * scheme, its {@code Host} field rewritten to the host and port the client asked for, and the
	 * path prefix the proxy serves the application under.
	 * @param config which peers are trusted
	 * @param request the request, made from the connection's values
	 * @param headers the request's header fields, changed in place
	 */
	static void apply(ForwardedConfig config, ServerRequest request, Headers headers) {
		InetSocketAddress peer = request.remoteAddress();
		if (peer == null || !config.trusts(peer.getAddress())) {
			return;
		}
		List<String> prefix = headers.all(ForwardedPrefix.HEADER);
		if (!prefix.isEmpty()) {
			request.forwardedPrefix(ForwardedPrefix.parse(prefix));
		}
		List<String> forwarded = headers.all(FORWARDED);
		Hop hop = forwarded.isEmpty() ? fromXForwarded(config, headers) : fromForwarded(config, forwarded);
		if (hop == null) {
			return;
		}
		InetSocketAddress client = peer;
		if (hop.address != null) {
			try {
				client = new InetSocketAddress(InetAddress.getByAddress(hop.address), (hop.port > 0) ? hop.port : peer.getPort());
			}
			catch (UnknownHostException ex) {
				// 4 or 16 bytes always make an address
			}
		}
		Boolean secure = null;
		if (hop.proto != null) {
			String proto = hop.proto.toLowerCase(Locale.ROOT);
			if (proto.equals("https") || proto.equals("wss")) {
				secure = true;
			}
			else if (proto.equals("http") || proto.equals("ws")) {
				secure = false;
			}
		}
		request.forwarded(client, secure);
		rewriteHost(headers, hop, (secure != null) ? secure : request.secure(), secure != null);
	}

	/** The Host field the client sent to the proxy: the forwarded host and port, or the scheme's port. */
	private static void rewriteHost(Headers headers, Hop hop, boolean secure, boolean schemeForwarded) {
		String host = (hop.host != null && isHost(hop.host)) ? hop.host : null;
		int port = (hop.forwardedPort != null) ? port(hop.forwardedPort) : -1;
		if (host == null && port < 0 && !schemeForwarded) {
			return;
		}
		String current = (host != null) ? host : headers.get(HeaderName.HOST);
		if (current == null) {
			return;
		}
		String name = hostName(current);
		int given = hostPort(current);
		if (port < 0) {
			// a forwarded scheme without a port is the scheme's own port, not the connection's
			port = (host != null && given > 0) ? given : (schemeForwarded ? -1 : given);
		}
		int standard = secure ? 443 : 80;
		headers.set(HeaderName.HOST, (port > 0 && port != standard) ? name + ":" + port : name);
	}

	private static Hop fromXForwarded(ForwardedConfig config, Headers headers) {
		List<String> chain = values(headers.all(FOR));
		List<String> protos = values(headers.all(PROTO));
		List<String> hosts = values(headers.all(HOST));
		List<String> ports = values(headers.all(PORT));
		if (chain.isEmpty() && protos.isEmpty() && hosts.isEmpty() && ports.isEmpty()) {
			return null;
		}
		Hop hop = new Hop();
		int index = -1;
		for (int i = chain.size() - 1; i >= 0; i--) {
			Node node = node(chain.get(i));
			if (node == null) {
				break;
			}
			hop.address = node.address;
			hop.port = node.port;
			index = i;
			if (!config.trusts(node.address)) {
				break;
			}
		}
		hop.proto = at(protos, index, chain.size());
		hop.host = at(hosts, index, chain.size());
		hop.forwardedPort = at(ports, index, chain.size());
		return hop;
	}

	private static String at(List<String> values, int index, int chain) {
		if (values.isEmpty()) {
			return null;
		}
		return (values.size() == chain && index >= 0) ? values.get(index) : values.get(0);
	}

	private static Hop fromForwarded(ForwardedConfig config, List<String> fields) {
		List<String> elements = new ArrayList<>();
		for (String field : fields) {
			splitOutsideQuotes(field, ',', elements);
		}
		Hop chosen = null;
		for (int i = elements.size() - 1; i >= 0; i--) {
			Hop hop = element(elements.get(i));
			if (hop == null) {
				break;
			}
			if (chosen != null && hop.address == null) {
				// an obfuscated or unknown client: the walk ends at the last hop known
				break;
			}
			chosen = hop;
			if (hop.address == null || !config.trusts(hop.address)) {
				break;
			}
		}
		return chosen;
	}

	/** One element of {@code Forwarded}: {@code for}, {@code proto}, {@code host}; null if malformed. */
	private static Hop element(String element) {
		List<String> pairs = new ArrayList<>();
		splitOutsideQuotes(element, ';', pairs);
		Hop hop = new Hop();
		for (String pair : pairs) {
			int equals = pair.indexOf('=');
			if (equals <= 0) {
				return null;
			}
			String name = pair.substring(0, equals).trim().toLowerCase(Locale.ROOT);
			String value = unquote(pair.substring(equals + 1).trim());
			switch (name) {
				case "for" -> {
					Node node = node(value);
					if (node != null) {
						hop.address = node.address;
						hop.port = node.port;
					}
				}
				case "proto" -> hop.proto = value;
				case "host" -> hop.host = value;
				default -> {
					// "by" and extensions say nothing of the client
				}
			}
		}
		return hop;
	}

	/** A node: an IPv4 literal with an optional port, or a bracketed IPv6 one; null otherwise. */
	private static Node node(String text) {
		String value = text.trim();
		String address = value;
		int port = 0;
		if (value.startsWith("[")) {
			int close = value.indexOf(']');
			if (close < 0) {
				return null;
			}
			address = value.substring(1, close);
			if (close + 1 < value.length()) {
				if (value.charAt(close + 1) != ':') {
					return null;
				}
				port = port(value.substring(close + 2));
			}
		}
		else if (value.indexOf(':') >= 0 && value.indexOf(':') == value.lastIndexOf(':')) {
			int colon = value.indexOf(':');
			address = value.substring(0, colon);
			port = port(value.substring(colon + 1));
		}
		byte[] bytes = ForwardedConfig.literal(address);
		return (bytes != null) ? new Node(bytes, Math.max(port, 0)) : null;
	}

	private static List<String> values(List<String> fields) {
		if (fields.isEmpty()) {
			// the usual request, even from a proxy: nothing allocated
			return List.of();
		}
		List<String> values = new ArrayList<>();
		for (String field : fields) {
			for (String value : field.split(",")) {
				String trimmed = value.trim();
				if (!trimmed.isEmpty()) {
					values.add(trimmed);
				}
			}
		}
		return values;
	}

	private static void splitOutsideQuotes(String text, char separator, List<String> into) {
		boolean quoted = false;
		int start = 0;
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == '"') {
				quoted = !quoted;
			}
			else if (c == '\\' && quoted) {
				i++;
			}
			else if (c == separator && !quoted) {
				add(text.substring(start, i), into);
				start = i + 1;
			}
		}
		add(text.substring(start), into);
	}

	private static void add(String part, List<String> into) {
		String trimmed = part.trim();
		if (!trimmed.isEmpty()) {
			into.add(trimmed);
		}
	}

	private static String unquote(String value) {
		if (value.length() >= 2 && value.charAt(0) == '"' && value.charAt(value.length() - 1) == '"') {
			StringBuilder unquoted = new StringBuilder(value.length());
			for (int i = 1; i < value.length() - 1; i++) {
				char c = value.charAt(i);
				if (c == '\\' && i + 1 < value.length() - 1) {
					c = value.charAt(++i);
				}
				unquoted.append(c);
			}
			return unquoted.toString();
		}
		return value;
	}

	private static boolean isHost(String host) {
		if (host.isEmpty() || host.length() > 255) {
			return false;
		}
		for (int i = 0; i < host.length(); i++) {
			if (!Headers.isHostChar(host.charAt(i))) {
				return false;
			}
		}
		return true;
	}

	private static String hostName(String host) {
		if (host.startsWith("[")) {
			int close = host.indexOf(']');
			return (close > 0) ? host.substring(0, close + 1) : host;
		}
		int colon = host.lastIndexOf(':');
		return (colon >= 0) ? host.substring(0, colon) : host;
	}

	private static int hostPort(String host) {
		int close = host.startsWith("[") ? host.indexOf(']') : -1;
		int colon = host.lastIndexOf(':');
		return (colon > close) ? port(host.substring(colon + 1)) : -1;
	}

	private static int port(String text) {
		String value = text.trim();
		if (value.isEmpty() || value.length() > 5) {
			return -1;
		}
		int port = 0;
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c < '0' || c > '9') {
				return -1;
			}
			port = port * 10 + (c - '0');
		}
		return (port > 0 && port <= 65535) ? port : -1;
	}

	/** What one hop says: the client's address and port, and the scheme and host it saw. */
	private static final class Hop {

		byte[] address;

		int port;

		String proto;

		String host;

		String forwardedPort;

	}

	private record Node(byte[] address, int port) {
	}

}
