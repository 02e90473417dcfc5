package dev.ariadne.it.mvc;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.web.server.Cookie;
import org.springframework.boot.web.server.servlet.CookieSameSiteSupplier;
import org.springframework.context.annotation.Bean;
import org.springframework.core.io.Resource;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.servlet.config.annotation.AsyncSupportConfigurer;
import org.springframework.web.servlet.config.annotation.DefaultServletHandlerConfigurer;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The conformance application: what Spring MVC applications commonly use, in one application,
 * with nothing in it that knows about Ariadne. Its controllers are {@link ApiController},
 * {@link PageController} and {@link AsyncController}; this class adds
 * Spring Security (form login with CSRF for {@code /account/**}, role {@code ADMIN} for
 * {@code /admin/**}), a plain servlet filter on {@code /admin/*}, and static resources with
 * ETags under {@code /assets/**} beside Boot's own on {@code /**} (which serves
 * {@code src/main/webapp} too, the document root Boot finds in the module's directory).
 */
@SpringBootApplication
public class ConformanceApplication implements WebMvcConfigurer {

	/** The header {@link #adminKeyFilter()} wants, with {@link #ADMIN_KEY} as its value. */
	static final String ADMIN_KEY_HEADER = "X-Admin-Key";

	/** The value of {@link #ADMIN_KEY_HEADER} that lets a request past the filter. */
	static final String ADMIN_KEY = "open-sesame";

	@Bean
	SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
		http.authorizeHttpRequests((requests) -> requests.requestMatchers("/admin/**")
			.hasRole("ADMIN")
			.requestMatchers("/account/**")
			.authenticated()
			.anyRequest()
			.permitAll())
			.formLogin((login) -> login.defaultSuccessUrl("/account/me", true))
			.logout((logout) -> logout.logoutSuccessUrl("/login?logout"))
			.csrf((csrf) -> csrf.ignoringRequestMatchers("/api/**", "/async/**"));
		return http.build();
	}

	@Bean
	UserDetailsService users() {
		return new InMemoryUserDetailsManager(
				User.withUsername("ada").password("{noop}lovelace").roles("USER").build(),
				User.withUsername("root").password("{noop}secret").roles("USER", "ADMIN").build());
	}

	/**
	 * A plain servlet filter mapped to {@code /admin/*} by the container: it lets through only
	 * requests that carry the admin key, whoever Spring Security says they are.
	 * @return its registration
	 */
	@Bean
	FilterRegistrationBean<Filter> adminKeyFilter() {
		FilterRegistrationBean<Filter> registration = new FilterRegistrationBean<>((request, response, chain) -> {
			if (!ADMIN_KEY.equals(((HttpServletRequest) request).getHeader(ADMIN_KEY_HEADER))) {
				((HttpServletResponse) response).sendError(HttpServletResponse.SC_FORBIDDEN, "No admin key");
				return;
			}
			chain.doFilter(request, response);
		});
		registration.addUrlPatterns("/admin/*");
		registration.setName("adminKeyFilter");
		return registration;
	}

	@Bean
	Gate gate() {
		return new Gate();
	}

	/**
	 * Spring MVC's hand-off to the container's default servlet (the servlet named
	 * {@code default}) for what no handler maps, on when {@code conformance.default-servlet}
	 * is {@code true}: with {@code server.servlet.register-default-servlet=true} the container
	 * serves the files of {@code src/main/webapp}.
	 * @return the configurer
	 */
	@Bean
	@ConditionalOnProperty(name = "conformance.default-servlet", havingValue = "true")
	WebMvcConfigurer defaultServletHandling() {
		return new WebMvcConfigurer() {

			@Override
			public void configureDefaultServletHandling(DefaultServletHandlerConfigurer configurer) {
				configurer.enable();
			}

		};
	}

	/**
	 * A {@code SameSite} rule for every response cookie, as an application declares one: on
	 * when {@code conformance.cookie-same-site} names the value ({@code lax}, {@code omitted}...).
	 * @param sameSite the value
	 * @return the supplier
	 */
	@Bean
	@ConditionalOnProperty(name = "conformance.cookie-same-site")
	CookieSameSiteSupplier everyCookie(@Value("${conformance.cookie-same-site}") String sameSite) {
		return CookieSameSiteSupplier.of(Cookie.SameSite.valueOf(sameSite.toUpperCase(java.util.Locale.ROOT)));
	}

	@Override
	public void addResourceHandlers(ResourceHandlerRegistry registry) {
		registry.addResourceHandler("/assets/**")
			.addResourceLocations("classpath:/static/")
			.setEtagGenerator(ConformanceApplication::etag);
	}

	@Override
	public void configureAsyncSupport(AsyncSupportConfigurer configurer) {
		configurer.setDefaultTimeout(TimeUnit.SECONDS.toMillis(30));
	}

	private static String etag(Resource resource) {
		try {
			return Long.toHexString(resource.contentLength()) + "-" + Long.toHexString(resource.lastModified());
		}
		catch (IOException ex) {
			return null;
		}
	}

}
