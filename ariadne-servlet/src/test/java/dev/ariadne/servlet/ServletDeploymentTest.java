package dev.ariadne.servlet;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.GenericServlet;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextAttributeEvent;
import jakarta.servlet.ServletContextAttributeListener;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.SessionTrackingMode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The deployment's lifecycle and its {@link ServletContext}, in process: start order, failures
 * that name what failed, registrations as Actuator's mappings endpoint reads them, what is
 * closed once the context is initialised, attributes, MIME types and resources.
 */
class ServletDeploymentTest {

	private final List<String> order = new CopyOnWriteArrayList<>();

	@TempDir
	Path temp;

	private final class Recording extends GenericServlet {

		private static final long serialVersionUID = 1L;

		private final String name;

		private final boolean fails;

		Recording(String name, boolean fails) {
			this.name = name;
			this.fails = fails;
		}

		@Override
		public void init(ServletConfig config) throws ServletException {
			super.init(config);
			ServletDeploymentTest.this.order.add("init " + this.name + " " + config.getInitParameter("p"));
			if (this.fails) {
				throw new ServletException("cannot start");
			}
		}

		@Override
		public void destroy() {
			ServletDeploymentTest.this.order.add("destroy " + this.name);
		}

		@Override
		public void service(ServletRequest request, ServletResponse response) {
		}

	}

	private Filter filter(String name) {
		return new Filter() {

			@Override
			public void init(FilterConfig config) {
				ServletDeploymentTest.this.order.add("init filter " + name);
			}

			@Override
			public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) {
			}

			@Override
			public void destroy() {
				ServletDeploymentTest.this.order.add("destroy filter " + name);
			}

		};
	}

	private ServletContextListener listener(String name) {
		return new ServletContextListener() {

			@Override
			public void contextInitialized(ServletContextEvent event) {
				ServletDeploymentTest.this.order.add("initialized " + name);
			}

			@Override
			public void contextDestroyed(ServletContextEvent event) {
				ServletDeploymentTest.this.order.add("destroyed " + name);
			}

		};
	}

	@Test
	void startsInitializersListenersFiltersAndLoadOnStartupServletsInOrderAndStopsInReverse() throws ServletException {
		ServletDeployment deployment = ServletDeployment.builder()
			.initializer((context) -> {
				this.order.add("initializer 1");
				context.addListener(listener("a"));
				ServletRegistration.Dynamic late = context.addServlet("late", new Recording("late", false));
				late.setLoadOnStartup(5);
				late.setInitParameter("p", "5");
				context.addServlet("lazy", new Recording("lazy", false)).addMapping("/lazy");
			})
			.initializer((context) -> {
				this.order.add("initializer 2");
				context.addListener(listener("b"));
				ServletRegistration.Dynamic early = context.addServlet("early", new Recording("early", false));
				early.setLoadOnStartup(1);
				context.addFilter("f", filter("f")).addMappingForUrlPatterns(null, false, "/*");
			})
			.build();
		deployment.start();
		assertThat(this.order).containsExactly("initializer 1", "initializer 2", "initialized a", "initialized b",
				"init filter f", "init early null", "init late 5");
		this.order.clear();
		deployment.stop();
		assertThat(this.order).containsExactly("destroy early", "destroy late", "destroy filter f", "destroyed b",
				"destroyed a");
	}

	@Test
	void aFailingLoadOnStartupServletFailsTheStartNamingItAndUndoesTheRest() {
		ServletDeployment deployment = ServletDeployment.builder().initializer((context) -> {
			context.addFilter("f", filter("f")).addMappingForUrlPatterns(null, false, "/*");
			context.addServlet("broken", new Recording("broken", true)).setLoadOnStartup(0);
		}).build();
		assertThatExceptionOfType(ServletException.class).isThrownBy(deployment::start)
			.withMessageContaining("Servlet 'broken' failed to initialize: cannot start");
		assertThat(this.order).containsExactly("init filter f", "init broken null", "destroy filter f");
	}

	@Test
	void aServletThatCannotBeCreatedFailsTheStartNamingIt() {
		ServletDeployment deployment = ServletDeployment.builder()
			.initializer((context) -> context.addServlet("ghost", "com.example.Missing").setLoadOnStartup(1))
			.build();
		assertThatExceptionOfType(ServletException.class).isThrownBy(deployment::start)
			.withMessageContaining("servlet 'ghost'")
			.withMessageContaining("com.example.Missing");
	}

	@Test
	void reportsRegistrationsWithTheirMappingsAndRefusesConflicts() throws ServletException {
		ServletDeployment deployment = ServletDeployment.builder().initializer((context) -> {
			ServletRegistration.Dynamic one = context.addServlet("one", new Recording("one", false));
			assertThat(one.addMapping("/a", "*.x")).isEmpty();
			assertThat(context.addServlet("one", new Recording("again", false))).isNull();
			ServletRegistration.Dynamic two = context.addServlet("two", new Recording("two", false));
			assertThat(two.addMapping("/b", "/a")).containsExactly("/a");
			assertThat(two.addMapping("/b")).isEmpty();
			context.addFilter("f", filter("f")).addMappingForUrlPatterns(EnumSet.of(DispatcherType.ERROR), true,
					"/a/*");
			context.addFilter("g", filter("g")).addMappingForServletNames(null, false, "one");
		}).build();
		deployment.start();
		ServletContext context = deployment.servletContext();
		assertThat(context.getServletRegistrations()).containsOnlyKeys("one", "two");
		assertThat(context.getServletRegistration("one").getMappings()).containsExactly("/a", "*.x");
		assertThat(context.getServletRegistration("two").getMappings()).containsExactly("/b");
		assertThat(context.getServletRegistration("two").getClassName()).endsWith("Recording");
		assertThat(context.getFilterRegistrations()).containsOnlyKeys("f", "g");
		assertThat(context.getFilterRegistration("f").getUrlPatternMappings()).containsExactly("/a/*");
		assertThat(context.getFilterRegistration("g").getServletNameMappings()).containsExactly("one");
		deployment.stop();
	}

	@Test
	void closesRegistrationOnceTheContextIsInitialized() throws ServletException {
		ServletDeployment deployment = ServletDeployment.builder()
			.initializer((context) -> context.addServlet("one", new Recording("one", false)))
			.build();
		deployment.start();
		ServletContext context = deployment.servletContext();
		assertThatIllegalStateException().isThrownBy(() -> context.addServlet("late", new Recording("late", false)))
			.withMessageContaining("already initialized");
		assertThatIllegalStateException()
			.isThrownBy(() -> ((ServletRegistration.Dynamic) context.getServletRegistration("one")).addMapping("/x"));
		assertThat(context.getServletRegistration("one").getMappings()).isEmpty();
		assertThatIllegalStateException().isThrownBy(() -> context.getSessionCookieConfig().setName("other"));
		assertThatIllegalStateException()
			.isThrownBy(() -> context.setSessionTrackingModes(EnumSet.of(SessionTrackingMode.COOKIE)));
		assertThatIllegalStateException().isThrownBy(() -> context.addListener(listener("late")));
		assertThatIllegalStateException().isThrownBy(deployment::start).withMessageContaining("already started");
		deployment.stop();
	}

	@Test
	void withoutTheDefaultMimeMappingsKnowsOnlyTheOnesGiven() throws ServletException {
		ServletDeployment deployment = ServletDeployment.builder()
			.mimeMapping("css", "text/x-early")
			.withoutDefaultMimeMappings()
			.mimeMapping("ariadne", "application/x-ariadne")
			.build();
		deployment.start();
		ServletContext context = deployment.servletContext();
		assertThat(context.getMimeType("x.ariadne")).isEqualTo("application/x-ariadne");
		assertThat(context.getMimeType("x.css")).as("a mapping given before, dropped with the defaults").isNull();
		assertThat(context.getMimeType("x.map")).isNull();
		deployment.stop();
	}

	@Test
	void holdsAttributesInitParametersAndMimeTypesAndTellsAttributeListeners() throws ServletException {
		List<String> events = new CopyOnWriteArrayList<>();
		ServletDeployment deployment = ServletDeployment.builder()
			.initParameter("mode", "test")
			.mimeMapping("ariadne", "application/x-ariadne")
			.mimeMapping("json", "application/vnd.custom+json")
			.displayName("attributes")
			.initializer((context) -> context.addListener(new ServletContextAttributeListener() {

				@Override
				public void attributeAdded(ServletContextAttributeEvent event) {
					events.add("added " + event.getName() + "=" + event.getValue());
				}

				@Override
				public void attributeReplaced(ServletContextAttributeEvent event) {
					events.add("replaced " + event.getName() + "=" + event.getValue());
				}

				@Override
				public void attributeRemoved(ServletContextAttributeEvent event) {
					events.add("removed " + event.getName() + "=" + event.getValue());
				}

			}))
			.build();
		deployment.start();
		ServletContext context = deployment.servletContext();
		context.setAttribute("k", "1");
		context.setAttribute("k", "2");
		context.setAttribute("k", null);
		assertThat(events).containsExactly("added k=1", "replaced k=1", "removed k=2");
		assertThat(context.getInitParameter("mode")).isEqualTo("test");
		assertThat(context.getServletContextName()).isEqualTo("attributes");
		assertThat(context.getMimeType("a/b.ARIADNE")).isEqualTo("application/x-ariadne");
		assertThat(context.getMimeType("x.json")).isEqualTo("application/vnd.custom+json");
		assertThat(context.getMimeType("x.css")).isEqualTo("text/css");
		assertThat(context.getMimeType("noextension")).isNull();
		assertThat(context.getAttribute(ServletContext.TEMPDIR)).isInstanceOf(java.io.File.class);
		assertThat(context.getMajorVersion()).isEqualTo(6);
		assertThat(context.getMinorVersion()).isEqualTo(1);
		deployment.stop();
	}

	@Test
	void hasNoResourcesWithoutADocumentRootAndOnlyItsOwnWithOne() throws IOException, ServletException {
		ServletDeployment bare = ServletDeployment.builder().build();
		bare.start();
		assertThat(bare.servletContext().getResource("/index.html")).isNull();
		assertThat(bare.servletContext().getResourceAsStream("/index.html")).isNull();
		assertThat(bare.servletContext().getRealPath("/index.html")).isNull();
		bare.stop();
		Path root = Files.createDirectories(this.temp.resolve("root"));
		Files.writeString(root.resolve("index.html"), "hello");
		Files.createDirectories(root.resolve("css"));
		Files.writeString(this.temp.resolve("secret.txt"), "outside");
		ServletDeployment served = ServletDeployment.builder().documentRoot(root).build();
		served.start();
		ServletContext context = served.servletContext();
		URL url = context.getResource("/index.html");
		assertThat(url).isNotNull();
		try (InputStream in = context.getResourceAsStream("/index.html")) {
			assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("hello");
		}
		assertThat(context.getResourcePaths("/")).containsExactly("/css/", "/index.html");
		assertThat(context.getResource("/../secret.txt")).isNull();
		assertThat(context.getResourceAsStream("/../secret.txt")).isNull();
		assertThat(context.getRealPath("/../secret.txt")).isNull();
		served.stop();
	}

	@Test
	void answersAnEmptyRootAsTomcatDoes() throws IOException, ServletException {
		Path empty = Files.createDirectories(this.temp.resolve("empty"));
		ServletDeployment deployment = ServletDeployment.builder().documentRoot(empty).build();
		deployment.start();
		ServletContext context = deployment.servletContext();
		assertThat(context.getResource("/")).isEqualTo(empty.toUri().toURL());
		// Servlet 6.1: null when no resource path begins with the one given
		assertThat(context.getResourcePaths("/")).isNull();
		assertThat(context.getResourcePaths("/missing/")).isNull();
		assertThat(context.getRealPath("/later.txt")).isEqualTo(empty.resolve("later.txt").toString());
		assertThat(context.getResource("/a\u0000b")).isNull();
		assertThat(context.getRealPath("/a\u0000b")).isNull();
		deployment.stop();
	}

	@Test
	void listsNoLinkThatLeadsOutOfTheRoot() throws IOException, ServletException {
		Path root = Files.createDirectories(this.temp.resolve("root"));
		Files.writeString(root.resolve("a.txt"), "a");
		Files.writeString(this.temp.resolve("secret.txt"), "outside");
		Files.createSymbolicLink(root.resolve("out.txt"), this.temp.resolve("secret.txt"));
		Files.createSymbolicLink(root.resolve("in.txt"), root.resolve("a.txt"));
		ServletDeployment deployment = ServletDeployment.builder().documentRoot(root).build();
		deployment.start();
		ServletContext context = deployment.servletContext();
		assertThat(context.getResourcePaths("/")).containsExactly("/a.txt", "/in.txt");
		assertThat(context.getResource("/out.txt")).isNull();
		assertThat(context.getResourceAsStream("/out.txt")).isNull();
		assertThat(context.getResource("/in.txt")).isNotNull();
		deployment.stop();
	}

	@Test
	void registersTheDefaultServletByNameOnlyWhenAsked() throws ServletException {
		ServletDeployment without = ServletDeployment.builder().build();
		without.start();
		assertThat(without.servletContext().getServletRegistration("default")).isNull();
		assertThat(without.servletContext().getNamedDispatcher("default")).isNull();
		without.stop();
		ServletDeployment with = ServletDeployment.builder().defaultServlet().build();
		with.start();
		ServletRegistration registration = with.servletContext().getServletRegistration("default");
		assertThat(registration.getMappings()).containsExactly("/");
		assertThat(with.servletContext().getNamedDispatcher("default")).isNotNull();
		with.stop();
	}

	@Test
	void keepsTheNameDefaultForTheContainersDefaultServlet() throws ServletException {
		AtomicReference<ServletRegistration.Dynamic> own = new AtomicReference<>();
		ServletDeployment deployment = ServletDeployment.builder()
			.defaultServlet()
			.initializer((context) -> own.set(context.addServlet("default", new GenericServlet() {

				@Override
				public void service(ServletRequest request, ServletResponse response) {
				}

			})))
			.build();
		deployment.start();
		// as on Tomcat: the name is taken, so the application's servlet is not registered
		assertThat(own.get()).isNull();
		deployment.stop();
	}

	@Test
	void invalidatesSessionsWhenStopped() throws ServletException {
		List<String> destroyed = new CopyOnWriteArrayList<>();
		ServletDeployment deployment = ServletDeployment.builder()
			.initializer((context) -> context.addListener(new jakarta.servlet.http.HttpSessionListener() {

				@Override
				public void sessionDestroyed(jakarta.servlet.http.HttpSessionEvent event) {
					destroyed.add(event.getSession().getId());
				}

			}))
			.build();
		deployment.start();
		DeploymentContext context = (DeploymentContext) deployment.servletContext();
		MemorySession session = context.sessions().create();
		deployment.stop();
		assertThat(destroyed).containsExactly(session.getId());
		assertThat(context.sessions().size()).isZero();
	}

	@Test
	void validatesTheContextPath() {
		assertThat(ServletDeployment.builder().contextPath("/").build().servletContext().getContextPath()).isEmpty();
		for (String bad : List.of("app", "/app/", "/a b", "/a;b", "/a%20b", "//app")) {
			assertThatExceptionOfType(IllegalArgumentException.class)
				.isThrownBy(() -> ServletDeployment.builder().contextPath(bad))
				.withMessageContaining(bad);
		}
	}

	@Test
	void keepsTheMappingsOfAllInitParameters() throws ServletException {
		ServletDeployment deployment = ServletDeployment.builder().initializer((context) -> {
			ServletRegistration.Dynamic one = context.addServlet("one", new Recording("one", false));
			assertThat(one.setInitParameters(Map.of("a", "1"))).isEmpty();
			assertThat(one.setInitParameters(Map.of("a", "2", "b", "3"))).containsExactly("a");
			assertThat(one.setInitParameter("a", "4")).isFalse();
		}).build();
		deployment.start();
		assertThat(deployment.servletContext().getServletRegistration("one").getInitParameters())
			.containsExactly(Map.entry("a", "1"));
		deployment.stop();
	}

}
