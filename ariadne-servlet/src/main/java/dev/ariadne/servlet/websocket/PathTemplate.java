package dev.ariadne.servlet.websocket;

import java.util.Map;

/**
 * The path of an endpoint's URI template ({@code /chat/{room}}) with values for its variables,
 * which is the path the session of an {@code upgradeHttpToWebSocket} reports and the one its
 * template matches, giving back the same values.
 */
final class PathTemplate {

	private PathTemplate() {
	}

	/**
	 * Puts the values in for the template's variables; a variable without a value stays.
	 * @param template the template
	 * @param values the variables' values
	 * @return the path
	 */
	static String expand(String template, Map<String, String> values) {
		if (values == null || values.isEmpty() || template.indexOf('{') < 0) {
			return template;
		}
		StringBuilder path = new StringBuilder(template.length() + 16);
		int start = 0;
		while (start <= template.length()) {
			int end = template.indexOf('/', start);
			if (end < 0) {
				end = template.length();
			}
			String segment = template.substring(start, end);
			if (segment.length() > 2 && segment.charAt(0) == '{' && segment.charAt(segment.length() - 1) == '}') {
				String value = values.get(segment.substring(1, segment.length() - 1));
				path.append((value != null) ? value : segment);
			}
			else {
				path.append(segment);
			}
			if (end < template.length()) {
				path.append('/');
			}
			start = end + 1;
		}
		return path.toString();
	}

}
