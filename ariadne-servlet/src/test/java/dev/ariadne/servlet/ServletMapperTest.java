package dev.ariadne.servlet;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Servlet 6.1 section 12.1 mapping rules, as a table, and the values
 * {@code HttpServletMapping} reports (its javadoc's own table included).
 */
class ServletMapperTest {

	private static final DeploymentContext CONTEXT = new DeploymentContext(settings());

	private static Settings settings() {
		return new Settings("", "test", "test", java.util.Map.of(), new MimeTypes(), java.util.Map.of(),
				new ErrorPages(), java.time.Duration.ofMinutes(30), java.time.Duration.ofSeconds(10), List.of(),
				ServletMapperTest.class.getClassLoader(), null, null, List.of(), null, dev.ariadne.server.ContentLimits.DEFAULTS, null,
				null, false, null);
	}

	private static ServletEntry servlet(String name, String... patterns) {
		ServletEntry entry = new ServletEntry(CONTEXT, name, new NotFoundServlet(), null, "x");
		for (String pattern : patterns) {
			entry.mappings().add(pattern);
		}
		return entry;
	}

	private static final ServletMapper MAPPER = new ServletMapper(List.of(
			servlet("MyServlet", "/MyServlet", "", "*.extension", "/path/*"),
			servlet("longer", "/path/deeper/*", "/exact/path"),
			servlet("all", "/catch/*"),
			servlet("default", "/")), servlet("none"));

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', nullValues = "null", textBlock = """
			/                       | MyServlet | ''              | /               | ''                  | ''              | CONTEXT_ROOT
			/index.html             | default   | /index.html     | null            | ''                  | /               | DEFAULT
			/MyServlet/index.html   | default   | /MyServlet/index.html | null      | ''                  | /               | DEFAULT
			/MyServlet              | MyServlet | /MyServlet      | null            | MyServlet           | /MyServlet      | EXACT
			/MyServlet/foo          | default   | /MyServlet/foo  | null            | ''                  | /               | DEFAULT
			/foo.extension          | MyServlet | /foo.extension  | null            | foo                 | *.extension     | EXTENSION
			/bar/foo.extension      | MyServlet | /bar/foo.extension | null         | bar/foo             | *.extension     | EXTENSION
			/path/foo               | MyServlet | /path           | /foo            | foo                 | /path/*         | PATH
			/path/foo/bar           | MyServlet | /path           | /foo/bar        | foo/bar             | /path/*         | PATH
			/path                   | MyServlet | /path           | null            | ''                  | /path/*         | PATH
			/path/                  | MyServlet | /path           | /               | ''                  | /path/*         | PATH
			/pathology              | default   | /pathology      | null            | ''                  | /               | DEFAULT
			/path/deeper/x          | longer    | /path/deeper    | /x              | x                   | /path/deeper/*  | PATH
			/path/deeper.extension  | MyServlet | /path           | /deeper.extension | deeper.extension  | /path/*         | PATH
			/exact/path             | longer    | /exact/path     | null            | exact/path          | /exact/path     | EXACT
			/exact/path/            | default   | /exact/path/    | null            | ''                  | /               | DEFAULT
			/catch/a.extension      | all       | /catch          | /a.extension    | a.extension         | /catch/*        | PATH
			/dir.extension/file     | default   | /dir.extension/file | null        | ''                  | /               | DEFAULT
			/file.                  | default   | /file.          | null            | ''                  | /               | DEFAULT
			""")
	void mapsByTheServletRules(String path, String servlet, String servletPath, String pathInfo, String matchValue,
			String pattern, String match) {
		ServletMatch found = MAPPER.map(path);
		assertThat(found.getServletName()).isEqualTo(servlet);
		assertThat(found.servletPath()).isEqualTo(servletPath);
		assertThat(found.pathInfo()).isEqualTo(pathInfo);
		assertThat(found.getMatchValue()).isEqualTo(matchValue);
		assertThat(found.getPattern()).isEqualTo(pattern);
		assertThat(found.getMappingMatch().name()).isEqualTo(match);
		assertThat(found.path()).isEqualTo(path);
	}

	@Test
	void slashStarTakesEverythingWithAnEmptyServletPath() {
		ServletMapper mapper = new ServletMapper(List.of(servlet("all", "/*"), servlet("exact", "/exact")),
				servlet("none"));
		ServletMatch all = mapper.map("/a/b");
		assertThat(all.servletPath()).isEmpty();
		assertThat(all.pathInfo()).isEqualTo("/a/b");
		assertThat(all.getPattern()).isEqualTo("/*");
		assertThat(mapper.map("/exact").getServletName()).isEqualTo("exact");
		assertThat(mapper.map("/").pathInfo()).isEqualTo("/");
	}

	@Test
	void withoutADefaultServletUnmatchedPathsGoToTheNotFoundServlet() {
		ServletMapper mapper = new ServletMapper(List.of(servlet("one", "/one")), servlet("none"));
		assertThat(mapper.map("/two").getServletName()).isEqualTo("none");
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			/*            | /anything/at/all     | true
			/admin/*      | /admin               | true
			/admin/*      | /admin/x             | true
			/admin/*      | /administrator       | false
			*.jsp         | /a/b.jsp             | true
			*.jsp         | /a.jsp/b             | false
			/exact        | /exact               | true
			/exact        | /exact/              | false
			/             | /unmapped            | true
			/             | /MyServlet           | false
			""")
	void matchesFilterUrlPatterns(String pattern, String path, boolean matches) {
		assertThat(ServletMapper.filterMatches(pattern, MAPPER.map(path))).isEqualTo(matches);
	}

	@ParameterizedTest
	@ValueSource(strings = { "/a*", "a/b", "*.", "*.a/b", "/a/*/b", "**.x" })
	void rejectsPatternsOfNoServletForm(String pattern) {
		assertThatIllegalArgumentException().isThrownBy(() -> ServletMapper.validate(pattern))
			.withMessageContaining(pattern);
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "/", "/*", "/a", "/a/b/*", "*.jsp" })
	void acceptsEveryServletPatternForm(String pattern) {
		ServletMapper.validate(pattern);
	}

}
