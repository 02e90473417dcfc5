package dev.ariadne.servlet;

import java.io.IOException;

import jakarta.servlet.GenericServlet;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletResponse;

/**
 * What serves a path that no servlet mapping matches, when there is no default servlet: a 404
 * through the error pages, after the filters mapped to the path have run.
 */
final class NotFoundServlet extends GenericServlet {

	private static final long serialVersionUID = 1L;

	@Override
	public void service(ServletRequest request, ServletResponse response) throws IOException {
		((HttpServletResponse) response).sendError(HttpServletResponse.SC_NOT_FOUND);
	}

}
