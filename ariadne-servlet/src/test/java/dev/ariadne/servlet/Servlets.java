package dev.ariadne.servlet;

import java.io.IOException;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Plain servlets and filters for the tests, written as lambdas.
 */
final class Servlets {

	private Servlets() {
	}

	@FunctionalInterface
	interface Body {

		void handle(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException;

	}

	@FunctionalInterface
	interface FilterBody {

		void handle(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
				throws IOException, ServletException;

	}

	/** A servlet whose {@code service} is the body, for every method. */
	static HttpServlet of(Body body) {
		return new HttpServlet() {

			private static final long serialVersionUID = 1L;

			@Override
			protected void service(HttpServletRequest request, HttpServletResponse response)
					throws IOException, ServletException {
				body.handle(request, response);
			}

		};
	}

	/** A servlet answering GET (and so HEAD, through {@code HttpServlet}) with the body. */
	static HttpServlet get(Body body) {
		return new HttpServlet() {

			private static final long serialVersionUID = 1L;

			@Override
			protected void doGet(HttpServletRequest request, HttpServletResponse response)
					throws IOException, ServletException {
				body.handle(request, response);
			}

		};
	}

	static Filter filter(FilterBody body) {
		return (request, response, chain) -> body.handle((HttpServletRequest) request, (HttpServletResponse) response,
				chain);
	}

	/** Appends a mark to the request attribute {@code trace}. */
	static void trace(ServletRequest request, String mark) {
		Object trace = request.getAttribute("trace");
		request.setAttribute("trace", (trace == null) ? mark : trace + "," + mark);
	}

	static void write(ServletResponse response, String text) throws IOException {
		response.getWriter().write(text);
	}

}
