package dev.ariadne.server.stats;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * Reads the kernel's accept queue of one listening socket on Linux, on demand: never on the
 * request path, only when a figure is asked for (a metrics scrape).
 *
 * <ul>
 * <li>depth: the {@code rx_queue} column of the socket's row in state LISTEN ({@code 0A}) in
 * {@code /proc/net/tcp} or {@code /proc/net/tcp6}, matched by local address and port; for a
 * listening socket it is the number of connections the kernel completed that wait for
 * {@code accept()};</li>
 * <li>capacity: the smaller of the requested backlog and {@code /proc/sys/net/core/somaxconn};</li>
 * <li>overflows: {@code ListenOverflows} of {@code /proc/net/netstat}, for the whole network
 * namespace.</li>
 * </ul>
 * Where a file is missing or unreadable the figure is empty, never zero. Thread-safe.
 */
public final class AcceptQueueProbe {

	private static final String LISTEN = "0A";

	private final Path procNet;

	private final Path somaxconn;

	private final String port;

	private final List<String> addresses;

	private final int backlog;

	/**
	 * Creates a probe for a bound listening socket.
	 * @param bound the socket's local address
	 * @param backlog the backlog requested from {@code listen}
	 */
	public AcceptQueueProbe(InetSocketAddress bound, int backlog) {
		this(Path.of("/proc"), bound, backlog);
	}

	AcceptQueueProbe(Path proc, InetSocketAddress bound, int backlog) {
		this.procNet = proc.resolve("net");
		this.somaxconn = proc.resolve("sys/net/core/somaxconn");
		this.port = String.format(Locale.ROOT, "%04X", bound.getPort());
		this.addresses = procAddresses(bound.getAddress());
		this.backlog = backlog;
	}

	/** The spellings of an address in the proc tables: IPv4 in tcp, IPv6 (and mapped) in tcp6. */
	private static List<String> procAddresses(InetAddress address) {
		if (address.isAnyLocalAddress()) {
			return List.of("00000000", "00000000000000000000000000000000");
		}
		byte[] bytes = address.getAddress();
		if (address instanceof Inet4Address) {
			byte[] mapped = new byte[16];
			mapped[10] = (byte) 0xFF;
			mapped[11] = (byte) 0xFF;
			System.arraycopy(bytes, 0, mapped, 12, 4);
			return List.of(words(bytes), words(mapped));
		}
		return List.of(words(bytes));
	}

	/** Each 32-bit word as the kernel prints it: the network-order bytes of the word reversed. */
	private static String words(byte[] bytes) {
		StringBuilder hex = new StringBuilder(bytes.length * 2);
		for (int word = 0; word < bytes.length; word += 4) {
			for (int i = 3; i >= 0; i--) {
				hex.append(String.format(Locale.ROOT, "%02X", bytes[word + i] & 0xFF));
			}
		}
		return hex.toString();
	}

	/**
	 * Returns the connections waiting to be accepted now.
	 * @return the depth, or empty where it cannot be read
	 */
	public OptionalLong depth() {
		OptionalLong depth = depth(this.procNet.resolve("tcp"));
		return depth.isPresent() ? depth : depth(this.procNet.resolve("tcp6"));
	}

	private OptionalLong depth(Path table) {
		if (!Files.isReadable(table)) {
			return OptionalLong.empty();
		}
		try (BufferedReader reader = Files.newBufferedReader(table, StandardCharsets.US_ASCII)) {
			reader.readLine();
			String line;
			while ((line = reader.readLine()) != null) {
				String[] columns = line.trim().split("\\s+", 6);
				if (columns.length < 5) {
					continue;
				}
				if (!LISTEN.equals(columns[3])) {
					// listening sockets are listed before the others
					break;
				}
				int colon = columns[1].indexOf(':');
				if (colon > 0 && columns[1].substring(colon + 1).equals(this.port)
						&& this.addresses.contains(columns[1].substring(0, colon))) {
					String queues = columns[4];
					return OptionalLong.of(Long.parseLong(queues.substring(queues.indexOf(':') + 1), 16));
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			return OptionalLong.empty();
		}
		return OptionalLong.empty();
	}

	/**
	 * Returns the effective accept-queue length.
	 * @return the smaller of the requested backlog and {@code somaxconn}, or empty where
	 * {@code somaxconn} cannot be read
	 */
	public OptionalLong capacity() {
		try {
			// one read: sysctl files answer nothing to a read that does not start at offset 0,
			// which is what Files.readString does after probing with a single byte
			String line;
			try (BufferedReader reader = Files.newBufferedReader(this.somaxconn, StandardCharsets.US_ASCII)) {
				line = reader.readLine();
			}
			long max = Long.parseLong(line.trim());
			return OptionalLong.of(Math.min(this.backlog, max));
		}
		catch (IOException | RuntimeException ex) {
			return OptionalLong.empty();
		}
	}

	/**
	 * Returns the namespace's count of connections dropped on a full accept queue.
	 * @return {@code ListenOverflows}, or empty where it cannot be read
	 */
	public OptionalLong overflows() {
		return listenOverflows(this.procNet);
	}

	/**
	 * Returns the count of connections the kernel dropped on a full accept queue, for the
	 * whole network namespace of this process; it needs no listening socket.
	 * @return {@code ListenOverflows}, or empty where it cannot be read
	 */
	public static OptionalLong listenOverflows() {
		return listenOverflows(Path.of("/proc/net"));
	}

	private static OptionalLong listenOverflows(Path procNet) {
		try {
			List<String> lines = Files.readAllLines(procNet.resolve("netstat"), StandardCharsets.US_ASCII);
			for (int i = 0; i + 1 < lines.size(); i++) {
				String[] names = lines.get(i).split("\\s+");
				String[] values = lines.get(i + 1).split("\\s+");
				if (names.length > 0 && names[0].equals("TcpExt:") && values[0].equals("TcpExt:")) {
					for (int j = 1; j < names.length && j < values.length; j++) {
						if (names[j].equals("ListenOverflows")) {
							return OptionalLong.of(Long.parseLong(values[j]));
						}
					}
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			return OptionalLong.empty();
		}
		return OptionalLong.empty();
	}

}
