package dev.ariadne.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.ariadne.http.RequestHead.TargetForm;

/**
 * {@link RequestHead#of}, the heads of codecs without a request line: the request line's target
 * rules in the form given, and the framing facts passed in.
 */
class RequestHeadTest {

	static Stream<Arguments> validTargets() {
		return Stream.of(argumentSet("origin-form", Method.GET, "/a%20b?q=1", TargetForm.ORIGIN, "/a%20b?q=1"),
				argumentSet("asterisk-form with OPTIONS", Method.OPTIONS, "*", TargetForm.ASTERISK, "*"),
				argumentSet("authority-form with CONNECT", Method.CONNECT, "a.example:443", TargetForm.AUTHORITY,
						"a.example:443"),
				argumentSet("origin-form with CONNECT, as extended CONNECT has it (RFC 8441)", Method.CONNECT, "/chat",
						TargetForm.ORIGIN, "/chat"),
				argumentSet("absolute-form: the path extracted as from a request line", Method.GET,
						"http://a.example?x=1", TargetForm.ABSOLUTE, "/?x=1"));
	}

	@ParameterizedTest
	@MethodSource("validTargets")
	void makesAHeadWithTheTargetItsFormAndItsPath(Method method, String target, TargetForm form, String path)
			throws HttpParseException {
		RequestHead head = RequestHead.of(method, target, form, Version.HTTP_2, new Headers(), -1, false);
		assertThat(head.target()).isEqualTo(target);
		assertThat(head.targetForm()).isEqualTo(form);
		assertThat(head.pathAndQuery()).isEqualTo(path);
		assertThat(head.version()).isEqualTo(Version.HTTP_2);
	}

	static Stream<Arguments> invalidTargets() {
		return Stream.of(argumentSet("empty", Method.GET, "", TargetForm.ORIGIN, "Empty request target"),
				argumentSet("origin-form without /", Method.GET, "a", TargetForm.ORIGIN, "must start with /"),
				argumentSet("a space", Method.GET, "/a b", TargetForm.ORIGIN, "Invalid character"),
				argumentSet("a fragment", Method.GET, "/a#b", TargetForm.ORIGIN, "Invalid character"),
				argumentSet("a control character", Method.GET, "/a\u0001", TargetForm.ORIGIN, "Invalid character"),
				argumentSet("non-ASCII", Method.GET, "/caf\u00e9", TargetForm.ORIGIN, "Invalid character"),
				argumentSet("asterisk-form with GET", Method.GET, "*", TargetForm.ASTERISK, "only with OPTIONS"),
				argumentSet("asterisk-form that is not *", Method.OPTIONS, "*/", TargetForm.ASTERISK, "must be *"),
				argumentSet("authority-form without CONNECT", Method.GET, "a:443", TargetForm.AUTHORITY,
						"only with CONNECT"),
				argumentSet("authority-form without a port", Method.CONNECT, "a", TargetForm.AUTHORITY, "host:port"),
				argumentSet("absolute-form with userinfo", Method.GET, "http://u@a/", TargetForm.ABSOLUTE, "userinfo"));
	}

	@ParameterizedTest
	@MethodSource("invalidTargets")
	void refusesATargetARequestLineWouldRefuse(Method method, String target, TargetForm form, String reason) {
		assertThatExceptionOfType(HttpParseException.class)
			.isThrownBy(() -> RequestHead.of(method, target, form, Version.HTTP_2, new Headers(), -1, false))
			.satisfies((ex) -> assertThat(ex.status()).isEqualTo(Status.BAD_REQUEST_400))
			.withMessageContaining(reason);
	}

	@Test
	void recordsTheBodyItIsTold() throws HttpParseException {
		RequestHead declared = RequestHead.of(Method.POST, "/", TargetForm.ORIGIN, Version.HTTP_2, new Headers(), 5, true);
		assertThat(declared.contentLength()).isEqualTo(5);
		assertThat(declared.chunked()).isFalse();
		assertThat(declared.hasBody()).isTrue();
		RequestHead undeclared = RequestHead.of(Method.POST, "/", TargetForm.ORIGIN, Version.HTTP_2, new Headers(), -1,
				true);
		assertThat(undeclared.contentLength()).isEqualTo(-1);
		assertThat(undeclared.chunked()).isTrue();
		assertThat(undeclared.hasBody()).isTrue();
		RequestHead none = RequestHead.of(Method.GET, "/", TargetForm.ORIGIN, Version.HTTP_2, new Headers(), -1, false);
		assertThat(none.hasBody()).isFalse();
		assertThatIllegalArgumentException().isThrownBy(
				() -> RequestHead.of(Method.POST, "/", TargetForm.ORIGIN, Version.HTTP_2, new Headers(), 5, false));
		assertThatIllegalArgumentException().isThrownBy(
				() -> RequestHead.of(Method.POST, "/", TargetForm.ORIGIN, Version.HTTP_2, new Headers(), -2, true));
	}

	@Test
	void expectsContinueFromTheExpectFieldExceptInHttp10() throws HttpParseException {
		Headers expect = new Headers().add("expect", "100-Continue");
		assertThat(RequestHead.of(Method.POST, "/", TargetForm.ORIGIN, Version.HTTP_2, expect, 1, true).expectContinue())
			.isTrue();
		assertThat(RequestHead.of(Method.POST, "/", TargetForm.ORIGIN, Version.HTTP_1_0, expect, 1, true)
			.expectContinue()).isFalse();
		assertThat(RequestHead.of(Method.POST, "/", TargetForm.ORIGIN, Version.HTTP_2, new Headers(), 1, true)
			.expectContinue()).isFalse();
	}

	@Test
	void keepsAnHttp2ConnectionAliveAsHttp11AndNotHttp10() throws HttpParseException {
		assertThat(head(Version.HTTP_2).keepAlive()).isTrue();
		assertThat(head(Version.HTTP_1_1).keepAlive()).isTrue();
		assertThat(head(Version.HTTP_1_0).keepAlive()).isFalse();
		assertThat(Version.HTTP_2.text()).isEqualTo("HTTP/2.0");
	}

	@Test
	void takesTrailersFromAnotherCodec() throws HttpParseException {
		RequestHead head = head(Version.HTTP_2);
		assertThat(head.trailers().isEmpty()).isTrue();
		Headers trailers = new Headers().add("x-sum", "7");
		head.trailers(trailers);
		assertThat(head.trailers()).isSameAs(trailers);
	}

	private static RequestHead head(Version version) throws HttpParseException {
		return RequestHead.of(Method.GET, "/", TargetForm.ORIGIN, version, new Headers(), -1, false);
	}

}
