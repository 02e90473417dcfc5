package dev.ariadne.servlet;

import java.io.IOException;
import java.util.List;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;

/**
 * One pass through the filters of a dispatch to its servlet. Used once, by one thread.
 */
final class FilterChainRun implements FilterChain {

	private final List<FilterEntry> filters;

	private final ServletEntry servlet;

	private int position;

	FilterChainRun(List<FilterEntry> filters, ServletEntry servlet) {
		this.filters = filters;
		this.servlet = servlet;
	}

	@Override
	public void doFilter(ServletRequest request, ServletResponse response) throws IOException, ServletException {
		if (this.position < this.filters.size()) {
			FilterEntry next = this.filters.get(this.position++);
			next.filter().doFilter(request, response, this);
			return;
		}
		this.servlet.servlet().service(request, response);
	}

}
