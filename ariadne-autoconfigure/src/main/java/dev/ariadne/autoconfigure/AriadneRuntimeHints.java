package dev.ariadne.autoconfigure;

import java.util.List;

import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;

/**
 * What a GraalVM native image of an application on Ariadne needs that Spring's AOT engine
 * cannot see in the bean definitions, registered for every application through
 * {@code META-INF/spring/aot.factories}:
 * <ul>
 * <li>the core's {@code dev/ariadne/version.properties}, read as a resource for the
 * {@code Server} header and {@code ariadne_server_info};</li>
 * <li>the virtual-thread API the core reaches by reflection, since it is compiled for Java 17
 * ({@code Thread.ofVirtual()}, {@code Thread.Builder.name(String, long)} and
 * {@code factory()}).</li>
 * </ul>
 * Spring Boot registers the binding of {@link AriadneServerProperties} itself, the entries of
 * {@code ariadne.server.additional-listeners} included. The {@code ariadne} endpoint's own
 * needs (the live page, the JSON of its parts) are registered with its auto-configuration.
 * Session persistence writes the container's own records with a {@code DataOutputStream}: only
 * the application's attribute classes go through Java serialization, and registering them is
 * the application's part.
 */
public final class AriadneRuntimeHints implements RuntimeHintsRegistrar {

	/** The core's version, a resource beside {@code dev.ariadne.AriadneServer}. */
	static final String VERSION_RESOURCE = "dev/ariadne/version.properties";

	@Override
	public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
		hints.resources().registerPattern(VERSION_RESOURCE);
		hints.reflection()
			.registerType(Thread.class, (type) -> type.withMethod("ofVirtual", List.of(), ExecutableMode.INVOKE));
		hints.reflection()
			.registerType(TypeReference.of("java.lang.Thread$Builder"),
					(type) -> type
						.withMethod("name", List.of(TypeReference.of(String.class), TypeReference.of(long.class)),
								ExecutableMode.INVOKE)
						.withMethod("factory", List.of(), ExecutableMode.INVOKE));
	}

}
