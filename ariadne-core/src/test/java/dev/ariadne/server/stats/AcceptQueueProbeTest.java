package dev.ariadne.server.stats;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link AcceptQueueProbe} against fake {@code /proc} tables.
 */
class AcceptQueueProbeTest {

	private static final String HEADER = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt"
			+ "   uid  timeout inode\n";

	@TempDir
	Path proc;

	@Test
	void readsTheRxQueueOfTheListeningRowMatchingAddressAndPort() throws IOException {
		write("net/tcp", HEADER
				+ "   0: 0100007F:1F91 00000000:0000 0A 00000000:00000009 00:00000000 00000000  1000 0 1 1\n"
				+ "   1: 0100007F:1F90 00000000:0000 0A 00000000:00000003 00:00000000 00000000  1000 0 2 1\n"
				+ "   2: 0100007F:1F90 0100007F:D431 01 00000000:00000000 00:00000000 00000000  1000 0 3 1\n");
		assertThat(probe("127.0.0.1", 8080, 100).depth()).hasValue(3);
		assertThat(probe("127.0.0.1", 8081, 100).depth()).hasValue(9);
		assertThat(probe("127.0.0.1", 9999, 100).depth()).isEmpty();
	}

	@Test
	void findsAWildcardListenerInTcp6() throws IOException {
		write("net/tcp", HEADER);
		write("net/tcp6", HEADER + "   0: 00000000000000000000000000000000:1F90 00000000000000000000000000000000:0000 0A "
				+ "00000000:00000011 00:00000000 00000000  1000 0 4 1\n");
		assertThat(probe("0.0.0.0", 8080, 100).depth()).hasValue(17);
	}

	@Test
	void capacityIsTheSmallerOfBacklogAndSomaxconn() throws IOException {
		write("sys/net/core/somaxconn", "4096\n");
		assertThat(probe("127.0.0.1", 8080, 100).capacity()).hasValue(100);
		write("sys/net/core/somaxconn", "64\n");
		assertThat(probe("127.0.0.1", 8080, 100).capacity()).hasValue(64);
	}

	@Test
	void readsListenOverflowsOfTheNamespace() throws IOException {
		write("net/netstat", "TcpExt: SyncookiesSent ListenOverflows ListenDrops\nTcpExt: 0 42 43\n"
				+ "IpExt: InNoRoutes\nIpExt: 0\n");
		assertThat(probe("127.0.0.1", 8080, 100).overflows()).hasValue(42);
	}

	@Test
	void reportsNothingWhereTheTablesAreMissing() {
		AcceptQueueProbe probe = probe("127.0.0.1", 8080, 100);
		assertThat(probe.depth()).isEmpty();
		assertThat(probe.capacity()).isEmpty();
		assertThat(probe.overflows()).isEmpty();
	}

	private AcceptQueueProbe probe(String address, int port, int backlog) {
		try {
			return new AcceptQueueProbe(this.proc, new InetSocketAddress(InetAddress.getByName(address), port), backlog);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private void write(String file, String content) throws IOException {
		Path path = this.proc.resolve(file);
		Files.createDirectories(path.getParent());
		Files.writeString(path, content);
	}

}
