package dev.ariadne.server.routing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A parsed path template: literal segments, {@code {name}} variables and an optional trailing
 * {@code {*name}} catch-all.
 */
final class RouteTemplate {

	private final String text;

	private final String[] literals;

	private final String[] variables;

	private final String catchAll;

	private RouteTemplate(String text, String[] literals, String[] variables, String catchAll) {
		this.text = text;
		this.literals = literals;
		this.variables = variables;
		this.catchAll = catchAll;
	}

	static RouteTemplate parse(String template) {
		if (template == null || template.isEmpty() || template.charAt(0) != '/') {
			throw new IllegalArgumentException("Route template must start with '/': '" + template + "'");
		}
		List<String> segments = PathSegments.split(template);
		int count = segments.size();
		String catchAll = null;
		if (count > 0 && segments.get(count - 1).startsWith("{*")) {
			catchAll = variableName(template, segments.get(count - 1), 2);
			count--;
		}
		String[] literals = new String[count];
		String[] variables = new String[count];
		List<String> names = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			String segment = segments.get(i);
			if (segment.startsWith("{")) {
				variables[i] = variableName(template, segment, 1);
				if (names.contains(variables[i])) {
					throw new IllegalArgumentException("Route template repeats variable '" + variables[i] + "': '"
							+ template + "'");
				}
				names.add(variables[i]);
			}
			else if (segment.indexOf('{') >= 0 || segment.indexOf('}') >= 0) {
				throw new IllegalArgumentException("Route template segment must be a literal, {name} or a final "
						+ "{*name}: '" + template + "'");
			}
			else {
				literals[i] = segment;
			}
		}
		if (catchAll != null && names.contains(catchAll)) {
			throw new IllegalArgumentException("Route template repeats variable '" + catchAll + "': '" + template + "'");
		}
		return new RouteTemplate(template, literals, variables, catchAll);
	}

	private static String variableName(String template, String segment, int prefix) {
		if (!segment.endsWith("}") || segment.length() <= prefix + 1) {
			throw new IllegalArgumentException("Malformed variable '" + segment + "' in route template '" + template
					+ "'");
		}
		String name = segment.substring(prefix, segment.length() - 1);
		if (name.indexOf('{') >= 0 || name.indexOf('}') >= 0 || name.indexOf('*') >= 0) {
			throw new IllegalArgumentException("Malformed variable '" + segment + "' in route template '" + template
					+ "'");
		}
		return name;
	}

	String text() {
		return this.text;
	}

	boolean isLiteral() {
		if (this.catchAll != null) {
			return false;
		}
		for (String variable : this.variables) {
			if (variable != null) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Matches decoded path segments, putting variables into {@code into} when it matches. A
	 * variable never matches an empty segment.
	 */
	boolean matches(List<String> segments, Map<String, String> into) {
		int count = this.literals.length;
		if (segments.size() < count || (this.catchAll == null && segments.size() != count)) {
			return false;
		}
		for (int i = 0; i < count; i++) {
			String segment = segments.get(i);
			boolean matched = (this.literals[i] != null) ? this.literals[i].equals(segment) : !segment.isEmpty();
			if (!matched) {
				return false;
			}
		}
		if (into != null) {
			for (int i = 0; i < count; i++) {
				if (this.variables[i] != null) {
					into.put(this.variables[i], segments.get(i));
				}
			}
			if (this.catchAll != null) {
				into.put(this.catchAll, String.join("/", segments.subList(count, segments.size())));
			}
		}
		return true;
	}

	/** Literal templates sort first, then templates with more literal segments. */
	int specificity() {
		int literalCount = 0;
		for (String literal : this.literals) {
			if (literal != null) {
				literalCount++;
			}
		}
		return literalCount * 2 + ((this.catchAll == null) ? 1 : 0);
	}

}
