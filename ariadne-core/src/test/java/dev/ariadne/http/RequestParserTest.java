package dev.ariadne.http;

import static dev.ariadne.http.Wire.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The request grammar of RFC 9112 and the framing rules of RFC 9110, one table row per rule:
 * raw request bytes in, the events the parser reports (see {@link RecordingSink}) or the status
 * of the {@link HttpParseException} it throws out. Every row is also fed split at every index and
 * one byte at a time, which must not change the outcome. Limits are in
 * {@link RequestParserLimitsTest}.
 */
class RequestParserTest {

	static Stream<Arguments> validRequests() {
		return Stream.of(
				valid("origin-form with a query (RFC 9112 §3.2.1)",
						"GET /where?q=now HTTP/1.1\r\nHost: a\r\n\r\n",
						"head GET /where?q=now HTTP/1.1 [Host: a]", "complete"),
				valid("origin-form with percent-escapes and sub-delims (RFC 3986 §3.3)",
						"GET /a%20b;p=1/c,d!$&'()*+=:@~-._/?x=/?y HTTP/1.1\r\nHost: a\r\n\r\n",
						"head GET /a%20b;p=1/c,d!$&'()*+=:@~-._/?x=/?y HTTP/1.1 [Host: a]", "complete"),
				valid("absolute-form http: the path is extracted (RFC 9112 §3.2.2)",
						"GET http://a.example/p/q?x=1 HTTP/1.1\r\nHost: a.example\r\n\r\n",
						"head GET http://a.example/p/q?x=1 HTTP/1.1 [Host: a.example] form=ABSOLUTE path=/p/q?x=1",
						"complete"),
				valid("absolute-form https with a port; the scheme is case-insensitive (RFC 3986 §3.1)",
						"GET HTTPS://a.example:8443/p HTTP/1.1\r\nHost: a.example:8443\r\n\r\n",
						"head GET HTTPS://a.example:8443/p HTTP/1.1 [Host: a.example:8443] form=ABSOLUTE path=/p",
						"complete"),
				valid("absolute-form with an empty path: the path is / (RFC 9112 §3.2.1)",
						"GET http://a.example HTTP/1.1\r\nHost: a.example\r\n\r\n",
						"head GET http://a.example HTTP/1.1 [Host: a.example] form=ABSOLUTE path=/", "complete"),
				valid("absolute-form with a query and an empty path: the path is / (RFC 9112 §3.2.1)",
						"GET http://a.example?x=1 HTTP/1.1\r\nHost: a.example\r\n\r\n",
						"head GET http://a.example?x=1 HTTP/1.1 [Host: a.example] form=ABSOLUTE path=/?x=1",
						"complete"),
				valid("a higher 1.x minor version is processed as HTTP/1.1 (RFC 9110 §6.2)",
						"GET / HTTP/1.2\r\nHost: a\r\n\r\n", "head GET / HTTP/1.1 [Host: a]", "complete"),
				valid("asterisk-form with OPTIONS (RFC 9112 §3.2.4)",
						"OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n",
						"head OPTIONS * HTTP/1.1 [Host: a] form=ASTERISK", "complete"),
				valid("authority-form with CONNECT (RFC 9112 §3.2.3)",
						"CONNECT a.example:443 HTTP/1.1\r\nHost: a.example:443\r\n\r\n",
						"head CONNECT a.example:443 HTTP/1.1 [Host: a.example:443] form=AUTHORITY", "complete"),
				valid("an extension method is any token (RFC 9110 §9.1)",
						"PROPFIND /dav HTTP/1.1\r\nHost: a\r\n\r\n",
						"head PROPFIND /dav HTTP/1.1 [Host: a]", "complete"),
				valid("field names are case-insensitive; unknown names keep their spelling (RFC 9110 §5.1)",
						"GET / HTTP/1.1\r\nhOsT: a\r\ncontent-LENGTH: 0\r\nx-CUSTOM: 1\r\n\r\n",
						"head GET / HTTP/1.1 [Host: a, Content-Length: 0, x-CUSTOM: 1] length=0", "complete"),
				valid("repeated fields are kept, in order (RFC 9110 §5.3)",
						"GET / HTTP/1.1\r\nHost: a\r\nAccept: text/html\r\nX-Trace: 1\r\naccept: */*\r\n\r\n",
						"head GET / HTTP/1.1 [Host: a, Accept: text/html, X-Trace: 1, Accept: */*]", "complete"),
				valid("OWS around a field value is not part of it (RFC 9112 §5.1)",
						"GET / HTTP/1.1\r\nHost:a\r\nX-A: \t one two \t\r\nX-Empty:\r\nX-Blank:   \r\n\r\n",
						"head GET / HTTP/1.1 [Host: a, X-A: one two, X-Empty: , X-Blank: ]", "complete"),
				valid("HTAB and obs-text are allowed inside a value (RFC 9110 §5.5)",
						"GET / HTTP/1.1\r\nHost: a\r\nX-A: a\tb caf\u00e9\r\n\r\n",
						"head GET / HTTP/1.1 [Host: a, X-A: a\\tb caf\\xe9]", "complete"),
				valid("empty lines before the request line are ignored (RFC 9112 §2.2)",
						"\r\n\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n",
						"head GET / HTTP/1.1 [Host: a]", "complete"),
				valid("as many empty lines before the request line as tolerated (RFC 9112 §2.2)",
						"\r\n".repeat(RequestParser.MAX_LEADING_EMPTY_LINES) + "GET / HTTP/1.1\r\nHost: a\r\n\r\n",
						"head GET / HTTP/1.1 [Host: a]", "complete"),
				valid("a bare LF ends a line (RFC 9112 §2.2)",
						"GET / HTTP/1.1\nHost: a\nX-A: b\n\n",
						"head GET / HTTP/1.1 [Host: a, X-A: b]", "complete"),
				valid("a Content-Length body is read as is, CRLF included (RFC 9112 §6.2)",
						"POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nab\r\nc",
						"head POST /p HTTP/1.1 [Host: a, Content-Length: 5] length=5", "content 'ab\\r\\nc'",
						"complete"),
				valid("Content-Length: 0 means no body (RFC 9112 §6.3)",
						"POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n",
						"head POST /p HTTP/1.1 [Host: a, Content-Length: 0] length=0", "complete"),
				valid("Content-Length with leading zeros is 1*DIGIT (RFC 9110 §8.6)",
						"POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 003\r\n\r\nabc",
						"head POST /p HTTP/1.1 [Host: a, Content-Length: 003] length=3", "content 'abc'",
						"complete"),
				valid("identical repeated Content-Length fields are one length (RFC 9110 §8.6)",
						"POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc",
						"head POST /p HTTP/1.1 [Host: a, Content-Length: 3, Content-Length: 3] length=3",
						"content 'abc'", "complete"),
				valid("an identical Content-Length list is one length (RFC 9110 §8.6)",
						"POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 3 , 3\r\n\r\nabc",
						"head POST /p HTTP/1.1 [Host: a, Content-Length: 3 , 3] length=3", "content 'abc'",
						"complete"),
				valid("HTTP/1.0 with a Content-Length body (RFC 9112 §6.3)",
						"POST /p HTTP/1.0\r\nContent-Length: 2\r\n\r\nhi",
						"head POST /p HTTP/1.0 [Content-Length: 2] length=2 close", "content 'hi'", "complete"),
				valid("chunked body with extensions and trailers (RFC 9112 §7.1)",
						"POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
								+ "3;name=value\r\nabc\r\n"
								+ "A; q=\"x;y\" ;flag\r\n0123456789\r\n"
								+ "0;last\r\nX-Checksum: 42\r\nx-more: b\r\n\r\n",
						"head POST /p HTTP/1.1 [Host: a, Transfer-Encoding: chunked] chunked",
						"content 'abc0123456789'", "complete [X-Checksum: 42, x-more: b]"),
				valid("chunked: coding name and hex digits in any case, leading zeros, CRLF inside data (RFC 9112 §7.1)",
						"POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: CHUNKED\r\n\r\n"
								+ "00a\r\n0123\r\n5678\r\n0\r\n\r\n",
						"head POST /p HTTP/1.1 [Host: a, Transfer-Encoding: CHUNKED] chunked",
						"content '0123\\r\\n5678'", "complete"),
				valid("chunk size followed directly by an extension (RFC 9112 §7.1.1)",
						"POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
								+ "1a;ext=v\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nX-T: 1\r\n\r\n",
						"head POST /p HTTP/1.1 [Host: a, Transfer-Encoding: chunked] chunked",
						"content 'abcdefghijklmnopqrstuvwxyz'", "complete [X-T: 1]"),
				valid("a head with bare LF line ends, chunked framing with CRLF (RFC 9112 §2.2, §7.1)",
						"POST /p HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n3\r\nabc\r\n0\r\n\r\n",
						"head POST /p HTTP/1.1 [Host: a, Transfer-Encoding: chunked] chunked", "content 'abc'",
						"complete"),
				valid("chunked with only the last chunk is an empty body (RFC 9112 §7.1)",
						"POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
						"head POST /p HTTP/1.1 [Host: a, Transfer-Encoding: chunked] chunked", "complete"),
				valid("Expect: 100-continue is flagged, in any case (RFC 9110 §10.1.1)",
						"POST /p HTTP/1.1\r\nHost: a\r\nExpect: 100-Continue\r\nContent-Length: 3\r\n\r\nabc",
						"head POST /p HTTP/1.1 [Host: a, Expect: 100-Continue, Content-Length: 3] length=3 "
								+ "expect-continue",
						"content 'abc'", "complete"),
				valid("Expect: 100-continue is ignored in an HTTP/1.0 request (RFC 9110 §10.1.1)",
						"POST /p HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\nabc",
						"head POST /p HTTP/1.0 [Expect: 100-continue, Content-Length: 3] length=3 close",
						"content 'abc'", "complete"),
				valid("HTTP/1.1 Connection: close ends the connection (RFC 9112 §9.6)",
						"GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
						"head GET / HTTP/1.1 [Host: a, Connection: close] close", "complete"),
				valid("close wins over keep-alive, in any case (RFC 9112 §9.3)",
						"GET / HTTP/1.1\r\nHost: a\r\nConnection: keep-alive, Close\r\n\r\n",
						"head GET / HTTP/1.1 [Host: a, Connection: keep-alive, Close] close", "complete"),
				valid("HTTP/1.0 closes by default and needs no Host (RFC 9112 §9.3)",
						"GET / HTTP/1.0\r\n\r\n",
						"head GET / HTTP/1.0 [] close", "complete"),
				valid("HTTP/1.0 persists with Connection: keep-alive (RFC 9112 §C.2.2)",
						"GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n",
						"head GET / HTTP/1.0 [Connection: Keep-Alive]", "complete"),
				valid("HTTP/1.0 keep-alive may be one of several tokens in repeated fields (RFC 9110 §7.6.1)",
						"GET / HTTP/1.0\r\nConnection: Upgrade\r\nConnection: x,keep-alive\r\n\r\n",
						"head GET / HTTP/1.0 [Connection: Upgrade, Connection: x,keep-alive]", "complete"),
				valid("pipelined requests are parsed in order (RFC 9112 §9.3.2)",
						"GET /1 HTTP/1.1\r\nHost: a\r\n\r\n"
								+ "POST /2 HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nhi"
								+ "GET /3 HTTP/1.0\r\n\r\n",
						"head GET /1 HTTP/1.1 [Host: a]", "complete",
						"head POST /2 HTTP/1.1 [Host: a, Content-Length: 2] length=2", "content 'hi'", "complete",
						"head GET /3 HTTP/1.0 [] close", "complete"),
				valid("an extra CRLF after a body, before the next request, is ignored (RFC 9112 §2.2)",
						"POST /1 HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nhi\r\n"
								+ "GET /2 HTTP/1.1\r\nHost: a\r\n\r\n",
						"head POST /1 HTTP/1.1 [Host: a, Content-Length: 2] length=2", "content 'hi'", "complete",
						"head GET /2 HTTP/1.1 [Host: a]", "complete"));
	}

	static Stream<Arguments> invalidRequests() {
		return Stream.of(
				// request line (RFC 9112 §3)
				invalid("two spaces after the method", "GET  / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
				invalid("two spaces before the version", "GET /  HTTP/1.1\r\nHost: a\r\n\r\n", 400),
				invalid("tabs as separators", "GET\t/\tHTTP/1.1\r\nHost: a\r\n\r\n", 400),
				invalid("whitespace before the method", " GET / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
				invalid("whitespace after the version", "GET / HTTP/1.1 \r\nHost: a\r\n\r\n", 400),
				invalid("no method", "/ HTTP/1.1\r\nHost: a\r\n\r\n", 400),
				invalid("empty version", "GET / \r\nHost: a\r\n\r\n", 400),
				invalid("HTTP/0.9 request line without a version", "GET /\r\n\r\n", 400),
				invalid("lowercase protocol name (RFC 9112 §2.3)", "GET / http/1.1\r\nHost: a\r\n\r\n", 400),
				invalid("version without a minor digit", "GET / HTTP/1\r\nHost: a\r\n\r\n", 400),
				invalid("version with two-digit major", "GET / HTTP/11.1\r\nHost: a\r\n\r\n", 400),
				invalid("bare CR in the request line (RFC 9112 §2.2)", "GET /a\rb HTTP/1.1\r\nHost: a\r\n\r\n", 400),
				invalid("bare CR before the CRLF of the request line", "GET / HTTP/1.1\r\r\nHost: a\r\n\r\n", 400),
				invalid("more empty lines before the request line than tolerated",
						"\r\n".repeat(RequestParser.MAX_LEADING_EMPTY_LINES + 1) + "GET / HTTP/1.1\r\nHost: a\r\n\r\n",
						400),
				invalid("HTTP/2.0 (RFC 9110 §15.6.6)", "GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505),
				invalid("absolute-form with userinfo (RFC 9110 §4.2.4)",
						"GET http://user@a.example/ HTTP/1.1\r\nHost: a.example\r\n\r\n", 400),
				invalid("HTTP/0.9 written as a version", "GET / HTTP/0.9\r\nHost: a\r\n\r\n", 505),
				// request target (RFC 9112 §3.2, RFC 3986 §2)
				invalid("'<' in the target", "GET /a<b HTTP/1.1\r\nHost: a\r\n\r\n", 400),
				invalid("'\"' in the target", "GET /a\"b HTTP/1.1\r\nHost: a\r\n\r\n", 400),
				invalid("'{' in the target", "GET /a{b} HTTP/1.1\r\nHost: a\r\n\r\n", 400),
				invalid("'#' fragment in the target", "GET /a#b HTTP/1.1\r\nHost: a\r\n\r\n", 400),
				invalid("'\\' in the target", "GET /a\\b HTTP/1.1\r\nHost: a\r\n\r\n", 400),
				invalid("space inside the target", "GET /a b HTTP/1.1\r\nHost: a\r\n\r\n", 400),
				invalid("non-ASCII byte in the target", "GET /caf\u00e9 HTTP/1.1\r\nHost: a\r\n\r\n", 400),
				invalid("control character in the target", "GET /a\u0001b HTTP/1.1\r\nHost: a\r\n\r\n", 400),
				invalid("DEL in the target", "GET /a\u007fb HTTP/1.1\r\nHost: a\r\n\r\n", 400),
				invalid("relative path target", "GET a/b HTTP/1.1\r\nHost: a\r\n\r\n", 400),
				invalid("asterisk-form with GET (RFC 9112 §3.2.4)", "GET * HTTP/1.1\r\nHost: a\r\n\r\n", 400),
				invalid("authority-form with GET (RFC 9112 §3.2.3)", "GET a.example:443 HTTP/1.1\r\nHost: a\r\n\r\n",
						400),
				invalid("origin-form with CONNECT (RFC 9112 §3.2.3)", "CONNECT / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
				invalid("CONNECT without a port (RFC 9110 §9.3.6)", "CONNECT a.example HTTP/1.1\r\nHost: a\r\n\r\n",
						400),
				invalid("absolute-form with another scheme", "GET ftp://a.example/ HTTP/1.1\r\nHost: a\r\n\r\n", 400),
				invalid("absolute-form without a host (RFC 9110 §4.2.1)", "GET http:///p HTTP/1.1\r\nHost: a\r\n\r\n",
						400),
				// header fields (RFC 9112 §5, RFC 9110 §5)
				invalid("whitespace between name and colon (RFC 9112 §5.1)", "GET / HTTP/1.1\r\nHost : a\r\n\r\n", 400),
				invalid("tab between name and colon (RFC 9112 §5.1)", "GET / HTTP/1.1\r\nHost\t: a\r\n\r\n", 400),
				invalid("obs-fold (RFC 9112 §5.2)", "GET / HTTP/1.1\r\nHost: a\r\nX-A: b\r\n c\r\n\r\n", 400),
				invalid("obs-fold with a tab (RFC 9112 §5.2)", "GET / HTTP/1.1\r\nHost: a\r\nX-A: b\r\n\tc\r\n\r\n",
						400),
				invalid("whitespace-preceded first field line (RFC 9112 §2.2)", "GET / HTTP/1.1\r\n Host: a\r\n\r\n",
						400),
				invalid("bare CR in a value (RFC 9112 §2.2)", "GET / HTTP/1.1\r\nHost: a\r\nX-A: b\rc\r\n\r\n", 400),
				invalid("bare CR at the end of a value (RFC 9112 §2.2)", "GET / HTTP/1.1\r\nHost: a\r\nX-A: b\r\r\n\r\n",
						400),
				invalid("NUL in a value (RFC 9110 §5.5)", "GET / HTTP/1.1\r\nHost: a\r\nX-A: b\u0000c\r\n\r\n", 400),
				invalid("0x01 in a value (RFC 9110 §5.5)", "GET / HTTP/1.1\r\nHost: a\r\nX-A: b\u0001c\r\n\r\n", 400),
				invalid("DEL in a value (RFC 9110 §5.5)", "GET / HTTP/1.1\r\nHost: a\r\nX-A: b\u007fc\r\n\r\n", 400),
				invalid("'(' in a name (RFC 9110 §5.1)", "GET / HTTP/1.1\r\nHost: a\r\nX(A): b\r\n\r\n", 400),
				invalid("'@' in a name (RFC 9110 §5.1)", "GET / HTTP/1.1\r\nHost: a\r\nX@A: b\r\n\r\n", 400),
				invalid("non-ASCII byte in a name (RFC 9110 §5.1)", "GET / HTTP/1.1\r\nHost: a\r\nK\u00e4se: b\r\n\r\n",
						400),
				invalid("empty name (RFC 9110 §5.1)", "GET / HTTP/1.1\r\nHost: a\r\n: b\r\n\r\n", 400),
				invalid("field line without a colon", "GET / HTTP/1.1\r\nHost: a\r\nX-A b\r\n\r\n", 400),
				invalid("HTTP/1.1 without Host (RFC 9112 §3.2)", "GET / HTTP/1.1\r\nX-A: b\r\n\r\n", 400),
				invalid("two Host fields (RFC 9112 §3.2)", "GET / HTTP/1.1\r\nHost: a\r\nhost: a\r\n\r\n", 400),
				invalid("invalid Host value (RFC 9112 §3.2)", "GET / HTTP/1.1\r\nHost: a b\r\n\r\n", 400),
				invalid("Host value with a path (RFC 9112 §3.2)", "GET / HTTP/1.1\r\nHost: a/b\r\n\r\n", 400),
				// framing (RFC 9112 §6, RFC 9110 §8.6)
				invalid("Content-Length with Transfer-Encoding (RFC 9112 §6.3)",
						"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n"
								+ "3\r\nabc\r\n0\r\n\r\n",
						400),
				invalid("Transfer-Encoding with Content-Length (RFC 9112 §6.3)",
						"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n"
								+ "3\r\nabc\r\n0\r\n\r\n",
						400),
				invalid("two differing Content-Length fields (RFC 9110 §8.6)",
						"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nabcdef", 400),
				invalid("differing Content-Length list (RFC 9110 §8.6)",
						"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5, 6\r\n\r\nabcdef", 400),
				invalid("non-numeric Content-Length (RFC 9110 §8.6)",
						"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: abc\r\n\r\n", 400),
				invalid("negative Content-Length (RFC 9110 §8.6)",
						"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", 400),
				invalid("signed Content-Length (RFC 9110 §8.6)",
						"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +5\r\n\r\nabcde", 400),
				invalid("hexadecimal Content-Length (RFC 9110 §8.6)",
						"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0x5\r\n\r\nabcde", 400),
				invalid("Content-Length with an inner space (RFC 9110 §8.6)",
						"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1 2\r\n\r\n", 400),
				invalid("empty Content-Length (RFC 9110 §8.6)",
						"POST / HTTP/1.1\r\nHost: a\r\nContent-Length:\r\n\r\n", 400),
				invalid("unknown transfer coding (RFC 9112 §6.1)",
						"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
				invalid("chunked not the final coding (RFC 9112 §6.3)",
						"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", 400),
				invalid("chunked after an unknown coding (RFC 9112 §6.1)",
						"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501),
				invalid("chunked applied twice (RFC 9112 §6.1)",
						"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n",
						400),
				invalid("empty Transfer-Encoding (RFC 9112 §6.3)",
						"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding:\r\n\r\n", 400),
				invalid("Transfer-Encoding in HTTP/1.0 (RFC 9112 §6.1)",
						"POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
				invalid("expectation other than 100-continue (RFC 9110 §10.1.1)",
						"POST / HTTP/1.1\r\nHost: a\r\nExpect: 200-ok\r\n\r\n", 417),
				// chunked coding (RFC 9112 §7.1)
				invalid("non-hex chunk size", chunked("g\r\n"), 400),
				invalid("empty chunk size", chunked("\r\nabc\r\n0\r\n\r\n"), 400),
				invalid("negative chunk size", chunked("-3\r\nabc\r\n0\r\n\r\n"), 400),
				invalid("chunk size with a 0x prefix", chunked("0x3\r\nabc\r\n0\r\n\r\n"), 400),
				invalid("chunk size followed by junk", chunked("3 x\r\nabc\r\n0\r\n\r\n"), 400),
				invalid("chunk size of 17 hex digits", chunked("10000000000000000\r\nabc\r\n0\r\n\r\n"), 400),
				invalid("chunk size of 16 hex digits, top bit set", chunked("8000000000000000\r\nabc\r\n"), 400),
				invalid("chunk data longer than its size", chunked("3\r\nabcd\r\n0\r\n\r\n"), 400),
				invalid("chunk data not followed by CRLF", chunked("3\r\nabc0\r\n\r\n"), 400),
				invalid("chunk data followed by CR and something else", chunked("3\r\nabc\rX\n0\r\n\r\n"), 400),
				invalid("control character in a chunk extension", chunked("3;a=\u0001\r\nabc\r\n0\r\n\r\n"), 400),
				invalid("obs-fold in the trailer section", chunked("0\r\nX-A: b\r\n c\r\n\r\n"), 400),
				invalid("whitespace before the colon of a trailer field", chunked("0\r\nX-A : b\r\n\r\n"), 400));
	}

	/**
	 * Chunked framing without the leniencies of the head: every line of it ends with CRLF (RFC
	 * 9112 §7.1), and a chunk size is followed by its extensions or the line end, nothing else
	 * (stricter than the grammar's BWS before a ';'). A proxy that is lenient there and a server
	 * that is not disagree on where the body ends. Each row gets 400 with its reason.
	 */
	static Stream<Arguments> chunkedFramingViolations() {
		String bareLf = "Bare LF in chunked framing";
		String bareCr = "Bare CR in chunked framing";
		String whitespace = "Invalid chunk size: whitespace after the chunk size";
		return Stream.of(
				violation("bare LF after a chunk size", chunked("3\nabc\r\n0\r\n\r\n"), bareLf),
				violation("bare LF after a chunk extension", chunked("3;a=b\nabc\r\n0\r\n\r\n"), bareLf),
				violation("bare LF after the last chunk's size", chunked("3\r\nabc\r\n0\n\r\n"), bareLf),
				violation("bare LF after chunk data", chunked("3\r\nabc\n0\r\n\r\n"), bareLf),
				violation("bare LF after a trailer field", chunked("0\r\nX-A: b\n\r\n"), bareLf),
				violation("bare LF ending the trailer section", chunked("0\r\nX-A: b\r\n\n"), bareLf),
				violation("bare LF ending an empty trailer section", chunked("3\r\nabc\r\n0\r\n\n"), bareLf),
				violation("CR CR after a chunk size", chunked("3\r\r\nabc\r\n0\r\n\r\n"), bareCr),
				violation("CR without LF after a chunk size", chunked("3\rabc\r\n0\r\n\r\n"), bareCr),
				violation("CR CR after a chunk extension", chunked("3;a=b\r\r\nabc\r\n0\r\n\r\n"), bareCr),
				violation("CR CR after chunk data", chunked("3\r\nabc\r\r\n0\r\n\r\n"),
						"Chunk data not followed by CRLF"),
				violation("CR CR after a trailer field", chunked("0\r\nX-A: b\r\r\n\r\n"), "Bare CR in header value"),
				violation("CR CR ending the trailer section", chunked("0\r\n\r\r\n"), "Bare CR in header name"),
				violation("space after a chunk size", chunked("3 \r\nabc\r\n0\r\n\r\n"), whitespace),
				violation("tab after a chunk size", chunked("3\t\r\nabc\r\n0\r\n\r\n"), whitespace),
				violation("space before a chunk extension", chunked("3 ;a=b\r\nabc\r\n0\r\n\r\n"), whitespace),
				violation("space after the last chunk's size", chunked("0 \r\n\r\n"), whitespace));
	}

	@ParameterizedTest
	@MethodSource("validRequests")
	void parsesValidRequests(String request, List<String> events) throws HttpParseException {
		assertThat(Wire.feed(ParserLimits.DEFAULTS, Wire.whole(bytes(request)))).isEqualTo(events);
	}

	@ParameterizedTest
	@MethodSource("validRequests")
	void parsesTheSameEventsWhereverTheInputIsSplit(String request, List<String> events) throws HttpParseException {
		byte[] bytes = bytes(request);
		for (int at = 0; at <= bytes.length; at++) {
			assertThat(Wire.feed(ParserLimits.DEFAULTS, Wire.splitAt(bytes, at))).as("split at %d", at)
				.isEqualTo(events);
		}
	}

	@ParameterizedTest
	@MethodSource("validRequests")
	void parsesTheSameEventsOneByteAtATime(String request, List<String> events) throws HttpParseException {
		assertThat(Wire.feed(ParserLimits.DEFAULTS, Wire.pieces(bytes(request), 1))).isEqualTo(events);
	}

	@ParameterizedTest
	@MethodSource("invalidRequests")
	void rejectsInvalidRequests(String request, int status) {
		assertThat(Wire.statusOf(ParserLimits.DEFAULTS, Wire.whole(bytes(request)))).isEqualTo(status);
	}

	@ParameterizedTest
	@MethodSource("invalidRequests")
	void rejectsWithTheSameStatusOneByteAtATime(String request, int status) {
		assertThat(Wire.statusOf(ParserLimits.DEFAULTS, Wire.pieces(bytes(request), 1))).isEqualTo(status);
	}

	@ParameterizedTest
	@MethodSource("invalidRequests")
	void rejectsWithTheSameStatusWhereverTheInputIsSplit(String request, int status) {
		byte[] bytes = bytes(request);
		for (int at = 0; at <= bytes.length; at++) {
			assertThat(Wire.statusOf(ParserLimits.DEFAULTS, Wire.splitAt(bytes, at))).as("split at %d", at)
				.isEqualTo(status);
		}
	}

	@ParameterizedTest
	@MethodSource("chunkedFramingViolations")
	void rejectsChunkedFramingViolationsWith400AndTheirReasonHoweverTheInputIsSplit(String request, String reason) {
		byte[] bytes = bytes(request);
		List<List<byte[]>> feedings = new ArrayList<>(List.of(Wire.whole(bytes), Wire.pieces(bytes, 1)));
		for (int at = 0; at <= bytes.length; at++) {
			feedings.add(Wire.splitAt(bytes, at));
		}
		for (List<byte[]> feeding : feedings) {
			assertThatExceptionOfType(HttpParseException.class).as("fed in pieces of %s", sizes(feeding))
				.isThrownBy(() -> Wire.feed(ParserLimits.DEFAULTS, feeding))
				.satisfies((ex) -> assertThat(ex.status()).isEqualTo(Status.BAD_REQUEST_400))
				.withMessageStartingWith(reason);
		}
	}

	@Test
	void staysCompleteAndConsumesNothingUntilReset() throws HttpParseException {
		String first = "GET /1 HTTP/1.1\r\nHost: a\r\n\r\n";
		String second = "GET /2 HTTP/1.1\r\nHost: a\r\n\r\n";
		RecordingSink sink = new RecordingSink();
		RequestParser parser = new RequestParser(ParserLimits.DEFAULTS, sink);
		ByteBuffer in = ByteBuffer.wrap(bytes(first + second));

		assertThat(parser.parse(in)).isFalse();
		assertThat(parser.state()).isEqualTo(RequestParser.State.COMPLETE);
		assertThat(in.position()).isEqualTo(first.length());
		assertThat(parser.parse(in)).isFalse();
		assertThat(in.position()).isEqualTo(first.length());
		assertThat(sink.events()).containsExactly("head GET /1 HTTP/1.1 [Host: a]", "complete");

		parser.reset();
		assertThat(parser.isIdle()).isTrue();
		assertThat(parser.parse(in)).isFalse();
		assertThat(in.hasRemaining()).isFalse();
		assertThat(parser.state()).isEqualTo(RequestParser.State.COMPLETE);
		assertThat(sink.events()).containsExactly("head GET /1 HTTP/1.1 [Host: a]", "complete",
				"head GET /2 HTTP/1.1 [Host: a]", "complete");
	}

	@Test
	void returnsAsSoonAsTheSinkAsksToStopAndResumesWhereItStopped() throws HttpParseException {
		String head = "POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\n";
		StoppingSink sink = new StoppingSink();
		RequestParser parser = new RequestParser(ParserLimits.DEFAULTS, sink);
		ByteBuffer in = ByteBuffer.wrap(bytes(head + "abc"));

		assertThat(parser.parse(in)).isTrue();
		assertThat(sink.calls).isEqualTo("head");
		assertThat(in.position()).isEqualTo(head.length());
		assertThat(parser.state()).isEqualTo(RequestParser.State.CONTENT);

		assertThat(parser.parse(in)).isTrue();
		assertThat(sink.calls).isEqualTo("head content");
		assertThat(in.hasRemaining()).isFalse();

		assertThat(parser.parse(in)).isTrue();
		assertThat(sink.calls).isEqualTo("head content complete");
		assertThat(parser.state()).isEqualTo(RequestParser.State.COMPLETE);
	}

	@Test
	void isIdleOnlyUntilTheFirstByteOfARequestIsConsumed() throws HttpParseException {
		RequestParser parser = new RequestParser(ParserLimits.DEFAULTS, new RecordingSink());
		assertThat(parser.isIdle()).isTrue();
		parser.parse(ByteBuffer.wrap(bytes("\r\n")));
		assertThat(parser.isIdle()).isFalse();
		parser.reset();
		parser.parse(ByteBuffer.wrap(bytes("G")));
		assertThat(parser.isIdle()).isFalse();
		parser.parse(ByteBuffer.wrap(bytes("ET / HTTP/1.1\r\n")));
		assertThat(parser.state()).isEqualTo(RequestParser.State.HEADERS);
		assertThat(parser.isIdle()).isFalse();
	}

	private static Arguments valid(String rule, String request, String... events) {
		return argumentSet(rule, request, List.of(events));
	}

	private static Arguments invalid(String rule, String request, int status) {
		return argumentSet(rule + " -> " + status, request, status);
	}

	private static Arguments violation(String rule, String request, String reason) {
		return argumentSet(rule + " -> 400", request, reason);
	}

	private static List<Integer> sizes(List<byte[]> pieces) {
		return pieces.stream().map((piece) -> piece.length).toList();
	}

	private static String chunked(String body) {
		return "POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n" + body;
	}

	/** Asks the parser to stop after every event. */
	private static final class StoppingSink implements RequestSink {

		String calls = "";

		@Override
		public boolean headComplete(RequestHead head) {
			this.calls = (this.calls + " head").strip();
			return true;
		}

		@Override
		public boolean content(ByteBuffer content) {
			this.calls = (this.calls + " content").strip();
			return true;
		}

		@Override
		public boolean messageComplete() {
			this.calls = (this.calls + " complete").strip();
			return true;
		}

	}

}
