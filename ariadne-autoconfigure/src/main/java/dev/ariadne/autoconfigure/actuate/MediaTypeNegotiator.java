package dev.ariadne.autoconfigure.actuate;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

import org.springframework.util.InvalidMimeTypeException;
import org.springframework.util.MimeType;
import org.springframework.util.MimeTypeUtils;

/**
 * Chooses the media type of an operation's response from the request's {@code Accept} header
 * and the types the operation produces, with spring-core's {@link MimeType} since spring-web's
 * {@code MediaType} is not on the class path.
 *
 * <p>Accepted types are tried from the highest quality ({@code q}) down, the more specific
 * first among equals; the first produced type compatible with one of them wins. Types with
 * {@code q=0} are never chosen. Without an {@code Accept} header the first produced type wins.
 * Parameters other than {@code q} do not take part in the comparison, so {@code text/plain}
 * chooses {@code text/plain;version=0.0.4;charset=utf-8}.
 */
final class MediaTypeNegotiator {

	private static final String QUALITY = "q";

	private static final Comparator<MimeType> PREFERENCE = Comparator
		.comparingDouble(MediaTypeNegotiator::quality)
		.thenComparingInt(MediaTypeNegotiator::specificity)
		.reversed();

	private final List<MimeType> produced;

	/**
	 * Creates a negotiator for one operation.
	 * @param produced the types the operation produces, in its order of preference; when
	 * empty, JSON is assumed
	 */
	MediaTypeNegotiator(Collection<String> produced) {
		this.produced = produced.isEmpty() ? List.of(MimeTypeUtils.APPLICATION_JSON)
				: produced.stream().map(MimeTypeUtils::parseMimeType).toList();
	}

	/**
	 * Returns the produced type to answer with.
	 * @param accept the values of the {@code Accept} header fields, possibly empty
	 * @return the type, or {@code null} if the operation produces nothing acceptable
	 * @throws InvalidMimeTypeException if the header cannot be parsed
	 */
	MimeType negotiate(List<String> accept) {
		List<MimeType> accepted = parse(accept);
		if (accepted.isEmpty()) {
			return this.produced.get(0);
		}
		for (MimeType candidate : accepted) {
			if (quality(candidate) <= 0) {
				break;
			}
			for (MimeType type : this.produced) {
				if (candidate.isCompatibleWith(type)) {
					return type;
				}
			}
		}
		return null;
	}

	private static List<MimeType> parse(List<String> accept) {
		List<MimeType> types = new ArrayList<>();
		for (String value : accept) {
			if (!value.isBlank()) {
				types.addAll(MimeTypeUtils.parseMimeTypes(value));
			}
		}
		types.sort(PREFERENCE);
		return types;
	}

	private static double quality(MimeType type) {
		String quality = type.getParameter(QUALITY);
		if (quality == null) {
			return 1;
		}
		try {
			double value = Double.parseDouble(quality);
			return (value >= 0 && value <= 1) ? value : 0;
		}
		catch (NumberFormatException ex) {
			throw new InvalidMimeTypeException(type.toString(), "invalid quality value '" + quality + "'");
		}
	}

	/** Concrete types before {@code type/*}, which comes before {@code *}{@code /*}. */
	private static int specificity(MimeType type) {
		if (type.isWildcardType()) {
			return 0;
		}
		return type.isWildcardSubtype() ? 1 : 2;
	}

}
