package dev.ariadne.server.diagnosis;

import java.util.Objects;

/**
 * One change a {@link Diagnosis} advises, with a value computed from what it observed.
 *
 * @param property what to change: an {@code ariadne.server.*} property, a kernel setting
 * ({@code net.core.somaxconn}), {@code instances}, or, for a pool blocked downstream, the
 * application frame whose downstream needs sizing
 * @param value the value to set
 * @param why what the change does, with the figures it was computed from
 */
public record Advice(String property, String value, String why) {

	/**
	 * Checks every component.
	 */
	public Advice {
		Objects.requireNonNull(property, "property");
		Objects.requireNonNull(value, "value");
		Objects.requireNonNull(why, "why");
	}

	@Override
	public String toString() {
		return this.property + "=" + this.value + " (" + this.why + ")";
	}

}
