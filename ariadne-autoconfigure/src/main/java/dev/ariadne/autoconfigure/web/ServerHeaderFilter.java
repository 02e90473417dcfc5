package dev.ariadne.autoconfigure.web;

import java.io.IOException;
import java.util.EnumSet;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletResponse;

import dev.ariadne.servlet.ServletStartup;

/**
 * Sets the {@code Server} header of every servlet response ({@code server.server-header}),
 * before the application runs, so that the application may still change or remove it.
 */
final class ServerHeaderFilter implements Filter {

	private final String value;

	private ServerHeaderFilter(String value) {
		this.value = value;
	}

	/**
	 * Returns an initializer that registers the filter first, for every request.
	 * @param value the header value
	 * @return the initializer
	 */
	static ServletStartup initializer(String value) {
		return (context) -> {
			FilterRegistration.Dynamic registration = context.addFilter("ariadneServerHeaderFilter",
					new ServerHeaderFilter(value));
			registration.setAsyncSupported(true);
			registration.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
		};
	}

	@Override
	public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		if (response instanceof HttpServletResponse http) {
			http.setHeader("Server", this.value);
		}
		chain.doFilter(request, response);
	}

}
