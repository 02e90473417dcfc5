package dev.ariadne.servlet;

import java.io.IOException;
import java.util.EnumSet;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletResponse;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.ariadne.server.IoModel;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A filter on {@code /admin/*} that no spelling of the path gets around: each row is a request
 * target a client could send to reach the servlet on {@code /admin/*} without the filter, and
 * the answer it must get instead, 403 from the filter, 400 for a suspicious path, or 404 for a
 * path that is simply another resource. The protected servlet never answers.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractPathTricksIT {

	private ServletServer server;

	abstract IoModel model();

	@BeforeAll
	void start() throws ServletException {
		this.server = ServletServer.start(model(), ServletDeployment.builder().initializer((context) -> {
			context.addServlet("admin", Servlets.of((request, response) -> Servlets.write(response, "SECRET")))
				.addMapping("/admin/*");
			context.addServlet("public", Servlets.of((request, response) -> {
				String to = request.getParameter("to");
				if (to != null) {
					request.getRequestDispatcher(to).forward(request, response);
					return;
				}
				Servlets.write(response, "public");
			})).addMapping("/public/*");
			context.addServlet("default", Servlets.of((request, response) -> response.sendError(404)))
				.addMapping("/");
			context.addFilter("guard", Servlets.filter((request, response, chain) -> {
				response.sendError(HttpServletResponse.SC_FORBIDDEN);
			})).addMappingForUrlPatterns(EnumSet.allOf(DispatcherType.class), false, "/admin/*");
		}));
	}

	@AfterAll
	void stop() {
		if (this.server != null) {
			this.server.close();
		}
	}

	@ParameterizedTest(name = "{0} -> {1}")
	@CsvSource(delimiter = '|', textBlock = """
			/admin/secret                      | 403
			/admin                             | 403
			/admin/                            | 403
			//admin/secret                     | 403
			/admin//secret                     | 403
			/./admin/secret                    | 403
			/admin/./secret                    | 403
			/public/../admin/secret            | 403
			/admin/../admin/secret             | 403
			/admin/secret/..                   | 403
			/public;/../admin/secret           | 403
			/admin;jsessionid=1/secret         | 403
			/admin;/secret                     | 403
			/%61dmin/secret                    | 403
			/adm%69n/secret                    | 403
			/admin/secret?/../public           | 403
			http://localhost/admin/secret      | 403
			http://localhost/public/../admin/x | 403
			/public/x?to=/admin/secret         | 403
			/public/x?to=/public/../admin/y    | 403
			/public/x?to=../admin/z            | 403
			/public/..;/admin/secret           | 400
			/;/admin/secret                    | 400
			/;x=y/admin/secret                 | 400
			/admin%2fsecret                    | 400
			/admin%2Fsecret                    | 400
			/public%2f..%2fadmin/secret        | 400
			/public/%2e%2e/admin/secret        | 400
			/public/%2E%2E/admin/secret        | 400
			/public/.%2e/admin/secret          | 400
			/%2e/admin/secret                  | 400
			/admin%5csecret                    | 400
			/public/..%5cadmin/secret          | 400
			/admin\\secret                     | 400
			/admin/secret%00.txt               | 400
			/admin%09/secret                   | 400
			/%C0%AE%C0%AE/admin/secret         | 400
			/%C0%AFadmin/secret                | 400
			/admin/sec%ZZret                   | 400
			/../admin/secret                   | 400
			/admin/secret#top                  | 400
			/public;x=%2f/../admin/secret      | 400
			/ADMIN/secret                      | 404
			/Admin/secret                      | 404
			/admin./secret                     | 404
			/admin%20/secret                   | 404
			/%2561dmin/secret                  | 404
			/administrator/secret              | 404
			""")
	void noSpellingOfThePathBypassesTheFilter(String target, int status) throws IOException {
		Wire.Reply reply = Wire.exchange(this.server.port(),
				"GET " + target + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
		assertThat(reply.text()).doesNotContain("SECRET");
		assertThat(reply.status).isEqualTo(status);
	}

}
