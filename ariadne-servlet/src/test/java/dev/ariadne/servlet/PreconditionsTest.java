package dev.ariadne.servlet;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The conditional fields of RFC 9110 section 13 against a file whose tag is weak, as the default
 * servlet's are, one row per rule of section 13.2.2. In the table, {@code LM} is the file's
 * {@code Last-Modified}, {@code EARLIER} and {@code LATER} a second either side; {@code TAG} its
 * entity tag, {@code STRONG} the same opaque tag without {@code W/}.
 */
class PreconditionsTest {

	/** Half a second past a whole second: dates compare at the second. */
	private static final long MODIFIED = 1_700_000_000_500L;

	private static final String TAG = "W/\"10-1700000000500\"";

	@ParameterizedTest(name = "{0} If-Match={1} If-Unmodified-Since={2} If-None-Match={3} If-Modified-Since={4} -> {5}")
	@CsvSource(delimiter = '|', nullValues = "-", textBlock = """
			GET  | -                 | -       | -                      | -           | PROCEED
			GET  | *                 | -       | -                      | -           | PROCEED
			GET  | TAG               | -       | -                      | -           | FAILED
			GET  | STRONG            | -       | -                      | -           | FAILED
			GET  | "other"           | -       | -                      | -           | FAILED
			GET  | -                 | LM      | -                      | -           | PROCEED
			GET  | -                 | LATER   | -                      | -           | PROCEED
			GET  | -                 | EARLIER | -                      | -           | FAILED
			GET  | -                 | garbage | -                      | -           | PROCEED
			GET  | *                 | EARLIER | -                      | -           | PROCEED
			GET  | -                 | -       | TAG                    | -           | NOT_MODIFIED
			GET  | -                 | -       | STRONG                 | -           | NOT_MODIFIED
			HEAD | -                 | -       | TAG                    | -           | NOT_MODIFIED
			GET  | -                 | -       | *                      | -           | NOT_MODIFIED
			GET  | -                 | -       | "a", TAG               | -           | NOT_MODIFIED
			GET  | -                 | -       | "a",W/"b" ,  TAG       | -           | NOT_MODIFIED
			GET  | -                 | -       | "other"                | -           | PROCEED
			GET  | -                 | -       | "10-17000000005"       | -           | PROCEED
			GET  | -                 | -       | W/"10-1700000000500    | -           | PROCEED
			POST | -                 | -       | TAG                    | -           | FAILED
			POST | -                 | -       | *                      | -           | FAILED
			GET  | -                 | -       | -                      | LM          | NOT_MODIFIED
			GET  | -                 | -       | -                      | LATER       | NOT_MODIFIED
			GET  | -                 | -       | -                      | EARLIER     | PROCEED
			GET  | -                 | -       | -                      | garbage     | PROCEED
			HEAD | -                 | -       | -                      | LM          | NOT_MODIFIED
			POST | -                 | -       | -                      | LM          | PROCEED
			GET  | -                 | -       | "other"                | LM          | PROCEED
			GET  | "other"           | -       | TAG                    | -           | FAILED
			GET  | -                 | EARLIER | TAG                    | -           | FAILED
			""")
	void evaluatesTheConditionsInOrder(String method, String ifMatch, String ifUnmodifiedSince, String ifNoneMatch,
			String ifModifiedSince, Preconditions.Outcome expected) {
		assertThat(Preconditions.evaluate(method, value(ifMatch), value(ifUnmodifiedSince), value(ifNoneMatch),
				value(ifModifiedSince), TAG, MODIFIED))
			.isEqualTo(expected);
	}

	@ParameterizedTest(name = "If-Range: {0} -> {1}")
	@CsvSource(delimiter = '|', nullValues = "-", textBlock = """
			-        | true
			LM       | true
			EARLIER  | false
			LATER    | false
			garbage  | false
			TAG      | false
			STRONG   | false
			"other"  | false
			""")
	void appliesARangeOnlyWhenIfRangeNamesTheFileStrongly(String ifRange, boolean applies) {
		assertThat(Preconditions.rangeApplies(value(ifRange), TAG, MODIFIED)).isEqualTo(applies);
	}

	@ParameterizedTest(name = "If-Range: {0} -> {1}")
	@CsvSource(delimiter = '|', textBlock = """
			"abc"    | true
			W/"abc"  | false
			"abd"    | false
			""")
	void comparesAStrongTagOfIfRangeExactly(String ifRange, boolean applies) {
		assertThat(Preconditions.rangeApplies(ifRange, "\"abc\"", MODIFIED)).isEqualTo(applies);
	}

	private static String value(String cell) {
		if (cell == null) {
			return null;
		}
		long second = MODIFIED - MODIFIED % 1000;
		return cell.replace("STRONG", TAG.substring(2))
			.replace("TAG", TAG)
			.replace("EARLIER", HttpDates.format(second - 1000))
			.replace("LATER", HttpDates.format(second + 1000))
			.replace("LM", HttpDates.format(second));
	}

}
