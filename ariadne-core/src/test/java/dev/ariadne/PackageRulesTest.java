package dev.ariadne;

import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The package rules of {@code docs/architecture.md}, checked on the main classes of
 * {@code ariadne-core}: what each package may import, no cycles between packages, the I/O
 * models apart from each other, the connection layer free of threads, and nothing but the JDK
 * underneath.
 */
@AnalyzeClasses(packages = "dev.ariadne", importOptions = ImportOption.DoNotIncludeTests.class)
class PackageRulesTest {

	private static final String HTTP = "dev.ariadne.http";

	private static final String HTTP2 = "dev.ariadne.http2..";

	private static final String WEBSOCKET = "dev.ariadne.websocket..";

	private static final String API = "dev.ariadne.server";

	private static final String SESSIONS = "dev.ariadne.server.websocket..";

	private static final String STATS = "dev.ariadne.server.stats..";

	private static final String INTERNAL = "dev.ariadne.server.internal..";

	private static final String ROUTING = "dev.ariadne.server.routing..";

	private static final String POOL = "dev.ariadne.server.pool..";

	private static final String CONNECTION = "dev.ariadne.server.connection..";

	private static final String PROTOCOL = "dev.ariadne.server.protocol..";

	private static final String TRANSPORT = "dev.ariadne.server.transport..";

	private static final String DIAGNOSIS = "dev.ariadne.server.diagnosis..";

	private static final String TLS = "dev.ariadne.server.tls..";

	private static final String ACCESS_LOG = "dev.ariadne.server.accesslog..";

	/** The JDK's TLS API, which the layers that deal with TLS may use beside {@code java.*}. */
	private static final String JSSE = "javax.net.ssl..";

	private static final String[] MODELS = { "dev.ariadne.server.blocking..", "dev.ariadne.server.eventloop..",
			"dev.ariadne.server.virtual.." };

	@ArchTest
	static final ArchRule codecImportsOnlyJava = mayImport(HTTP);

	@ArchTest
	static final ArchRule http2CodecImportsOnlyJavaAndTheCodec = mayImport(HTTP2, HTTP);

	@ArchTest
	static final ArchRule websocketCodecImportsOnlyJavaAndTheCodec = mayImport(WEBSOCKET, HTTP);

	@ArchTest
	static final ArchRule websocketSessionsImportOnlyTheApiAndTheCodec = mayImport(SESSIONS, API, WEBSOCKET, HTTP, STATS);

	@ArchTest
	static final ArchRule statisticsImportOnlyJava = mayImport(STATS);

	@ArchTest
	static final ArchRule internalsImportOnlyJava = mayImport(INTERNAL);

	@ArchTest
	static final ArchRule apiImportsOnlyCodecStatisticsAndTheAccessLog = mayImport(API, HTTP, STATS, ACCESS_LOG, JSSE);

	@ArchTest
	static final ArchRule accessLogImportsOnlyTheCodec = mayImport(ACCESS_LOG, HTTP);

	@ArchTest
	static final ArchRule tlsImportsOnlyApiStatisticsAndInternals = mayImport(TLS, API, STATS, INTERNAL, JSSE);

	@ArchTest
	static final ArchRule routingImportsOnlyApiCodecAndStatistics = mayImport(ROUTING, HTTP, API, STATS);

	@ArchTest
	static final ArchRule poolsImportOnlyApiStatisticsAndInternals = mayImport(POOL, API, STATS, INTERNAL);

	@ArchTest
	static final ArchRule connectionImportsNoTransportAndNoModel = mayImport(CONNECTION, HTTP, API, ROUTING, STATS,
			INTERNAL, POOL, TLS, ACCESS_LOG, JSSE);

	@ArchTest
	static final ArchRule protocolImportsNoTransportAndNoModel = mayImport(PROTOCOL, HTTP, HTTP2, API, ROUTING, STATS,
			INTERNAL, POOL, CONNECTION, JSSE);

	@ArchTest
	static final ArchRule transportImportsNoModel = mayImport(TRANSPORT, HTTP, API, STATS, INTERNAL, POOL,
			CONNECTION, PROTOCOL, TLS, JSSE);

	@ArchTest
	static final ArchRule diagnosisReadsOnlyTheStatisticsAndTheApi = mayImport(DIAGNOSIS, API, STATS);

	@ArchTest
	static final ArchRule modelsImportOnlyTheLayersBelow = classes().that()
		.resideInAnyPackage(MODELS)
		.should()
		.onlyDependOnClassesThat()
		.resideInAnyPackage(
				concat(MODELS, "java..", HTTP, API, ROUTING, STATS, INTERNAL, POOL, CONNECTION, PROTOCOL, TRANSPORT, TLS,
						JSSE));

	@ArchTest
	static final ArchRule blockingImportsNoOtherModel = noClasses().that()
		.resideInAPackage(MODELS[0])
		.should()
		.dependOnClassesThat()
		.resideInAnyPackage(MODELS[1], MODELS[2]);

	@ArchTest
	static final ArchRule eventLoopImportsNoOtherModel = noClasses().that()
		.resideInAPackage(MODELS[1])
		.should()
		.dependOnClassesThat()
		.resideInAnyPackage(MODELS[0], MODELS[2]);

	@ArchTest
	static final ArchRule virtualThreadsImportNoOtherModel = noClasses().that()
		.resideInAPackage(MODELS[2])
		.should()
		.dependOnClassesThat()
		.resideInAnyPackage(MODELS[0], MODELS[1]);

	@ArchTest
	static final ArchRule exchangesAndProtocolsStartNoThreadAndNeverSleep = noClasses().that()
		.resideInAnyPackage(CONNECTION, PROTOCOL)
		.should()
		.callMethodWhere(target(owner(assignableTo(Thread.class))).and(target(name("start").or(name("sleep")))))
		.orShould()
		.callConstructorWhere(target(owner(assignableTo(Thread.class))))
		.orShould()
		.dependOnClassesThat()
		.areAssignableTo(ThreadFactory.class)
		.orShould()
		.dependOnClassesThat()
		.areAssignableTo(Executors.class)
		.orShould()
		.dependOnClassesThat()
		.areAssignableTo(Selector.class)
		.orShould()
		.dependOnClassesThat()
		.areAssignableTo(SelectionKey.class)
		.because("the exchange and the protocols run on whatever thread their model gives them; threads and "
				+ "selectors are the transports' business");

	@ArchTest
	static final ArchRule coreNeedsNothingButTheJdk = classes().should()
		.onlyDependOnClassesThat()
		.resideInAnyPackage("java..", "javax..", "dev.ariadne..")
		.because("ariadne-core is plain Java: no Spring, no Micrometer");

	@ArchTest
	static final ArchRule packagesAreFreeOfCycles = slices().matching("dev.(**)").should().beFreeOfCycles();

	/** Classes of a package may use java.* and their own package, and the packages named. */
	private static ArchRule mayImport(String pkg, String... allowed) {
		return classes().that()
			.resideInAPackage(pkg)
			.should()
			.onlyDependOnClassesThat()
			.resideInAnyPackage(concat(allowed, "java..", pkg));
	}

	private static String[] concat(String[] first, String... more) {
		String[] all = new String[first.length + more.length];
		System.arraycopy(first, 0, all, 0, first.length);
		System.arraycopy(more, 0, all, first.length, more.length);
		return all;
	}

}
