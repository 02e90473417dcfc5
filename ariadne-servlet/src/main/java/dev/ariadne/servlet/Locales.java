package dev.ariadne.servlet;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Reads {@code Accept-Language} (RFC 9110 section 12.5.4): locales by descending weight, in
 * order of appearance among equal weights; {@code *} and zero weights are left out.
 */
final class Locales {

	private Locales() {
	}

	private record Weighted(Locale locale, double weight, int position) {
	}

	/**
	 * Parses the {@code Accept-Language} fields of a request.
	 * @param headers the field values
	 * @return the locales, preferred first; the server's default locale when none is given
	 */
	static List<Locale> parse(List<String> headers) {
		List<Weighted> found = new ArrayList<>();
		for (String header : headers) {
			for (String range : header.split(",")) {
				Weighted weighted = range(range.trim(), found.size());
				if (weighted != null) {
					found.add(weighted);
				}
			}
		}
		found.sort(Comparator.comparingDouble(Weighted::weight).reversed().thenComparingInt(Weighted::position));
		List<Locale> locales = new ArrayList<>(found.size());
		for (Weighted weighted : found) {
			locales.add(weighted.locale());
		}
		if (locales.isEmpty()) {
			locales.add(Locale.getDefault());
		}
		return locales;
	}

	private static Weighted range(String range, int position) {
		if (range.isEmpty()) {
			return null;
		}
		double weight = 1.0;
		int semicolon = range.indexOf(';');
		String tag = (semicolon < 0) ? range : range.substring(0, semicolon).trim();
		if (semicolon >= 0) {
			String parameter = range.substring(semicolon + 1).trim();
			if (parameter.startsWith("q=") || parameter.startsWith("Q=")) {
				try {
					weight = Double.parseDouble(parameter.substring(2).trim());
				}
				catch (NumberFormatException ex) {
					return null;
				}
			}
		}
		if (weight <= 0 || tag.equals("*") || !tag.matches("[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*")) {
			return null;
		}
		return new Weighted(Locale.forLanguageTag(tag), weight, position);
	}

}
