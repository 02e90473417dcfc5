package dev.ariadne.server.diagnosis;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * CPU used between two readings: by this process ({@link ProcessHandle}'s total CPU time, any
 * platform that reports it) and by the whole machine ({@code /proc/stat}, Linux). Read by the
 * diagnosis' own thread only.
 */
final class CpuMeter {

	private static final Path PROC_STAT = Path.of("/proc/stat");

	private long lastWall;

	private long lastProcess = -1;

	private long lastBusy = -1;

	private long lastTotal;

	private double processCores = Double.NaN;

	private double machineBusy = Double.NaN;

	/**
	 * Takes a reading and computes the use since the previous one.
	 */
	void sample() {
		long wall = System.nanoTime();
		long process = ProcessHandle.current().info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
		if (process >= 0 && this.lastProcess >= 0 && wall > this.lastWall) {
			this.processCores = (double) (process - this.lastProcess) / (wall - this.lastWall);
		}
		this.lastProcess = process;
		this.lastWall = wall;
		long[] machine = readMachine();
		if (machine != null && this.lastBusy >= 0 && machine[1] > this.lastTotal) {
			this.machineBusy = (double) (machine[0] - this.lastBusy) / (machine[1] - this.lastTotal);
		}
		if (machine != null) {
			this.lastBusy = machine[0];
			this.lastTotal = machine[1];
		}
	}

	/**
	 * Returns the cores this process used between the last two readings.
	 * @return cores, NaN before two readings or where the platform does not tell
	 */
	double processCores() {
		return this.processCores;
	}

	/**
	 * Returns the share of the machine's CPU in use between the last two readings.
	 * @return 0 to 1, NaN before two readings or off Linux
	 */
	double machineBusy() {
		return this.machineBusy;
	}

	/** Busy and total jiffies of the first line of {@code /proc/stat}, or null. */
	private static long[] readMachine() {
		if (!Files.isReadable(PROC_STAT)) {
			return null;
		}
		try (BufferedReader reader = Files.newBufferedReader(PROC_STAT, StandardCharsets.US_ASCII)) {
			String line = reader.readLine();
			if (line == null || !line.startsWith("cpu ")) {
				return null;
			}
			String[] fields = line.trim().split("\\s+");
			long total = 0;
			long idle = 0;
			for (int i = 1; i < fields.length && i <= 8; i++) {
				long value = Long.parseLong(fields[i]);
				total += value;
				if (i == 4 || i == 5) {
					// idle and iowait
					idle += value;
				}
			}
			return new long[] { total - idle, total };
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

}
