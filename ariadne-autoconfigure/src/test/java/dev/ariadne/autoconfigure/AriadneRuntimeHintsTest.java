package dev.ariadne.autoconfigure;

import dev.ariadne.AriadneServer;
import dev.ariadne.autoconfigure.actuate.AriadneEndpointAutoConfiguration;
import dev.ariadne.autoconfigure.actuate.AriadneEndpointRuntimeHints;
import dev.ariadne.autoconfigure.actuate.DiagnosisDescriptor;
import dev.ariadne.autoconfigure.actuate.HistoryDescriptor;
import dev.ariadne.autoconfigure.actuate.ListenerDescriptor;
import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.AotServices;
import org.springframework.context.annotation.ImportRuntimeHints;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The hints a GraalVM native image of an application on Ariadne needs beyond what Spring's AOT
 * engine infers: each checked with {@link RuntimeHintsPredicates}, each resource checked to be
 * where the hint says, and each registrar checked to be found by the engine.
 */
class AriadneRuntimeHintsTest {

	private final ClassLoader classLoader = getClass().getClassLoader();

	@Test
	void registersTheCoreVersionResourceWhereTheCoreReadsIt() {
		RuntimeHints hints = hints(new AriadneRuntimeHints());
		assertThat(RuntimeHintsPredicates.resource().forResource("dev/ariadne/version.properties")).accepts(hints);
		assertThat(AriadneServer.class.getResource("version.properties")).as("the resource the hint names")
			.isEqualTo(this.classLoader.getResource(AriadneRuntimeHints.VERSION_RESOURCE));
	}

	@Test
	void registersTheVirtualThreadApiTheCoreInvokesByReflection() throws Exception {
		assumeTrue(Runtime.version().feature() >= 21, "the virtual-thread API is there from Java 21");
		RuntimeHints hints = hints(new AriadneRuntimeHints());
		// the very methods the core's VirtualThreads invokes
		Class<?> builder = Class.forName("java.lang.Thread$Builder");
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Thread.class.getMethod("ofVirtual")))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(builder.getMethod("name", String.class, long.class))).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(builder.getMethod("factory")))
			.accepts(hints);
	}

	@Test
	void registersTheLivePageAndTheJsonOfTheEndpointsParts() {
		RuntimeHints hints = hints(new AriadneEndpointRuntimeHints());
		assertThat(RuntimeHintsPredicates.resource().forResource("dev/ariadne/autoconfigure/actuate/ariadne-live.html"))
			.accepts(hints);
		assertThat(this.classLoader.getResource("dev/ariadne/autoconfigure/actuate/ariadne-live.html")).isNotNull();
		// records serialized by Jackson through their accessors, nested ones included
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(DiagnosisDescriptor.class, "pools"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(DiagnosisDescriptor.PoolDiagnosis.class, "advice")).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(DiagnosisDescriptor.AdviceDescriptor.class, "property")).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(HistoryDescriptor.class, "listeners"))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(HistoryDescriptor.ListenerHistory.class, "times")).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(ListenerDescriptor.PoolDescriptor.class, "saturation")).accepts(hints);
	}

	@Test
	void theEngineFindsTheRegistrars() {
		assertThat(AotServices.factories(this.classLoader).load(RuntimeHintsRegistrar.class))
			.hasAtLeastOneElementOfType(AriadneRuntimeHints.class);
		assertThat(AriadneEndpointAutoConfiguration.class.getAnnotation(ImportRuntimeHints.class).value())
			.containsExactly(AriadneEndpointRuntimeHints.class);
	}

	private RuntimeHints hints(RuntimeHintsRegistrar registrar) {
		RuntimeHints hints = new RuntimeHints();
		registrar.registerHints(hints, this.classLoader);
		return hints;
	}

}
