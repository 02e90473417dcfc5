package dev.ariadne.autoconfigure;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import dev.ariadne.http.ParserLimits;
import dev.ariadne.server.AccessLogConfig;
import dev.ariadne.server.ForwardedConfig;
import dev.ariadne.server.Http2Config;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.WebSocketConfig;
import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.mock.env.MockEnvironment;
import org.springframework.util.unit.DataSize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link AriadneServerConfigMapper}.
 */
class AriadneServerConfigMapperTest {

	private final MockEnvironment environment = new MockEnvironment();

	private final AriadneServerConfigMapper mapper = new AriadneServerConfigMapper(this.environment);

	@Test
	void defaultPropertiesGiveTheServersDefaults() {
		assertThat(this.mapper.map(new AriadneServerProperties(), List.of())).isEqualTo(ServerConfig.defaults());
	}

	@Test
	void mapsEveryProperty() throws Exception {
		AriadneServerProperties properties = new AriadneServerProperties();
		properties.setPort(9090);
		properties.setAddress(InetAddress.getLoopbackAddress());
		properties.setIoModel(IoModel.VIRTUAL_THREADS);
		properties.setSelectors(3);
		properties.setAcceptBacklog(50);
		properties.setMaxConnections(1000);
		properties.getThreads().setMax(20);
		properties.getThreads().setMin(2);
		properties.getThreads().setQueueCapacity(30);
		properties.getKeepAlive().setEnabled(false);
		properties.getKeepAlive().setTimeout(Duration.ofSeconds(3));
		properties.getKeepAlive().setMaxRequests(7);
		properties.getKeepAlive().setReleaseThreshold(0.5);
		properties.getRequest().setHeaderTimeout(Duration.ofSeconds(4));
		properties.getRequest().setMaxLineLength(DataSize.ofKilobytes(1));
		properties.getRequest().setMaxHeaderSize(DataSize.ofKilobytes(2));
		properties.getRequest().setMaxHeaderCount(10);
		properties.getRequest().setMaxBodySize(DataSize.ofGigabytes(4));
		properties.getRequest().setMinDataRate(DataSize.ofBytes(300));
		properties.getRequest().setMinDataRateGrace(Duration.ofSeconds(6));
		properties.getLowResources().setEnabled(false);
		properties.getLowResources().setStallTimeout(Duration.ofMillis(700));
		properties.getShutdown().setGracePeriod(Duration.ofSeconds(5));
		ServerConfig config = this.mapper.map(properties, List.of());
		assertThat(config).isEqualTo(ServerConfig.builder()
			.port(9090)
			.address(InetAddress.getLoopbackAddress())
			.ioModel(IoModel.VIRTUAL_THREADS)
			.selectors(3)
			.acceptBacklog(50)
			.maxConnections(1000)
			.maxThreads(20)
			.minThreads(2)
			.queueCapacity(30)
			.keepAliveEnabled(false)
			.keepAliveTimeout(Duration.ofSeconds(3))
			.keepAliveMaxRequests(7)
			.keepAliveReleaseThreshold(0.5)
			.headerTimeout(Duration.ofSeconds(4))
			.limits(new ParserLimits(1024, 2048, 10, 4L * 1024 * 1024 * 1024))
			.minDataRate(300)
			.minDataRateGrace(Duration.ofSeconds(6))
			.lowResourcesEnabled(false)
			.lowResourcesStallTimeout(Duration.ofMillis(700))
			.shutdownGracePeriod(Duration.ofSeconds(5))
			.build());
	}

	@Test
	void mapsEveryHttp2Property() {
		AriadneServerProperties properties = new AriadneServerProperties();
		AriadneServerProperties.Http2 http2 = properties.getHttp2();
		http2.setEnabled(true);
		http2.setMaxConcurrentStreams(64);
		http2.setInitialWindowSize(DataSize.ofKilobytes(256));
		http2.setConnectionWindowSize(DataSize.ofMegabytes(4));
		http2.setMaxFrameSize(DataSize.ofKilobytes(32));
		http2.setMaxHeaderListSize(DataSize.ofKilobytes(12));
		http2.setMaxControlFrames(500);
		http2.setMaxResets(50);
		http2.setRateWindow(Duration.ofSeconds(10));
		http2.setWriteTimeout(Duration.ofSeconds(5));
		ServerConfig config = this.mapper.map(properties, List.of());
		assertThat(config.http2Enabled()).isTrue();
		assertThat(config.http2()).isEqualTo(new Http2Config(64, 256 * 1024, 4 * 1024 * 1024, 32 * 1024, 12 * 1024,
				500, 50, Duration.ofSeconds(10), Duration.ofSeconds(5)));
	}

	@Test
	void mapsEveryWebSocketPropertyAndNamesAnInvalidOne() {
		AriadneServerProperties properties = new AriadneServerProperties();
		assertThat(this.mapper.map(properties, List.of()).webSocket()).isEqualTo(WebSocketConfig.DEFAULTS);
		AriadneServerProperties.WebSocket webSocket = properties.getWebsocket();
		webSocket.setIdleTimeout(Duration.ofSeconds(30));
		webSocket.setPingInterval(Duration.ofSeconds(10));
		webSocket.setMaxMessageSize(DataSize.ofMegabytes(16));
		webSocket.setMaxFrameSize(DataSize.ofMegabytes(1));
		webSocket.setMaxSessions(1000);
		webSocket.setPermessageDeflate(false);
		assertThat(this.mapper.map(properties, List.of()).webSocket()).isEqualTo(new WebSocketConfig(
				Duration.ofSeconds(30), Duration.ofSeconds(10), 16 * 1024 * 1024, 1024 * 1024, 1000, false));
		webSocket.setMaxSessions(-1);
		assertThatIllegalArgumentException().isThrownBy(() -> this.mapper.map(properties, List.of()))
			.withMessageStartingWith("ariadne.server.websocket.max-sessions must be 0 (no limit) or more, but was -1");
		webSocket.setMaxSessions(0);
		webSocket.setIdleTimeout(Duration.ZERO);
		assertThatIllegalArgumentException().isThrownBy(() -> this.mapper.map(properties, List.of()))
			.withMessageStartingWith("ariadne.server.websocket.idle-timeout must be greater than 0");
		webSocket.setIdleTimeout(Duration.ofSeconds(1));
		webSocket.setMaxMessageSize(DataSize.ofGigabytes(3));
		assertThatExceptionOfType(InvalidConfigurationPropertyValueException.class)
			.isThrownBy(() -> this.mapper.map(properties, List.of()))
			.withMessageContaining("ariadne.server.websocket.max-message-size");
	}

	@Test
	void http2DefaultsAreTheServersAndAnInvalidOneIsNamed() {
		AriadneServerProperties properties = new AriadneServerProperties();
		assertThat(this.mapper.map(properties, List.of()).http2()).isEqualTo(Http2Config.DEFAULTS);
		properties.getHttp2().setMaxFrameSize(DataSize.ofKilobytes(8));
		assertThatIllegalArgumentException().isThrownBy(() -> this.mapper.map(properties, List.of()))
			.withMessageStartingWith("ariadne.server.http2.max-frame-size must be between 16384B (16KB) and 16777215B");
		properties.getHttp2().setMaxFrameSize(null);
		properties.getHttp2().setInitialWindowSize(DataSize.ofGigabytes(3));
		assertThatExceptionOfType(InvalidConfigurationPropertyValueException.class)
			.isThrownBy(() -> this.mapper.map(properties, List.of()))
			.withMessageContaining("ariadne.server.http2.initial-window-size")
			.withMessageContaining("must be at most 2147483647 bytes");
		properties.getHttp2().setInitialWindowSize(null);
		properties.getHttp2().setMaxConcurrentStreams(0);
		assertThatIllegalArgumentException().isThrownBy(() -> this.mapper.map(properties, List.of()))
			.withMessageStartingWith("ariadne.server.http2.max-concurrent-streams must be at least 1, but was 0");
	}

	@Test
	void mapsTheAccessLogAndNamesABadValue() {
		AriadneServerProperties properties = new AriadneServerProperties();
		AriadneServerProperties.Accesslog log = properties.getAccesslog();
		log.setEnabled(true);
		log.setFormat(AccessLogConfig.Format.JSON);
		log.setPattern(" ");
		log.setConsole(true);
		log.setDirectory("/var/log/app");
		log.setPrefix("requests");
		log.setSuffix(".txt");
		log.setFileDateFormat("-yyyyMMdd-HH");
		log.setRotate(false);
		log.setMaxDays(7);
		log.setQueueCapacity(100);
		assertThat(this.mapper.map(properties, List.of()).accessLog()).isEqualTo(new AccessLogConfig(true,
				AccessLogConfig.Format.JSON, null, true, Path.of("/var/log/app"), "requests", ".txt", "-yyyyMMdd-HH",
				false, 7, 100));
		log.setPattern("%h %{wait}x %Q");
		this.environment.setProperty("ariadne.server.accesslog.pattern", "%h %{wait}x %Q");
		assertThatExceptionOfType(InvalidConfigurationPropertyValueException.class)
			.isThrownBy(() -> this.mapper.map(properties, List.of()))
			.withMessageContaining("ariadne.server.accesslog.pattern")
			.withMessageContaining("has the unknown code %Q at index 12");
		log.setPattern(null);
		log.setDirectory("a\u0000b");
		assertThatExceptionOfType(InvalidConfigurationPropertyValueException.class)
			.isThrownBy(() -> this.mapper.map(properties, List.of()))
			.withMessageContaining("ariadne.server.accesslog.directory");
	}

	@Test
	void theManagementListenerLogsToFilesOfItsOwnAsBootsManagementServerDoes() {
		AccessLogConfig application = AccessLogConfig.builder().enabled(true).prefix("access_log").build();
		AccessLogConfig management = AriadneServerSettings.managementAccessLog(application);
		assertThat(management.prefix()).isEqualTo("management_access_log");
		assertThat(management.toBuilder().prefix("access_log").build()).isEqualTo(application);
		assertThat(AriadneServerSettings.managementAccessLog(management)).isEqualTo(management);
		assertThat(AriadneServerSettings.managementAccessLog(AccessLogConfig.DISABLED)).isEqualTo(AccessLogConfig.DISABLED);
	}

	@Test
	void forwardedHeadersAreOffUnlessSetOrOnACloudPlatformAndABadProxyIsNamed() {
		AriadneServerProperties properties = new AriadneServerProperties();
		assertThat(this.mapper.map(properties, List.of()).forwarded()).isEqualTo(ForwardedConfig.DISABLED);
		this.environment.setProperty("spring.main.cloud-platform", "kubernetes");
		assertThat(this.mapper.map(properties, List.of()).forwarded().enabled()).isTrue();
		properties.getForwarded().setEnabled(false);
		assertThat(this.mapper.map(properties, List.of()).forwarded().enabled()).isFalse();
		properties.getForwarded().setEnabled(true);
		properties.getForwarded().setTrustedProxies(List.of("10.0.0.0/8", "proxy.internal"));
		assertThatIllegalArgumentException().isThrownBy(() -> this.mapper.map(properties, List.of()))
			.withMessageStartingWith("ariadne.server.forwarded.trusted-proxies must be an IPv4 or IPv6 address or a "
					+ "CIDR block");
	}

	@Test
	void aZeroMinimumDataRateTurnsTheRateOffAndANegativeOneIsNamed() {
		AriadneServerProperties properties = new AriadneServerProperties();
		properties.getRequest().setMinDataRate(DataSize.ofBytes(0));
		assertThat(this.mapper.map(properties, List.of()).minDataRate()).isZero();
		properties.getRequest().setMinDataRate(DataSize.ofBytes(-1));
		assertThatIllegalArgumentException().isThrownBy(() -> this.mapper.map(properties, List.of()))
			.withMessageStartingWith("ariadne.server.request.min-data-rate must be 0 (no minimum) or more");
	}

	@Test
	void aZeroStallTimeoutIsNamed() {
		AriadneServerProperties properties = new AriadneServerProperties();
		properties.getLowResources().setStallTimeout(Duration.ZERO);
		assertThatIllegalArgumentException().isThrownBy(() -> this.mapper.map(properties, List.of()))
			.withMessageStartingWith("ariadne.server.low-resources.stall-timeout must be greater than 0");
	}

	@Test
	void unsetOptionalPropertiesKeepTheServersDerivedDefaults() {
		AriadneServerProperties properties = new AriadneServerProperties();
		properties.getThreads().setMax(4);
		properties.setMaxConnections(500);
		ServerConfig config = this.mapper.map(properties, List.of());
		assertThat(config.minThreads()).isEqualTo(4);
		assertThat(config.queueCapacity()).isEqualTo(500);
		assertThat(config.selectors()).isEqualTo(ServerConfig.defaultSelectors());
	}

	@Test
	void unsetSizesAndDurationsKeepTheirDefaults() {
		AriadneServerProperties properties = new AriadneServerProperties();
		properties.getRequest().setMaxLineLength(null);
		properties.getRequest().setMaxBodySize(null);
		properties.getKeepAlive().setTimeout(null);
		ServerConfig config = this.mapper.map(properties, List.of());
		assertThat(config.limits()).isEqualTo(ParserLimits.DEFAULTS);
		assertThat(config.keepAliveTimeout()).isEqualTo(ServerConfig.DEFAULT_KEEP_ALIVE_TIMEOUT);
	}

	@Test
	void invalidPropertyIsNamedWithItsConfiguredValue() {
		this.environment.setProperty("ariadne.server.threads.min", "300");
		AriadneServerProperties properties = new AriadneServerProperties();
		properties.getThreads().setMin(300);
		assertThatExceptionOfType(InvalidConfigurationPropertyValueException.class)
			.isThrownBy(() -> this.mapper.map(properties, List.of()))
			.satisfies((ex) -> {
				assertThat(ex.getName()).isEqualTo("ariadne.server.threads.min");
				assertThat(ex.getValue()).isEqualTo("300");
				assertThat(ex.getReason()).startsWith("must be between 0 and threads.max (200)");
			});
	}

	@Test
	void invalidRequestLimitIsNamedWithThePrefix() {
		AriadneServerProperties properties = new AriadneServerProperties();
		properties.getRequest().setMaxLineLength(DataSize.ofBytes(0));
		assertThatIllegalArgumentException().isThrownBy(() -> this.mapper.map(properties, List.of()))
			.withMessageStartingWith("ariadne.server.request.max-line-length ");
	}

	@Test
	void sizeBeyondIntIsRejectedNamingTheProperty() {
		AriadneServerProperties properties = new AriadneServerProperties();
		properties.getRequest().setMaxLineLength(DataSize.ofGigabytes(2));
		assertThatExceptionOfType(InvalidConfigurationPropertyValueException.class)
			.isThrownBy(() -> this.mapper.map(properties, List.of()))
			.satisfies((ex) -> assertThat(ex.getName()).isEqualTo("ariadne.server.request.max-line-length"))
			.withMessageContaining("2147483647");
	}

	@Test
	void customizersRunAfterPropertiesInTheGivenOrder() {
		AriadneServerProperties properties = new AriadneServerProperties();
		properties.getThreads().setMax(10);
		ServerConfig config = this.mapper.map(properties,
				List.of((builder) -> builder.maxThreads(20), (builder) -> builder.maxThreads(30).name("custom")));
		assertThat(config.maxThreads()).isEqualTo(30);
		assertThat(config.name()).isEqualTo("custom");
	}

	@Test
	void gracePeriodMayEqualTheShutdownPhaseTimeout() {
		this.environment.setProperty("spring.lifecycle.timeout-per-shutdown-phase", "10s");
		AriadneServerProperties properties = new AriadneServerProperties();
		properties.getShutdown().setGracePeriod(Duration.ofSeconds(10));
		assertThat(this.mapper.map(properties, List.of()).shutdownGracePeriod()).isEqualTo(Duration.ofSeconds(10));
	}

	@Test
	void defaultGracePeriodShortensToAShorterShutdownPhaseTimeout() {
		this.environment.setProperty("spring.lifecycle.timeout-per-shutdown-phase", "20s");
		assertThat(this.mapper.map(new AriadneServerProperties(), List.of()).shutdownGracePeriod())
			.isEqualTo(Duration.ofSeconds(20));
	}

	@Test
	void gracePeriodSetLongerThanTheShutdownPhaseTimeoutFails() {
		this.environment.setProperty("spring.lifecycle.timeout-per-shutdown-phase", "20s");
		this.environment.setProperty("ariadne.server.shutdown.grace-period", "30s");
		AriadneServerProperties properties = new AriadneServerProperties();
		properties.getShutdown().setGracePeriod(Duration.ofSeconds(30));
		assertThatExceptionOfType(InvalidConfigurationPropertyValueException.class)
			.isThrownBy(() -> this.mapper.map(properties, List.of()))
			.withMessageContaining("spring.lifecycle.timeout-per-shutdown-phase (20s)");
	}

	@Test
	void gracePeriodSetByCustomizerIsCheckedAgainstShutdownPhaseTimeout() {
		this.environment.setProperty("spring.lifecycle.timeout-per-shutdown-phase", "10s");
		assertThatExceptionOfType(InvalidConfigurationPropertyValueException.class)
			.isThrownBy(() -> this.mapper.map(new AriadneServerProperties(),
					List.of((builder) -> builder.shutdownGracePeriod(Duration.ofSeconds(11)))))
			.withMessageContaining("ariadne.server.shutdown.grace-period")
			.withMessageContaining("spring.lifecycle.timeout-per-shutdown-phase (10s)");
	}

}
