package dev.ariadne.server.diagnosis;

import java.util.Objects;

/**
 * One change a {@link Diagnosis} advises, with a value computed from what it observed.
 *
 * @param property what to change: an {@code ariadne.server.*} property, the kernel setting
 * {@link #SOMAXCONN}, or one of the actions {@link #INSTANCES}, {@link #CORES} and
 * {@link #HANDLER}
 * @param value the value to set: the property's value, the instances or cores to run, or the
 * route of the handler to fix
 * @param why what the change does, with the figures it was computed from
 */
public record Advice(String property, String value, String why) {

	/** The kernel's cap on every listen backlog ({@code sysctl net.core.somaxconn}). */
	public static final String SOMAXCONN = "net.core.somaxconn";

	/** The action of running more instances of the application; the value is how many. */
	public static final String INSTANCES = "instances";

	/** The action of giving the process more cores; the value is how many. */
	public static final String CORES = "cores";

	/**
	 * The action of fixing a handler (what it waits for, or how long it waits); the value is
	 * its route, or its application frame where no route is known.
	 */
	public static final String HANDLER = "handler";

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
