package dev.ariadne.autoconfigure.web;

import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.web.context.WebApplicationContext;
import org.springframework.web.context.support.WebApplicationContextUtils;
import org.springframework.web.servlet.mvc.condition.PathPatternsRequestCondition;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping;
import org.springframework.web.util.ServletRequestPathUtils;
import org.springframework.web.util.pattern.PathPattern;

/**
 * Finds the pattern of the handler an {@code OPTIONS} request was about. Spring MVC answers
 * such a request with its own {@code HttpOptionsHandler}, which leaves no best-matching pattern
 * behind, so without this the request would be counted under the servlet's mapping ({@code /})
 * rather than the route it asked about. Looks through the application's request mappings for
 * the most specific pattern that matches the path, whatever its methods; used for
 * {@code OPTIONS} requests only, never on the path of another. Loaded only where Spring MVC is.
 */
final class MvcOptionsRoutes {

	private volatile List<RequestMappingInfoHandlerMapping> mappings;

	/**
	 * Returns the pattern of the handlers mapped to the request's path.
	 * @param request an {@code OPTIONS} request that has been answered
	 * @return the most specific matching pattern, or {@code null} when none matches
	 */
	String pattern(HttpServletRequest request) {
		List<RequestMappingInfoHandlerMapping> mappings = mappings(request);
		if (mappings.isEmpty()) {
			return null;
		}
		boolean parsed = ServletRequestPathUtils.hasParsedRequestPath(request);
		if (!parsed) {
			ServletRequestPathUtils.parseAndCache(request);
		}
		try {
			PathPattern best = null;
			for (RequestMappingInfoHandlerMapping mapping : mappings) {
				for (RequestMappingInfo info : mapping.getHandlerMethods().keySet()) {
					PathPatternsRequestCondition patterns = info.getPathPatternsCondition();
					PathPatternsRequestCondition match = (patterns != null) ? patterns.getMatchingCondition(request) : null;
					if (match != null && (best == null
							|| PathPattern.SPECIFICITY_COMPARATOR.compare(match.getFirstPattern(), best) < 0)) {
						best = match.getFirstPattern();
					}
				}
			}
			return (best != null) ? best.getPatternString() : null;
		}
		finally {
			if (!parsed) {
				ServletRequestPathUtils.clearParsedRequestPath(request);
			}
		}
	}

	private List<RequestMappingInfoHandlerMapping> mappings(HttpServletRequest request) {
		List<RequestMappingInfoHandlerMapping> mappings = this.mappings;
		if (mappings == null) {
			WebApplicationContext context = WebApplicationContextUtils
				.getWebApplicationContext(request.getServletContext());
			if (context == null) {
				return List.of();
			}
			mappings = List.copyOf(context.getBeansOfType(RequestMappingInfoHandlerMapping.class).values());
			this.mappings = mappings;
		}
		return mappings;
	}

}
