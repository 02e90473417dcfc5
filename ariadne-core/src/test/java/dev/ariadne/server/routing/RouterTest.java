package dev.ariadne.server.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import dev.ariadne.http.HeaderName;
import dev.ariadne.http.Method;
import dev.ariadne.server.Handler;
import dev.ariadne.server.Middleware;
import dev.ariadne.server.stats.RequestEvent;

class RouterTest {

	/**
	 * Some routes registered before and some after a more specific one, so that neither the
	 * order of registration nor its reverse decides.
	 */
	private static final Router SITE = Router.builder()
		.get("/files/{*rest}", says("rest"))
		.get("/api/user/{id}", says("user"))
		.get("/files/{name}", says("name"))
		.get("/api/{section}/{id}", says("section"))
		.get("/files/readme", says("readme"))
		.get("/api/user/me", says("me"))
		.get("/api/user/{id}/posts/{post}", says("post"))
		.get("/", says("root"))
		.build();

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			/                    | /
			/api/user/me         | /api/user/me
			/api/user/42         | /api/user/{id}
			/api/team/42         | /api/{section}/{id}
			/api/user/42/posts/7 | /api/user/{id}/posts/{post}
			/files/readme        | /files/readme
			/files/a.txt         | /files/{name}
			/files/a/b.txt       | /files/{*rest}
			/files               | /files/{*rest}
			/api/user/m%65       | /api/user/me
			/api/user/me%2Fx     | /api/user/{id}
			/api/user            | NOT_FOUND
			/api/user/me/x       | NOT_FOUND
			/nothing             | NOT_FOUND
			/API/user/me         | NOT_FOUND
			""")
	void theMostSpecificTemplateMatchingTheDecodedSegmentsWins(String path, String route) {
		assertThat(SITE.match(Method.GET, path).route()).isEqualTo(route);
	}

	@Test
	void matchesALiteralRouteAndRunsItsHandler() throws Exception {
		RouteMatch match = SITE.match(Method.GET, "/api/user/me");
		assertThat(match.matched()).isTrue();
		assertThat(match.variables()).isEmpty();
		assertThat(match.pool()).isEqualTo(Route.DEFAULT_POOL);
		assertThat(run(SITE, Method.GET, "/api/user/me").body()).isEqualTo("me");
	}

	@Test
	void extractsPathVariablesByName() throws Exception {
		RouteMatch match = SITE.match(Method.GET, "/api/user/42/posts/7");
		assertThat(match.variables()).containsExactlyInAnyOrderEntriesOf(Map.of("id", "42", "post", "7"));
		Router router = Router.builder()
			.get("/api/user/{id}", (request, response) -> response.send("user " + request.pathVariable("id")))
			.build();
		assertThat(run(router, Method.GET, "/api/user/42").body()).isEqualTo("user 42");
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			/files/a/b/c   | a/b/c
			/files/a       | a
			/files/        | ''
			/files         | ''
			/files/a%20b/c | a b/c
			""")
	void aTrailingCatchAllTakesTheRestOfThePath(String path, String rest) {
		Router router = Router.builder().get("/files/{*rest}", says("files")).build();
		assertThat(router.match(Method.GET, path).variables()).containsExactly(Map.entry("rest", rest));
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			/api/user/j%C3%B6rg | jörg
			/api/user/a%20b     | a b
			/api/user/a+b       | a+b
			/api/user/a%2Fb     | a/b
			/api/user/a%2fb     | a/b
			/api/user/%25       | %
			""")
	void decodesEachSegmentSoThatAnEncodedSlashStaysInItsSegment(String path, String id) {
		RouteMatch match = SITE.match(Method.GET, path);
		assertThat(match.route()).isEqualTo("/api/user/{id}");
		assertThat(match.variables()).containsExactly(Map.entry("id", id));
	}

	@Test
	void anEncodedSlashDoesNotMatchALiteralTemplateOfTwoSegments() {
		Router router = Router.builder().get("/a/b", says("two segments")).build();
		assertThat(router.match(Method.GET, "/a/b").matched()).isTrue();
		assertThat(router.match(Method.GET, "/a%2Fb").route()).isEqualTo(RequestEvent.NOT_FOUND);
	}

	@ParameterizedTest
	@ValueSource(strings = { "/api/user/%zz", "/api/user/%4", "/api/user/%", "/api/user/a%2" })
	void rejectsAMalformedPercentEscape(String path) {
		assertThatIllegalArgumentException().isThrownBy(() -> SITE.match(Method.GET, path))
			.withMessageContaining("percent");
	}

	@Test
	void answersAnUnmatchedPath404() throws Exception {
		RouteMatch match = SITE.match(Method.GET, "/nothing");
		assertThat(match.route()).isEqualTo(RequestEvent.NOT_FOUND).isEqualTo("NOT_FOUND");
		assertThat(match.matched()).isFalse();
		assertThat(match.pool()).isEqualTo(Route.DEFAULT_POOL);
		RecordingResponse response = run(SITE, Method.GET, "/nothing");
		assertThat(response.status()).isEqualTo(404);
		assertThat(response.body()).isEqualTo("Not Found");
	}

	@Test
	void answersAnotherMethodOnAMatchedPath405WithAllow() throws Exception {
		Router router = Router.builder()
			.get("/api/user/{id}", says("get"))
			.route(Route.delete("/api/user/{id}", says("delete")))
			.post("/api/user", says("post"))
			.build();
		RouteMatch match = router.match(Method.PUT, "/api/user/1");
		assertThat(match.route()).isEqualTo(RequestEvent.METHOD_NOT_ALLOWED);
		assertThat(match.matched()).isFalse();
		RecordingResponse response = run(router, Method.PUT, "/api/user/1");
		assertThat(response.status()).isEqualTo(405);
		assertThat(response.headers().all(HeaderName.ALLOW)).containsExactly("GET, HEAD, DELETE, OPTIONS");
		assertThat(run(router, Method.GET, "/api/user").headers().get(HeaderName.ALLOW)).isEqualTo("POST, OPTIONS");
	}

	@Test
	void answersHeadWithTheGetRouteInItsPool() throws Exception {
		Router router = Router.builder().route(Route.get("/report", says("report")).inPool("cpu")).build();
		RouteMatch match = router.match(Method.HEAD, "/report");
		assertThat(match.matched()).isTrue();
		assertThat(match.route()).isEqualTo("/report");
		assertThat(match.pool()).isEqualTo("cpu");
		assertThat(run(router, Method.HEAD, "/report").body()).isEqualTo("report");
	}

	@Test
	void prefersAHeadRouteOverTheGetFallback() throws Exception {
		Router router = Router.builder()
			.get("/report", says("get"))
			.route(Route.of(Method.HEAD, "/report", says("head")))
			.build();
		assertThat(run(router, Method.HEAD, "/report").body()).isEqualTo("head");
		assertThat(run(router, Method.GET, "/report").body()).isEqualTo("get");
	}

	@Test
	void answersOptionsWithoutARoute204WithAllow() throws Exception {
		Router router = Router.builder().get("/api/user/{id}", says("get")).post("/api/user/{id}", says("post")).build();
		RouteMatch match = router.match(Method.OPTIONS, "/api/user/1");
		assertThat(match.matched()).isTrue();
		assertThat(match.route()).isEqualTo("/api/user/{id}");
		RecordingResponse response = run(router, Method.OPTIONS, "/api/user/1");
		assertThat(response.status()).isEqualTo(204);
		assertThat(response.headers().all(HeaderName.ALLOW)).containsExactly("GET, HEAD, POST, OPTIONS");
		assertThat(response.body()).isNull();
	}

	@Test
	void runsAnOptionsRouteInsteadOfTheAutomaticAnswerAndListsOptionsOnce() throws Exception {
		Router router = Router.builder()
			.route(Route.of(Method.OPTIONS, "/cors", says("preflight")))
			.post("/cors", says("post"))
			.build();
		assertThat(run(router, Method.OPTIONS, "/cors").body()).isEqualTo("preflight");
		assertThat(run(router, Method.GET, "/cors").headers().get(HeaderName.ALLOW)).isEqualTo("OPTIONS, POST");
	}

	@Test
	void rejectsTwoRoutesForTheSameMethodAndTemplate() {
		Router.Builder builder = Router.builder().get("/x/{id}", says("one")).get("/x/{id}", says("two"));
		assertThatIllegalArgumentException().isThrownBy(builder::build).withMessageContaining("GET /x/{id}");
	}

	@Test
	void acceptsTheSameTemplateForDifferentMethods() throws Exception {
		Router router = Router.builder().get("/x", says("get")).post("/x", says("post")).build();
		assertThat(run(router, Method.POST, "/x").body()).isEqualTo("post");
		assertThat(run(router, Method.GET, "/x").body()).isEqualTo("get");
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			''                | must start with '/'
			api/user          | must start with '/'
			/{id              | Malformed variable
			/{}               | Malformed variable
			/{*}              | Malformed variable
			/{id}x            | Malformed variable
			/{a{b}}           | Malformed variable
			/{*rest}/more     | Malformed variable
			/a{id}            | must be a literal, {name} or a final {*name}
			/x}               | must be a literal, {name} or a final {*name}
			/{id}/{id}        | repeats variable 'id'
			/{rest}/{*rest}   | repeats variable 'rest'
			""")
	void rejectsAMalformedTemplateSayingWhatIsWrong(String template, String problem) {
		assertThatIllegalArgumentException().isThrownBy(() -> Route.get(template, says("x")))
			.withMessageContaining(problem)
			.withMessageContaining("'" + template + "'");
	}

	@Test
	void rejectsAMissingTemplate() {
		assertThatIllegalArgumentException().isThrownBy(() -> Route.get(null, says("x")));
	}

	@Test
	void runsMiddlewareInRegistrationOrderAroundTheHandler() throws Exception {
		List<String> calls = new ArrayList<>();
		Router router = Router.builder()
			.get("/x", (request, response) -> calls.add("handler"))
			.middleware(logging("first", calls))
			.middleware(logging("second", calls))
			.build();
		run(router, Method.GET, "/x");
		assertThat(calls).containsExactly("first before", "second before", "handler", "second after", "first after");
	}

	@Test
	void aMiddlewareThatAnswersItselfSkipsTheRestOfTheChain() throws Exception {
		List<String> calls = new ArrayList<>();
		Middleware deny = (request, response, next) -> {
			calls.add("deny");
			response.status(401);
			response.send("Unauthorized");
		};
		Router router = Router.builder()
			.get("/x", (request, response) -> calls.add("handler"))
			.middleware(deny)
			.middleware(logging("second", calls))
			.build();
		RecordingResponse response = run(router, Method.GET, "/x");
		assertThat(calls).containsExactly("deny");
		assertThat(response.status()).isEqualTo(401);
		assertThat(response.body()).isEqualTo("Unauthorized");
	}

	@Test
	void wrapsTheAnswersWithoutARouteInTheSameChain() throws Exception {
		List<String> calls = new ArrayList<>();
		Router router = Router.builder().get("/x", says("x")).middleware(logging("mw", calls)).build();
		assertThat(run(router, Method.GET, "/missing").status()).isEqualTo(404);
		assertThat(run(router, Method.POST, "/x").status()).isEqualTo(405);
		assertThat(run(router, Method.OPTIONS, "/x").status()).isEqualTo(204);
		assertThat(calls).containsExactly("mw before", "mw after", "mw before", "mw after", "mw before", "mw after");
	}

	@Test
	void runsAnswersWithoutARouteInTheDefaultPool() {
		Router router = Router.builder().route(Route.get("/x", says("x")).inPool("cpu")).build();
		assertThat(router.match(Method.POST, "/x").pool()).isEqualTo(Route.DEFAULT_POOL);
		assertThat(router.match(Method.OPTIONS, "/x").pool()).isEqualTo(Route.DEFAULT_POOL);
		assertThat(router.match(Method.GET, "/y").pool()).isEqualTo(Route.DEFAULT_POOL);
	}

	@Test
	void variableNeverMatchesAnEmptySegment() {
		Router router = Router.builder().get("/api/user/{id}", says("user")).build();
		assertThat(router.match(Method.GET, "/api/user/").route()).isEqualTo("NOT_FOUND");
		assertThat(router.match(Method.GET, "/api/user/7").variables()).containsEntry("id", "7");
	}

	@Test
	void listsEveryRoutedMethodOnceForOptionsAsterisk() {
		Router router = Router.builder().get("/a", says("a")).post("/a", says("a")).get("/b", says("b")).build();
		assertThat(router.allowedMethods()).isEqualTo("GET, HEAD, POST");
		assertThat(router.routes()).extracting(Route::template).containsExactly("/a", "/a", "/b");
	}

	@Test
	void sendsUnmatchedPathsAndMethodsToTheFallbackInThePoolItPicks() throws Exception {
		List<String> seen = new ArrayList<>();
		Router router = Router.builder()
			.get("/api/user/{id}", says("user"))
			.middleware((request, response, next) -> {
				seen.add("middleware");
				next.handle(request, response);
			})
			.fallback(says("fallback"), (method, path) -> path.startsWith("/heavy/") ? "compute" : Route.DEFAULT_POOL)
			.build();
		assertThat(run(router, Method.GET, "/api/user/7").body()).isEqualTo("user");
		RouteMatch notFound = router.match(Method.GET, "/heavy/%66ib");
		assertThat(notFound.pool()).isEqualTo("compute");
		assertThat(notFound.matched()).isFalse();
		assertThat(notFound.route()).isEqualTo(RequestEvent.NOT_FOUND);
		assertThat(run(router, Method.GET, "/elsewhere").body()).isEqualTo("fallback");
		RouteMatch wrongMethod = router.match(Method.DELETE, "/api/user/7");
		assertThat(wrongMethod.pool()).isEqualTo(Route.DEFAULT_POOL);
		assertThat(run(router, Method.DELETE, "/api/user/7").body()).isEqualTo("fallback");
		assertThat(router.match(Method.OPTIONS, "/api/user/7").matched()).isTrue();
		assertThat(seen).hasSize(3);
	}

	private static RecordingResponse run(Router router, Method method, String path) throws Exception {
		RouteMatch match = router.match(method, path);
		RecordingResponse response = new RecordingResponse();
		match.handler().handle(new StubRequest(method, path, match), response);
		return response;
	}

	private static Handler says(String text) {
		return (request, response) -> response.send(text);
	}

	private static Middleware logging(String name, List<String> calls) {
		return (request, response, next) -> {
			calls.add(name + " before");
			next.handle(request, response);
			calls.add(name + " after");
		};
	}

}
