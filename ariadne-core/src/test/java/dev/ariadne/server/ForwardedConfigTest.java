package dev.ariadne.server;

import java.net.InetAddress;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The trusted proxies: address literals parsed without a name service, blocks matched by their
 * prefix, and a value that is neither refused naming the property.
 */
class ForwardedConfigTest {

	@ParameterizedTest
	@ValueSource(strings = { "10.1.2.3", "0.0.0.0", "255.255.255.255", "::1", "::", "2001:db8::7", "fe80::1:2",
			"2001:0db8:0000:0000:0000:ff00:0042:8329", "64:ff9b::192.0.2.33", "1::" })
	void literalsParseAsTheJdkParsesThem(String literal) throws Exception {
		assertThat(ForwardedConfig.literal(literal)).isEqualTo(InetAddress.getByName(literal).getAddress());
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "10.1.2", "10.1.2.3.4", "256.1.1.1", "1.2.3.-4", "localhost", "example.com",
			"1::2::3", ":::", "12345::", "g::1", "1:2:3:4:5:6:7:8:9", "::1.2.3", "[::1]", "10.0.0.1 " })
	void anythingElseIsNotALiteral(String text) {
		assertThat(ForwardedConfig.literal(text)).isNull();
	}

	@ParameterizedTest
	@CsvSource({ "10.0.0.0/8, 10.255.1.2, true", "10.0.0.0/8, 11.0.0.1, false", "172.16.0.0/12, 172.31.255.255, true",
			"172.16.0.0/12, 172.32.0.1, false", "192.168.1.7, 192.168.1.7, true", "192.168.1.7, 192.168.1.8, false",
			"fc00::/7, fd12:3456::1, true", "fc00::/7, fe00::1, false", "::1/128, ::1, true", "0.0.0.0/0, 8.8.8.8, true" })
	void aBlockTrustsTheAddressesItsPrefixCovers(String block, String address, boolean trusted) throws Exception {
		ForwardedConfig config = new ForwardedConfig(true, List.of(block));
		assertThat(config.trusts(InetAddress.getByName(address))).isEqualTo(trusted);
	}

	@Test
	void theDefaultTrustsTheInternalRangesAndNoPublicAddress() throws Exception {
		ForwardedConfig config = ForwardedConfig.DISABLED;
		assertThat(config.enabled()).isFalse();
		for (String internal : List.of("127.0.0.1", "10.2.3.4", "172.20.0.1", "192.168.0.10", "100.64.0.1",
				"169.254.1.1", "::1", "fd00::1", "fe80::1")) {
			assertThat(config.trusts(InetAddress.getByName(internal))).as(internal).isTrue();
		}
		for (String external : List.of("203.0.113.7", "8.8.8.8", "2001:db8::1", "172.15.0.1")) {
			assertThat(config.trusts(InetAddress.getByName(external))).as(external).isFalse();
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/x", "proxy.internal", "10.0.0.0/8/8" })
	void aValueThatIsNeitherAnAddressNorABlockIsRefusedNamingTheProperty(String block) {
		assertThatIllegalArgumentException().isThrownBy(() -> new ForwardedConfig(true, List.of(block)))
			.withMessage("ariadne.server.forwarded.trusted-proxies must be an IPv4 or IPv6 address or a CIDR block "
					+ "such as 10.0.0.0/8 or fc00::/7, but was " + block);
	}

	@Test
	void anIpv4MappedLiteralKeepsItsSixteenBytes() {
		// the JDK gives such a literal as an IPv4 address; a forwarded header names it as it is
		assertThat(ForwardedConfig.literal("::ffff:192.0.2.1")).containsExactly(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1,
				(byte) 192, 0, 2, 1);
	}

}
