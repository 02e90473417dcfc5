package dev.ariadne.it.mvc;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * A servlet registered with a load-on-startup value is initialised when the web server starts,
 * after the application's singletons, as on Tomcat; and its failure fails the server's start.
 */
class LoadOnStartupIT {

	private static final List<String> events = new CopyOnWriteArrayList<>();

	@Test
	void initialisesALoadOnStartupServletWhenTheServerStartsAfterTheSingletons() {
		events.clear();
		try (ConfigurableApplicationContext context = start(false)) {
			assertThat(events).containsExactly("singletons instantiated", "servlet initialised");
		}
	}

	@Test
	void aLoadOnStartupServletThatFailsFailsTheServersStart() {
		events.clear();
		assertThatException().isThrownBy(() -> start(true).close())
			.withStackTraceContaining("Unable to start Ariadne's 'app' listener")
			.withStackTraceContaining("failed on purpose");
		assertThat(events).containsExactly("singletons instantiated");
	}

	private static ConfigurableApplicationContext start(boolean failing) {
		return new SpringApplicationBuilder(Application.class).run("--server.port=0", "--server.address=127.0.0.1",
				"--spring.main.banner-mode=off", "--test.failing=" + failing);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class Application {

		@Bean
		ServletRegistrationBean<HttpServlet> early(org.springframework.core.env.Environment environment) {
			boolean failing = environment.getProperty("test.failing", Boolean.class, false);
			ServletRegistrationBean<HttpServlet> registration = new ServletRegistrationBean<>(new Early(failing),
					"/early");
			registration.setLoadOnStartup(1);
			return registration;
		}

		@Bean
		static SmartInitializingSingleton singletonsInstantiated() {
			return () -> events.add("singletons instantiated");
		}

	}

	static final class Early extends HttpServlet {

		private static final long serialVersionUID = 1L;

		private final boolean failing;

		Early(boolean failing) {
			this.failing = failing;
		}

		@Override
		public void init(ServletConfig config) throws ServletException {
			super.init(config);
			if (this.failing) {
				throw new ServletException("failed on purpose");
			}
			events.add("servlet initialised");
		}

		@Override
		protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
			response.getWriter().write("early");
		}

	}

}
