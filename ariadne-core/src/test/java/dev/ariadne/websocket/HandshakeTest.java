package dev.ariadne.websocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.ariadne.http.Headers;
import dev.ariadne.http.Method;
import dev.ariadne.http.RequestHead;
import dev.ariadne.http.RequestHead.TargetForm;
import dev.ariadne.http.Version;

/**
 * The server's side of the opening handshake (RFC 6455 §4.2): RFC 6455's own example, then one
 * row per requirement of §4.2.1, with the answer a refusal gets.
 */
class HandshakeTest {

	private static final String KEY = "dGhlIHNhbXBsZSBub25jZQ==";

	@Test
	void computesTheAcceptOfRfc6455sExample() {
		// §1.3: the key "dGhlIHNhbXBsZSBub25jZQ==" is answered "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
		assertThat(Handshake.accept(KEY)).isEqualTo("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
	}

	@Test
	void acceptsRfc6455sExampleRequestAndAnswersWithItsResponse() throws Exception {
		Headers request = valid().add("Origin", "http://example.com")
			.add(Handshake.SEC_WEBSOCKET_PROTOCOL, "chat, superchat");
		RequestHead head = head(Method.GET, Version.HTTP_1_1, request);
		assertThat(Handshake.isUpgrade(head)).isTrue();
		String key = Handshake.check(head);
		String protocol = Handshake.selectSubprotocol(request, Set.of("chat"));
		Headers response = Handshake.responseHeaders(key, protocol, null);
		assertThat(response.toString()).contains("Upgrade: websocket", "Connection: Upgrade",
				"Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", "Sec-WebSocket-Protocol: chat");
		assertThat(response.size()).isEqualTo(4);
	}

	static Stream<Arguments> refusals() {
		return Stream.of(
				refused("a method other than GET", head(Method.POST, Version.HTTP_1_1, valid()), 405, "Allow: GET"),
				refused("HTTP/1.0", head(Method.GET, Version.HTTP_1_0, valid()), 400, null),
				refused("no Upgrade", head(Method.GET, Version.HTTP_1_1, without("Upgrade")), 400, null),
				refused("Upgrade naming another protocol",
						head(Method.GET, Version.HTTP_1_1, with("Upgrade", "h2c")), 400, null),
				refused("no Connection", head(Method.GET, Version.HTTP_1_1, without("Connection")), 400, null),
				refused("Connection without upgrade",
						head(Method.GET, Version.HTTP_1_1, with("Connection", "keep-alive")), 400, null),
				refused("no version", head(Method.GET, Version.HTTP_1_1, without(Handshake.SEC_WEBSOCKET_VERSION)), 426,
						"Sec-WebSocket-Version: 13"),
				refused("version 8", head(Method.GET, Version.HTTP_1_1, with(Handshake.SEC_WEBSOCKET_VERSION, "8")), 426,
						"Sec-WebSocket-Version: 13"),
				refused("two versions",
						head(Method.GET, Version.HTTP_1_1, valid().add(Handshake.SEC_WEBSOCKET_VERSION, "13")), 426,
						"Sec-WebSocket-Version: 13"),
				refused("no key", head(Method.GET, Version.HTTP_1_1, without(Handshake.SEC_WEBSOCKET_KEY)), 400, null),
				refused("a key of 15 bytes",
						head(Method.GET, Version.HTTP_1_1, with(Handshake.SEC_WEBSOCKET_KEY, "AAAAAAAAAAAAAAAAAAAA")), 400,
						null),
				refused("a key of 17 bytes", head(Method.GET, Version.HTTP_1_1,
						with(Handshake.SEC_WEBSOCKET_KEY, "AAAAAAAAAAAAAAAAAAAAAAA=")), 400, null),
				refused("a key not base64", head(Method.GET, Version.HTTP_1_1,
						with(Handshake.SEC_WEBSOCKET_KEY, "dGhlIHNhbXBsZSBub25jZQ!!")), 400, null),
				refused("two keys", head(Method.GET, Version.HTTP_1_1, valid().add(Handshake.SEC_WEBSOCKET_KEY, KEY)),
						400, null));
	}

	private static Arguments refused(String rule, RequestHead head, int status, String header) {
		return argumentSet(rule, head, status, header);
	}

	@ParameterizedTest
	@MethodSource("refusals")
	void refusesARequestThatBreaksSection421(RequestHead head, int status, String header) {
		assertThatExceptionOfType(HandshakeException.class).isThrownBy(() -> Handshake.check(head))
			.satisfies((ex) -> {
				assertThat(ex.status().code()).isEqualTo(status);
				assertThat(ex.reason()).isNotEmpty();
				if (header != null) {
					assertThat(ex.headers().toString()).contains(header);
				}
			});
	}

	@Test
	void readsTheTokensOfUpgradeAndConnectionWhateverTheirCaseAndCompany() throws Exception {
		Headers headers = valid().set("Upgrade", "WebSocket").set("Connection", "keep-alive, UPGRADE");
		assertThat(Handshake.check(head(Method.GET, Version.HTTP_1_1, headers))).isEqualTo(KEY);
	}

	@Test
	void tellsAnUpgradeRequestFromOthers() {
		assertThat(Handshake.isUpgrade(head(Method.GET, Version.HTTP_1_1, without(Handshake.SEC_WEBSOCKET_KEY))))
			.as("a bad upgrade request is still one, for check to refuse").isTrue();
		assertThat(Handshake.isUpgrade(head(Method.POST, Version.HTTP_1_1, valid()))).isFalse();
		assertThat(Handshake.isUpgrade(head(Method.GET, Version.HTTP_1_1, without("Upgrade")))).isFalse();
	}

	@Test
	void choosesTheFirstSubprotocolTheClientOffersThatTheServerSupports() {
		Headers headers = new Headers().add(Handshake.SEC_WEBSOCKET_PROTOCOL, " v10.stomp , v11.stomp")
			.add(Handshake.SEC_WEBSOCKET_PROTOCOL, "v12.stomp");
		assertThat(Handshake.subprotocols(headers)).containsExactly("v10.stomp", "v11.stomp", "v12.stomp");
		assertThat(Handshake.selectSubprotocol(headers, List.of("v12.stomp", "v11.stomp"))).isEqualTo("v11.stomp");
		assertThat(Handshake.selectSubprotocol(headers, List.of("V12.STOMP"))).as("compared exactly").isNull();
		assertThat(Handshake.selectSubprotocol(new Headers(), List.of("chat"))).isNull();
	}

	@Test
	void answersWithTheExtensionsAgreed() {
		PerMessageDeflate deflate = PerMessageDeflate.negotiate(
				Extension.offered(valid().add(Extension.HEADER, "permessage-deflate; client_max_window_bits")),
				PerMessageDeflate.Options.DEFAULTS);
		Headers response = Handshake.responseHeaders(KEY, null, deflate.toString());
		assertThat(response.get(Extension.HEADER)).isEqualTo("permessage-deflate");
		assertThat(response.contains(Handshake.SEC_WEBSOCKET_PROTOCOL)).isFalse();
	}

	private static Headers valid() {
		return new Headers().add("Host", "server.example.com")
			.add("Upgrade", "websocket")
			.add("Connection", "Upgrade")
			.add(Handshake.SEC_WEBSOCKET_KEY, KEY)
			.add(Handshake.SEC_WEBSOCKET_VERSION, "13");
	}

	private static Headers without(String name) {
		Headers headers = valid();
		headers.remove(name);
		return headers;
	}

	private static Headers with(String name, String value) {
		return valid().set(name, value);
	}

	private static RequestHead head(Method method, Version version, Headers headers) {
		try {
			return RequestHead.of(method, "/chat", TargetForm.ORIGIN, version, headers, -1, false);
		}
		catch (dev.ariadne.http.HttpParseException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
