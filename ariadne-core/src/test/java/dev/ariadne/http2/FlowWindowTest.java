package dev.ariadne.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

/**
 * The window arithmetic of RFC 9113 §6.9: at most 2<sup>31</sup>-1, negative after a decrease of
 * the initial window size, and an overflow refused without changing the window.
 */
class FlowWindowTest {

	private static final int MAX = Integer.MAX_VALUE;

	@Test
	void consumesAndIsIncreasedByWindowUpdates() {
		FlowWindow window = new FlowWindow(Settings.DEFAULT_WINDOW);
		window.consume(65_000);
		assertThat(window.available()).isEqualTo(535);
		assertThat(window.increase(100)).isTrue();
		assertThat(window.available()).isEqualTo(635);
		window.consume(635);
		assertThat(window.available()).isZero();
	}

	@Test
	void reachesExactly2To31Minus1AndRefusesOneMoreWithoutChanging() {
		FlowWindow window = new FlowWindow(Settings.DEFAULT_WINDOW);
		assertThat(window.increase(MAX - Settings.DEFAULT_WINDOW)).isTrue();
		assertThat(window.available()).isEqualTo(MAX);
		assertThat(window.increase(1)).isFalse();
		assertThat(window.available()).isEqualTo(MAX);
		assertThat(window.increase(MAX)).isFalse();
		assertThat(window.available()).isEqualTo(MAX);
		assertThat(window.increase(0)).isTrue();
		assertThat(new FlowWindow(MAX).available()).isEqualTo(MAX);
	}

	@Test
	void refusesAnIncreaseOfTheLargestIncrementOnAnyPositiveWindow() {
		FlowWindow window = new FlowWindow(1);
		assertThat(window.increase(MAX)).isFalse();
		assertThat(window.available()).isEqualTo(1);
		window.consume(1);
		assertThat(window.increase(MAX)).isTrue();
		assertThat(window.available()).isEqualTo(MAX);
	}

	@Test
	void goesNegativeWhenTheInitialSizeDecreasesAndIsUsableOnlyOnceBackAbove0() {
		FlowWindow window = new FlowWindow(Settings.DEFAULT_WINDOW);
		window.consume(60_000);
		assertThat(window.increase(16_384 - Settings.DEFAULT_WINDOW)).isTrue();
		assertThat(window.available()).isEqualTo(5_535 - 49_151);
		assertThatIllegalArgumentException().isThrownBy(() -> window.consume(1));
		window.consume(0);
		assertThat(window.increase(43_616)).isTrue();
		assertThat(window.available()).isZero();
		assertThatIllegalArgumentException().isThrownBy(() -> window.consume(1));
		assertThat(window.increase(1)).isTrue();
		window.consume(1);
		assertThat(window.available()).isZero();
	}

	@Test
	void goesDownToMinus2To31Plus1AndBackUpAtTheEdges() {
		FlowWindow window = new FlowWindow(MAX);
		window.consume(MAX);
		assertThat(window.increase(-MAX)).isTrue();
		assertThat(window.available()).isEqualTo(-MAX);
		assertThatIllegalArgumentException().isThrownBy(() -> window.increase(-1));
		assertThat(window.available()).isEqualTo(-MAX);
		assertThat(window.increase(MAX)).isTrue();
		assertThat(window.increase(MAX)).isTrue();
		assertThat(window.available()).isEqualTo(MAX);
		assertThat(window.increase(-MAX)).isTrue();
		assertThat(window.available()).isZero();
	}

	@Test
	void rejectsCallsNoPeerCanCause() {
		assertThatIllegalArgumentException().isThrownBy(() -> new FlowWindow(-1));
		FlowWindow window = new FlowWindow(10);
		assertThatIllegalArgumentException().isThrownBy(() -> window.consume(11));
		assertThatIllegalArgumentException().isThrownBy(() -> window.consume(-1));
		assertThatIllegalArgumentException().isThrownBy(() -> window.increase(MAX + 1L));
		assertThatIllegalArgumentException().isThrownBy(() -> window.increase(-MAX - 1L));
		assertThat(window.available()).isEqualTo(10);
		assertThat(window).hasToString("FlowWindow{10}");
	}

}
