package dev.ariadne.autoconfigure.actuate;

import java.time.Duration;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import dev.ariadne.server.stats.PoolStats;

import org.springframework.context.SmartLifecycle;

/**
 * Measures how starved the application's worker pool is and turns it into what the instance
 * tells load balancers: a <em>weight</em>, for balancers that can spread load unevenly
 * (HAProxy's agent-check, answered by {@link AgentCheckListener}), and, when
 * {@code ariadne.server.health.saturation-readiness} is set, an in-or-out <em>readiness</em> on
 * a bounded duty cycle, for those that only know in and out (a Kubernetes Service).
 *
 * <p>Every sampling period (a tenth of the reaction time, at most 100 ms) the pool counts as
 * starved when every worker is busy and work waits for one. <em>Pressure</em> is that 0-or-1
 * signal smoothed exponentially, with a time constant of a third of the reaction time: the
 * pool starved without a break for the reaction time brings it to 0.95, and it falls as fast
 * once nothing waits.
 * <ul>
 * <li><em>Weight</em> is {@code minWeight} to the power of the pressure: 1 for an instance
 * that keeps up, {@code minWeight} for one starved for a while, and never 0, so that
 * saturation alone never takes every instance of a fleet out: when all are starved, all keep
 * their equal share. Each tenth of pressure divides the weight by the same factor, since a
 * balancer's share follows the ratio of weights: with the default 0.05, pressure 0.5 asks
 * for 22 %, 0.9 for 7 %.</li>
 * <li><em>Readiness</em> goes out when pressure reaches {@value #OUT_THRESHOLD} and readiness
 * has been in for at least {@code minIn}; it comes back in when pressure falls to
 * {@value #IN_THRESHOLD}, or at the latest after a time drawn at random between half of
 * {@code maxOut} and {@code maxOut}. The two thresholds keep readiness from flapping; the duty
 * cycle keeps a fleet that is saturated as a whole serving for at least
 * {@code minIn / (minIn + maxOut)} of the time, and the random time out keeps instances that
 * went out together from coming back together.</li>
 * </ul>
 *
 * <p>Sampling runs on one daemon thread of its own while this lifecycle runs: it starts before
 * Ariadne's servers and stops after they have drained. The figures may be read from any
 * thread.
 */
public final class SaturationShedding implements SmartLifecycle {

	/** Pressure at which readiness goes out of service. */
	public static final double OUT_THRESHOLD = 0.75;

	/** Pressure at or below which readiness comes back in service. */
	public static final double IN_THRESHOLD = 0.25;

	/** Phase of the shedding and agent lifecycles: before Ariadne's servers start, after they stop. */
	static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

	private static final long MAX_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	private final Supplier<PoolStats> pool;

	private final Settings settings;

	private final Random random;

	private final double timeConstantNanos;

	private volatile double pressure;

	private volatile boolean out;

	private volatile long timesOut;

	// Owned by the sampling thread.
	private long lastSample;

	private boolean sampled;

	private long inSince;

	private long outUntil;

	private ScheduledExecutorService sampler;

	/**
	 * Creates the shedding of one pool.
	 * @param pool supplies the application's worker pool, or {@code null} while there is none
	 * (not started, stopped)
	 * @param settings the settings
	 */
	public SaturationShedding(Supplier<PoolStats> pool, Settings settings) {
		this(pool, settings, new Random());
	}

	SaturationShedding(Supplier<PoolStats> pool, Settings settings, Random random) {
		this.pool = pool;
		this.settings = settings;
		this.random = random;
		this.timeConstantNanos = settings.reactionTime().toNanos() / 3.0;
	}

	/**
	 * Returns the smoothed share of recent time the pool was starved.
	 * @return the pressure, from 0 to 1
	 */
	public double pressure() {
		return this.pressure;
	}

	/**
	 * Returns the weight the instance asks balancers for, as a share of its full weight.
	 * @return the weight, from the minimum weight to 1
	 */
	public double weight() {
		return Math.pow(this.settings.minWeight(), this.pressure);
	}

	/**
	 * Returns whether saturation takes readiness out of service now; always {@code false}
	 * unless saturation readiness is enabled.
	 * @return whether readiness is out for saturation
	 */
	public boolean readinessOut() {
		return this.out;
	}

	/**
	 * Returns how many times saturation has taken readiness out of service.
	 * @return the count since start
	 */
	public long timesOut() {
		return this.timesOut;
	}

	/**
	 * Returns the settings.
	 * @return the settings
	 */
	public Settings settings() {
		return this.settings;
	}

	/**
	 * Takes one sample: called by the sampling thread, and by tests with a time of their own.
	 * @param now the current {@link System#nanoTime()}
	 * @param starved whether the pool is starved now
	 */
	synchronized void sample(long now, boolean starved) {
		if (!this.sampled) {
			this.sampled = true;
			this.lastSample = now;
			this.inSince = now - this.settings.minIn().toNanos();
		}
		double alpha = 1.0 - Math.exp(-(now - this.lastSample) / this.timeConstantNanos);
		this.lastSample = now;
		double pressure = this.pressure + ((starved ? 1.0 : 0.0) - this.pressure) * alpha;
		this.pressure = pressure;
		if (this.settings.readiness()) {
			dutyCycle(now, pressure);
		}
	}

	private void dutyCycle(long now, double pressure) {
		if (this.out) {
			if (pressure <= IN_THRESHOLD || now - this.outUntil >= 0) {
				this.out = false;
				this.inSince = now;
			}
		}
		else if (pressure >= OUT_THRESHOLD && now - this.inSince >= this.settings.minIn().toNanos()) {
			long maxOut = this.settings.maxOut().toNanos();
			this.outUntil = now + maxOut / 2 + (long) (this.random.nextDouble() * (maxOut - maxOut / 2));
			this.out = true;
			this.timesOut++;
		}
	}

	private boolean starved() {
		PoolStats pool = this.pool.get();
		return pool != null && pool.busyWorkers() >= pool.maxWorkers() && pool.queued() > 0;
	}

	/**
	 * Returns the sampling period: a tenth of the reaction time, at most 100 ms.
	 * @return the period in nanoseconds
	 */
	long periodNanos() {
		return Math.max(1, Math.min(MAX_PERIOD_NANOS, this.settings.reactionTime().toNanos() / 10));
	}

	@Override
	public synchronized void start() {
		if (this.sampler != null) {
			return;
		}
		this.sampler = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "ariadne-shedding");
			thread.setDaemon(true);
			return thread;
		});
		long period = periodNanos();
		this.sampler.scheduleAtFixedRate(() -> sample(System.nanoTime(), starved()), 0, period,
				TimeUnit.NANOSECONDS);
	}

	@Override
	public synchronized void stop() {
		if (this.sampler != null) {
			this.sampler.shutdownNow();
			this.sampler = null;
		}
	}

	@Override
	public synchronized boolean isRunning() {
		return this.sampler != null;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	@Override
	public String toString() {
		return "SaturationShedding[pressure=" + this.pressure + ", weight=" + weight() + ", out=" + this.out + "]";
	}

	/**
	 * Settings of the shedding, from {@code ariadne.server.health.*}.
	 *
	 * @param reactionTime time of uninterrupted starvation that brings pressure to 0.95
	 * ({@code shedding.reaction-time}); positive
	 * @param maxOut longest time readiness stays out at a time ({@code shedding.max-out});
	 * positive
	 * @param minIn time readiness stays in before it may go out again
	 * ({@code shedding.min-in}); positive
	 * @param minWeight lowest weight saturation leads to ({@code shedding.min-weight}); above 0
	 * and at most 1
	 * @param readiness whether saturation takes readiness out ({@code saturation-readiness})
	 */
	public record Settings(Duration reactionTime, Duration maxOut, Duration minIn, double minWeight,
			boolean readiness) {

		/**
		 * Validates the settings.
		 * @throws IllegalArgumentException if a setting is out of range, naming its property
		 */
		public Settings {
			positive("reaction-time", reactionTime);
			positive("max-out", maxOut);
			positive("min-in", minIn);
			if (!(minWeight > 0.0 && minWeight <= 1.0)) {
				throw new IllegalArgumentException("ariadne.server.health.shedding.min-weight must be above 0 and at"
						+ " most 1, but was " + minWeight + ": a weight of 0 would let saturation take every instance"
						+ " of a fleet out");
			}
		}

		private static void positive(String name, Duration duration) {
			if (duration == null || duration.isNegative() || duration.isZero()) {
				throw new IllegalArgumentException(
						"ariadne.server.health.shedding." + name + " must be positive, but was " + duration);
			}
		}

	}

}
