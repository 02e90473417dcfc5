package dev.ariadne.autoconfigure;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The package rules of {@code docs/architecture.md} for {@code ariadne-autoconfigure}, checked
 * on its main classes (the core's own rules are checked in the core): Micrometer only in
 * {@code dev.ariadne.autoconfigure.metrics}, the core reached through its API only, no cycles
 * between packages.
 */
@AnalyzeClasses(packages = "dev.ariadne.autoconfigure", importOptions = ImportOption.DoNotIncludeTests.class)
class PackageRulesTest {

	@ArchTest
	static final ArchRule onlyTheMetricsPackageImportsMicrometer = noClasses().that()
		.resideOutsideOfPackage("dev.ariadne.autoconfigure.metrics..")
		.should()
		.dependOnClassesThat()
		.resideInAPackage("io.micrometer..")
		.because("Micrometer is optional: everything else must load without it");

	@ArchTest
	static final ArchRule onlyTheWebPackageImportsTheServletContainer = noClasses().that()
		.resideOutsideOfPackage("dev.ariadne.autoconfigure.web..")
		.should()
		.dependOnClassesThat()
		.resideInAnyPackage("dev.ariadne.servlet..", "jakarta.servlet..")
		.because("the servlet container is optional: a non-web application must load without it");

	@ArchTest
	static final ArchRule autoConfigurationUsesOnlyTheCoreApi = noClasses().that()
		.resideInAPackage("dev.ariadne.autoconfigure..")
		.should()
		.dependOnClassesThat()
		.resideInAnyPackage("dev.ariadne.server.blocking..", "dev.ariadne.server.connection..",
				"dev.ariadne.server.eventloop..", "dev.ariadne.server.internal..", "dev.ariadne.server.pool..",
				"dev.ariadne.server.transport..", "dev.ariadne.server.virtual..")
		.because("the core's API is dev.ariadne, dev.ariadne.server, its routing and stats packages, and the "
				+ "codec's constants; the rest may change without notice");

	@ArchTest
	static final ArchRule packagesAreFreeOfCycles = slices().matching("dev.ariadne.(**)")
		.should()
		.beFreeOfCycles();

}
