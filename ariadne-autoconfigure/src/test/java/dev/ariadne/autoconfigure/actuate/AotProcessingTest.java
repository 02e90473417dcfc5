package dev.ariadne.autoconfigure.actuate;

import dev.ariadne.autoconfigure.AdditionalListenerProperties;
import dev.ariadne.autoconfigure.AriadneServerProperties;
import org.junit.jupiter.api.Test;

import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.javapoet.ClassName;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Route application with Actuator, processed by Spring's AOT engine as Boot's
 * {@code process-aot} does at build time: the processing succeeds, and the hints a native image
 * needs come out of it, Ariadne's own (found through {@code aot.factories} and the endpoint's
 * {@code @ImportRuntimeHints}) and Boot's binding of {@code ariadne.server.*}, the entries of
 * {@code additional-listeners} included.
 */
class AotProcessingTest {

	@Test
	void processesARouteApplicationAheadOfTimeWithTheHintsItNeeds() {
		ActuatorContextRunners.actuator()
			.withPropertyValues("ariadne.server.additional-listeners[0].port=0")
			.prepare((context) -> {
				DefaultGenerationContext generation = new DefaultGenerationContext(
						new ClassNameGenerator(ClassName.get("dev.ariadne.aot", "RouteApplication")),
						new InMemoryGeneratedFiles());
				new ApplicationContextAotGenerator()
					.processAheadOfTime((GenericApplicationContext) context.getSourceApplicationContext(), generation);
				RuntimeHints hints = generation.getRuntimeHints();
				assertThat(RuntimeHintsPredicates.resource().forResource("dev/ariadne/version.properties"))
					.accepts(hints);
				assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Thread.class, "ofVirtual"))
					.accepts(hints);
				assertThat(RuntimeHintsPredicates.resource().forResource(AriadneEndpointRuntimeHints.LIVE_PAGE))
					.accepts(hints);
				assertThat(RuntimeHintsPredicates.reflection()
					.onMethodInvocation(DiagnosisDescriptor.PoolDiagnosis.class, "cause")).accepts(hints);
				assertThat(RuntimeHintsPredicates.reflection()
					.onMethodInvocation(AriadneServerProperties.Threads.class, "setMax")).accepts(hints);
				assertThat(RuntimeHintsPredicates.reflection()
					.onMethodInvocation(AdditionalListenerProperties.class, "setPort")).accepts(hints);
				assertThat(RuntimeHintsPredicates.reflection()
					.onMethodInvocation(AdditionalListenerProperties.Http2.class, "setEnabled")).accepts(hints);
			});
	}

}
