package dev.ariadne.websocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.ariadne.http.Headers;
import dev.ariadne.websocket.PerMessageDeflate.Options;

/**
 * The negotiation of permessage-deflate (RFC 7692 §5, §7.1): one row per rule, a client's
 * {@code Sec-WebSocket-Extensions} in, the server's answer out ({@code declined} when no offer
 * is accepted), with the agreement it makes.
 */
class PerMessageDeflateTest {

	private static final Options NO_TAKEOVER = new Options(false, false, 1);

	static Stream<Arguments> offers() {
		return Stream.of(
				row("a bare offer", "permessage-deflate", Options.DEFAULTS, "permessage-deflate"),
				row("the offer browsers make: client_max_window_bits without a value is not answered",
						"permessage-deflate; client_max_window_bits", Options.DEFAULTS, "permessage-deflate"),
				row("client_max_window_bits with a value is not answered either",
						"permessage-deflate; client_max_window_bits=10", Options.DEFAULTS, "permessage-deflate"),
				row("server_no_context_takeover offered is agreed (§7.1.1.1)",
						"permessage-deflate; server_no_context_takeover", Options.DEFAULTS,
						"permessage-deflate; server_no_context_takeover"),
				row("client_no_context_takeover offered is accepted and, by default, not answered",
						"permessage-deflate; client_no_context_takeover", Options.DEFAULTS, "permessage-deflate"),
				row("a server without context takeover asks for both (§7.1.1)", "permessage-deflate", NO_TAKEOVER,
						"permessage-deflate; server_no_context_takeover; client_no_context_takeover"),
				row("server_max_window_bits=15 is accepted and echoed",
						"permessage-deflate; server_max_window_bits=15", Options.DEFAULTS,
						"permessage-deflate; server_max_window_bits=15"),
				row("server_max_window_bits below 15 is declined: the JDK's Deflater cannot honour it",
						"permessage-deflate; server_max_window_bits=10", Options.DEFAULTS, "declined"),
				row("...and the next offer is taken (§5.1)",
						"permessage-deflate; server_max_window_bits=10, permessage-deflate; client_max_window_bits",
						Options.DEFAULTS, "permessage-deflate"),
				row("a quoted value, once unquoted, counts as a token (RFC 6455 §9.1)",
						"permessage-deflate; server_max_window_bits=\"15\"", Options.DEFAULTS,
						"permessage-deflate; server_max_window_bits=15"),
				row("other extensions are skipped", "x-webkit-deflate-frame, permessage-deflate", Options.DEFAULTS,
						"permessage-deflate"),
				row("names compare without case", "PerMessage-Deflate; Server_No_Context_Takeover", Options.DEFAULTS,
						"permessage-deflate; server_no_context_takeover"),
				row("an unknown parameter declines the offer (§7.1)", "permessage-deflate; foo", Options.DEFAULTS,
						"declined"),
				row("a parameter twice declines it", "permessage-deflate; server_no_context_takeover; "
						+ "server_no_context_takeover", Options.DEFAULTS, "declined"),
				row("client_max_window_bits twice declines it",
						"permessage-deflate; client_max_window_bits; client_max_window_bits=9", Options.DEFAULTS,
						"declined"),
				row("a value on server_no_context_takeover declines it",
						"permessage-deflate; server_no_context_takeover=1", Options.DEFAULTS, "declined"),
				row("a value on client_no_context_takeover declines it",
						"permessage-deflate; client_no_context_takeover=true", Options.DEFAULTS, "declined"),
				row("server_max_window_bits without a value declines it",
						"permessage-deflate; server_max_window_bits", Options.DEFAULTS, "declined"),
				row("a window of 7 bits declines it", "permessage-deflate; client_max_window_bits=7", Options.DEFAULTS,
						"declined"),
				row("a window of 16 bits declines it", "permessage-deflate; server_max_window_bits=16", Options.DEFAULTS,
						"declined"),
				row("a leading zero declines it", "permessage-deflate; server_max_window_bits=015", Options.DEFAULTS,
						"declined"),
				row("a window that is not a number declines it", "permessage-deflate; client_max_window_bits=x",
						Options.DEFAULTS, "declined"),
				row("a field that breaks the grammar offers nothing", "permessage-deflate; =15", Options.DEFAULTS,
						"declined"),
				row("an unterminated quote offers nothing",
						"permessage-deflate; server_max_window_bits=\"15", Options.DEFAULTS, "declined"),
				row("no offer", "", Options.DEFAULTS, "declined"));
	}

	private static Arguments row(String rule, String offered, Options options, String answer) {
		return argumentSet(rule, offered, options, answer);
	}

	@ParameterizedTest
	@MethodSource("offers")
	void answersEachOfferAsRfc7692Says(String offered, Options options, String answer) {
		Headers headers = new Headers();
		if (!offered.isEmpty()) {
			headers.add(Extension.HEADER, offered);
		}
		PerMessageDeflate agreement = PerMessageDeflate.negotiate(Extension.offered(headers), options);
		assertThat((agreement != null) ? agreement.toString() : "declined").isEqualTo(answer);
		if (agreement != null) {
			assertThat(agreement.serverNoContextTakeover()).isEqualTo(answer.contains("server_no_context_takeover"));
			assertThat(agreement.clientNoContextTakeover()).isEqualTo(answer.contains("client_no_context_takeover"));
		}
	}

	@Test
	void readsOffersSpreadOverFieldsWithTheirParametersInOrder() {
		Headers headers = new Headers().add(Extension.HEADER, "foo; a=1;b, , bar ;c=\"x\\y\"")
			.add(Extension.HEADER, "permessage-deflate;client_max_window_bits");
		assertThat(Extension.offered(headers)).extracting(Extension::toString)
			.containsExactly("foo; a=1; b", "bar; c=xy", "permessage-deflate; client_max_window_bits");
	}

	@Test
	void aQuotedValueThatIsNotATokenBreaksTheGrammar() {
		Headers headers = new Headers().add(Extension.HEADER, "bar; c=\"x y\", permessage-deflate");
		assertThat(Extension.offered(headers)).isEmpty();
	}

}
