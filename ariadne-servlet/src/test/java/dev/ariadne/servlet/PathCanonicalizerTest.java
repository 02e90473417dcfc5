package dev.ariadne.servlet;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * URI path canonicalisation, row by row as the example table of Servlet 6.1 section 3.5.2 gives
 * it ("400" where the request is rejected), plus the tricks used against path-based security
 * that the table does not list.
 */
class PathCanonicalizerTest {

	@ParameterizedTest(name = "{0} -> {1}")
	@CsvSource(delimiter = '|', quoteCharacter = '"', emptyValue = "", textBlock = """
			foo/bar                     | 400             | must start with /
			/foo/bar                    | /foo/bar        |
			/foo/bar;jsessionid=1234    | /foo/bar        |
			/foo/bar/                   | /foo/bar/       |
			/foo/bar/;jsessionid=1234   | /foo/bar/       |
			/foo;/bar;                  | /foo/bar        |
			/foo;/bar;/;                | /foo/bar/       |
			/foo%00/bar/                | 400             | control character
			/foo%7Fbar                  | 400             | control character
			/foo%2Fbar                  | 400             | encoded /
			/foo%2Fb%25r                | 400             | encoded /
			/foo/b%25r                  | /foo/b%r        |
			/foo\bar                    | 400             | backslash character
			/foo%5Cbar                  | 400             | backslash character
			/foo;%2F/bar                | 400             | encoded /
			/foo/./bar                  | /foo/bar        |
			/foo/././bar                | /foo/bar        |
			/./foo/bar                  | /foo/bar        |
			/foo/%2e/bar                | 400             | encoded dot segment
			/foo/.;/bar                 | 400             | dot segment with parameter
			/foo/%2e;/bar               | 400             | encoded dot segment
			/foo/.%2Fbar                | 400             | encoded /
			/foo/.%5Cbar                | 400             | backslash character
			/foo/bar/.                  | /foo/bar        |
			/foo/bar/./                 | /foo/bar/       |
			/foo/bar/.;                 | 400             | dot segment with parameter
			/foo/bar/./;                | /foo/bar/       |
			/foo/.bar                   | /foo/.bar       |
			/foo/../bar                 | /bar            |
			/foo/../../bar              | 400             | leading dot-dot-segment
			/../foo/bar                 | 400             | leading dot-dot-segment
			/foo/%2e%2E/bar             | 400             | encoded dot segment
			/foo/%2e%2e/%2E%2E/bar      | 400             | leading dot-dot-segment & encoded dot segment
			/foo/./../bar               | /bar            |
			/foo/..;/bar                | 400             | dot segment with parameter
			/foo/%2e%2E;/bar            | 400             | encoded dot segment
			/foo/..%2Fbar               | 400             | encoded /
			/foo/..%5Cbar               | 400             | backslash character
			/foo/bar/..                 | /foo            |
			/foo/bar/../                | /foo/           |
			/foo/bar/..;                | 400             | dot segment with parameter
			/foo/bar/../;               | /foo/           |
			/foo/..bar                  | /foo/..bar      |
			/foo/.../bar                | /foo/.../bar    |
			/foo//bar                   | /foo/bar        |
			//foo//bar//                | /foo/bar/       |
			/;/foo;/;/bar/;/;           | 400             | empty segment with parameters
			/foo//../bar                | /bar            |
			/foo/;/../bar               | 400             | empty segment with parameters
			/foo%E2%82%ACbar            | /foo€bar        |
			/foo%20bar                  | /foo bar        |
			/foo%E2%82                  | 400             | decode error
			/foo%E2%82bar               | 400             | decode error
			/foo%-1/bar                 | 400             | decode error
			/foo%XX/bar                 | 400             | decode error
			/foo%/bar                   | 400             | decode error
			/foo/bar%0                  | 400             | decode error
			/good%20/bad%/%20mix%       | 400             | decode error
			/foo/bar?q                  | /foo/bar        |
			/foo/bar#f                  | 400             | fragment
			/foo/bar?q#f                | 400             | fragment
			/foo/bar/?q                 | /foo/bar/       |
			/foo/bar/#f                 | 400             | fragment
			/foo/bar/?q#f               | 400             | fragment
			/foo/bar;?q                 | /foo/bar        |
			/foo/bar;#f                 | 400             | fragment
			/foo/bar;?q#f               | 400             | fragment
			/                           | /               |
			//                          | /               |
			/;/                         | 400             | empty segment with parameters
			/.                          | /               |
			/..                         | 400             | leading dot-dot-segment
			/./                         | /               |
			/../                        | 400             | leading dot-dot-segment
			foo/bar/                    | 400             | must start with /
			./foo/bar/                  | 400             | must start with /
			%2e/foo/bar/                | 400             | must start with / & encoded dot segment
			../foo/bar/                 | 400             | must start with / & leading dot-dot-segment
			.%2e/foo/bar/               | 400             | must start with / & leading dot-dot-segment & encoded dot segment
			;/foo/bar/                  | 400             | must start with / & empty segment with parameters
			/#f                         | 400             | fragment
			#f                          | 400             | fragment & must start with /
			/?q                         | /               |
			?q                          | 400             | must start with /
			""")
	void canonicalisesTheSpecificationExamples(String uri, String expected, String reason) {
		assertCanonical(uri, expected);
	}

	@ParameterizedTest(name = "{0} -> {1}")
	@CsvSource(delimiter = '|', textBlock = """
			/%C0%AE%C0%AE/admin        | 400
			/%C0%AFadmin               | 400
			/%E0%80%AE/admin           | 400
			/admin%ff                  | 400
			/%ED%A0%80                 | 400
			/admin%09/x                | 400
			/admin%0d%0a/x             | 400
			/admin%C2%85               | 400
			/%2561dmin                 | /%61dmin
			/%61dmin/x                 | /admin/x
			/ADMIN/x                   | /ADMIN/x
			/admin;/x                  | /admin/x
			/admin;a=b;c=d/x;y         | /admin/x
			/public;x/../admin         | /admin
			/a/b/c/../../d             | /a/d
			/%e2%82%ac                 | /€
			/a%2f..%2fadmin            | 400
			/a%5c..%5cadmin            | 400
			""")
	void refusesOrNormalisesTheUsualBypassTricks(String uri, String expected) {
		assertCanonical(uri, expected);
	}

	private static void assertCanonical(String uri, String expected) {
		// the query is split off before canonicalisation; a fragment stays, to be refused
		String path = uri.replaceFirst("\\?[^#]*", "");
		if (expected.equals("400")) {
			assertThatExceptionOfType(SuspiciousPathException.class)
				.isThrownBy(() -> PathCanonicalizer.canonicalize(path));
		}
		else {
			assertThat(PathCanonicalizer.canonicalize(path)).isEqualTo(expected);
		}
	}

}
