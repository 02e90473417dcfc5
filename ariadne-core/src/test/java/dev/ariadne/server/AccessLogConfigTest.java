package dev.ariadne.server;

import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The access log's settings: Tomcat's defaults, and every bad value refused with a message that
 * starts with its property's name.
 */
class AccessLogConfigTest {

	@Test
	void defaultsAreOffCombinedAndTomcatsFileNames() {
		AccessLogConfig config = ServerConfig.defaults().accessLog();
		assertThat(config.enabled()).isFalse();
		assertThat(config.format()).isEqualTo(AccessLogConfig.Format.COMBINED);
		assertThat(config.lineFormat()).hasToString(dev.ariadne.server.accesslog.AccessLogFormat.COMBINED_PATTERN);
		assertThat(config.directory()).hasToString("logs");
		assertThat(config.prefix() + config.fileDateFormat() + config.suffix()).isEqualTo("access_log.yyyy-MM-dd.log");
		assertThat(config.rotate()).isTrue();
		assertThat(config.maxDays()).isEqualTo(-1);
		assertThat(config.queueCapacity()).isEqualTo(8192);
		assertThat(config.toBuilder().build()).isEqualTo(config);
	}

	@Test
	void aPatternReplacesTheNamedFormat() {
		AccessLogConfig config = AccessLogConfig.builder().format(AccessLogConfig.Format.JSON).pattern("%h %{wait}x").build();
		assertThat(config.lineFormat()).hasToString("%h %{wait}x");
	}

	static Stream<Arguments> badSettings() {
		return Stream.of(
				arguments((UnaryOperator<AccessLogConfig.Builder>) (b) -> b.pattern("%h %Z"),
						"ariadne.server.accesslog.pattern has the unknown code %Z at index 3, but was '%h %Z'"),
				arguments((UnaryOperator<AccessLogConfig.Builder>) (b) -> b.prefix("../access"),
						"ariadne.server.accesslog.prefix must be part of a file name, without a path separator, "
								+ "but was '../access'"),
				arguments((UnaryOperator<AccessLogConfig.Builder>) (b) -> b.suffix("\\x"),
						"ariadne.server.accesslog.suffix must be part of a file name"),
				arguments((UnaryOperator<AccessLogConfig.Builder>) (b) -> b.fileDateFormat(".yyyy-MM-dd-{"),
						"ariadne.server.accesslog.file-date-format must be a date-time pattern such as .yyyy-MM-dd"),
				arguments((UnaryOperator<AccessLogConfig.Builder>) (b) -> b.fileDateFormat("yyyy/MM/dd"),
						"ariadne.server.accesslog.file-date-format must be a date-time pattern that writes no path "
								+ "separator, but was 'yyyy/MM/dd'"),
				arguments((UnaryOperator<AccessLogConfig.Builder>) (b) -> b.maxDays(0),
						"ariadne.server.accesslog.max-days must be -1 (keep every file) or 1 or more, but was 0"),
				arguments((UnaryOperator<AccessLogConfig.Builder>) (b) -> b.queueCapacity(0),
						"ariadne.server.accesslog.queue-capacity must be between 1 and 1048576, but was 0"));
	}

	@ParameterizedTest
	@MethodSource("badSettings")
	void refusesABadSettingNamingItsProperty(UnaryOperator<AccessLogConfig.Builder> change, String message) {
		assertThatIllegalArgumentException().isThrownBy(() -> change.apply(AccessLogConfig.builder()).build())
			.withMessageStartingWith(message);
	}

	@Test
	void aDateFormatIsNotCheckedWhenTheLogDoesNotRotate() {
		assertThat(AccessLogConfig.builder().rotate(false).fileDateFormat("yyyy/MM").build().rotate()).isFalse();
	}

}
