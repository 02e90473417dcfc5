package dev.ariadne.servlet;

import java.util.Locale;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

/**
 * The response as an included servlet sees it (Servlet 6.1 section 9.3): it writes the body,
 * but what would change the status or the headers is ignored.
 */
final class IncludedResponse extends HttpServletResponseWrapper {

	IncludedResponse(HttpServletResponse response) {
		super(response);
	}

	@Override
	public void setStatus(int sc) {
	}

	@Override
	public void sendError(int sc, String msg) {
	}

	@Override
	public void sendError(int sc) {
	}

	@Override
	public void sendRedirect(String location, int sc, boolean clearBuffer) {
	}

	@Override
	public void sendRedirect(String location) {
	}

	@Override
	public void sendRedirect(String location, boolean clearBuffer) {
	}

	@Override
	public void sendRedirect(String location, int sc) {
	}

	@Override
	public void setHeader(String name, String value) {
	}

	@Override
	public void addHeader(String name, String value) {
	}

	@Override
	public void setIntHeader(String name, int value) {
	}

	@Override
	public void addIntHeader(String name, int value) {
	}

	@Override
	public void setDateHeader(String name, long date) {
	}

	@Override
	public void addDateHeader(String name, long date) {
	}

	@Override
	public void addCookie(Cookie cookie) {
	}

	@Override
	public void setContentType(String type) {
	}

	@Override
	public void setCharacterEncoding(String charset) {
	}

	@Override
	public void setContentLength(int len) {
	}

	@Override
	public void setContentLengthLong(long len) {
	}

	@Override
	public void setLocale(Locale loc) {
	}

	@Override
	public void setBufferSize(int size) {
	}

	@Override
	public void reset() {
	}

}
