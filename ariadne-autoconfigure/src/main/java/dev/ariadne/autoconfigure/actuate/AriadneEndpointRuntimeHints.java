package dev.ariadne.autoconfigure.actuate;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * What a GraalVM native image needs for the {@link AriadneEndpoint ariadne endpoint}, imported
 * by its auto-configuration: the live page, a resource of the jar, and the JSON of the
 * {@code diagnosis} and {@code history} parts, whose types the operation's declared result
 * ({@code WebEndpointResponse<Object>}) does not name, so that Actuator's own hints for
 * operation results cannot reach them.
 */
public final class AriadneEndpointRuntimeHints implements RuntimeHintsRegistrar {

	/** The live page, beside {@link AriadneEndpoint}. */
	static final String LIVE_PAGE = "dev/ariadne/autoconfigure/actuate/" + AriadneEndpoint.LIVE_PAGE;

	@Override
	public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
		hints.resources().registerPattern(LIVE_PAGE);
		new BindingReflectionHintsRegistrar().registerReflectionHints(hints.reflection(), DiagnosisDescriptor.class,
				HistoryDescriptor.class, AriadneEndpoint.ListenersDescriptor.class);
	}

}
