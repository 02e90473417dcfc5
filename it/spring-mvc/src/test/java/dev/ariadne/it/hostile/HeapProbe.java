package dev.ariadne.it.hostile;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Test-only Actuator endpoint ({@code heap}) of {@link HostileApplication}: a thread samples the
 * heap in use every 10 ms, so that a peak between two readings of the test is seen; the sample
 * includes garbage not yet collected, as an operator's heap graph does.
 * <ul>
 * <li>{@code GET /actuator/heap}: the peak since the last reset, the heap in use now, the most
 * the heap may grow to, and the full and young collections so far;</li>
 * <li>{@code POST /actuator/heap}: a full collection, then the heap in use after it, which is
 * also the new peak (a baseline).</li>
 * </ul>
 */
@Component
@Endpoint(id = "heap")
class HeapProbe implements SmartLifecycle {

	private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();

	private final List<GarbageCollectorMXBean> full;

	private final List<GarbageCollectorMXBean> young;

	private final AtomicLong peak = new AtomicLong();

	private volatile Thread sampler;

	HeapProbe() {
		List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
		// a collector that manages the old generation collects the whole heap (Serial's MarkSweepCompact)
		this.full = collectors.stream().filter(HeapProbe::collectsOld).toList();
		this.young = collectors.stream().filter((collector) -> !collectsOld(collector)).toList();
	}

	private static boolean collectsOld(GarbageCollectorMXBean collector) {
		return Arrays.stream(collector.getMemoryPoolNames())
			.anyMatch((pool) -> pool.contains("Old") || pool.contains("Tenured"));
	}

	@ReadOperation
	Map<String, Long> figures() {
		return Map.of("peak", this.peak.get(), "used", used(), "max", this.memory.getHeapMemoryUsage().getMax(),
				"fullCollections", count(this.full), "youngCollections", count(this.young));
	}

	@WriteOperation
	Map<String, Long> collect() {
		this.memory.gc();
		long used = used();
		this.peak.set(used);
		return Map.of("used", used, "fullCollections", count(this.full));
	}

	private long used() {
		return this.memory.getHeapMemoryUsage().getUsed();
	}

	private static long count(List<GarbageCollectorMXBean> collectors) {
		return collectors.stream().mapToLong(GarbageCollectorMXBean::getCollectionCount).sum();
	}

	private void sample() {
		while (!Thread.currentThread().isInterrupted()) {
			this.peak.accumulateAndGet(used(), Math::max);
			try {
				Thread.sleep(10);
			}
			catch (InterruptedException ex) {
				return;
			}
		}
	}

	@Override
	public void start() {
		Thread thread = new Thread(this::sample, "heap-probe");
		thread.setDaemon(true);
		this.peak.set(used());
		thread.start();
		this.sampler = thread;
	}

	@Override
	public void stop() {
		Thread thread = this.sampler;
		if (thread != null) {
			thread.interrupt();
			this.sampler = null;
		}
	}

	@Override
	public boolean isRunning() {
		return this.sampler != null;
	}

}
