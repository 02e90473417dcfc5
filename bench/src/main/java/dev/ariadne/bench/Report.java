package dev.ariadne.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Turns a run's {@code results.tsv} (round, server, workload, metric, value) into one
 * markdown table per workload: the median over rounds of every metric, the spread of the
 * first (primary) metric, and its ratio to each peer the run measured on that workload (Tomcat
 * and Netty; the Spring MVC peers on Boot's Tomcat and on Boot's Jetty: the sample app's own
 * comparison; the TLS, h2c and h2 peers), and to {@code NAME@base}, the same server from a
 * baseline build, when the run measured one: an A/B. A {@code workloads.tsv} beside it (id,
 * title, description) names the workloads. Negative values mean "not measured" and are left out.
 */
final class Report {

	/** The suffix of a server run from the baseline build's jar. */
	private static final String BASELINE = "@base";

	/**
	 * The peers, by server name, each a ratio column of the tables of the workloads that measured
	 * it: plain, Spring Boot, TLS, h2c and h2 over TLS.
	 */
	private static final List<Map.Entry<String, String>> PEERS = List.of(Map.entry("tomcat", "Tomcat"),
			Map.entry("netty", "Netty"), Map.entry("spring-mvc", "Spring MVC"),
			Map.entry("spring-mvc-jetty", "Spring MVC Jetty"), Map.entry("webflux-netty", "WebFlux Netty"),
			Map.entry("tomcat-tls", "Tomcat TLS"), Map.entry("jetty-tls", "Jetty TLS"),
			Map.entry("netty-h2c", "Netty h2c"), Map.entry("jetty-h2c", "Jetty h2c"), Map.entry("tomcat-h2c", "Tomcat h2c"),
			Map.entry("spring-mvc-h2c", "Spring MVC h2c"), Map.entry("spring-mvc-jetty-h2c", "Spring MVC Jetty h2c"),
			Map.entry("netty-h2", "Netty h2"), Map.entry("jetty-h2", "Jetty h2"), Map.entry("tomcat-h2", "Tomcat h2"),
			Map.entry("spring-mvc-h2", "Spring MVC h2"), Map.entry("spring-mvc-jetty-h2", "Spring MVC Jetty h2"));

	private final Map<String, Map<String, Map<String, List<Double>>>> values = new LinkedHashMap<>();

	private final Set<String> servers = new LinkedHashSet<>();

	private Report() {
	}

	public static void main(String[] args) throws IOException {
		Path results = Path.of(args[0]);
		Report report = new Report();
		for (String line : Files.readAllLines(results)) {
			String[] f = line.split("\t");
			if (f.length == 5 && !f[0].equals("round")) {
				report.add(f[1], f[2], f[3], Double.parseDouble(f[4]));
			}
		}
		Path workloads = results.resolveSibling("workloads.tsv");
		StringBuilder out = new StringBuilder();
		for (String line : Files.readAllLines(workloads)) {
			String[] f = line.split("\t", 3);
			if (report.values.containsKey(f[0])) {
				out.append("### ").append(f[0]).append(": ").append(f[1]).append("\n\n");
				out.append(f.length > 2 ? f[2] + "\n\n" : "");
				report.table(f[0], out);
			}
		}
		System.out.print(out);
	}

	private void add(String server, String workload, String metric, double value) {
		this.servers.add(server);
		if (value >= 0) {
			this.values.computeIfAbsent(workload, (w) -> new LinkedHashMap<>())
				.computeIfAbsent(metric, (m) -> new LinkedHashMap<>())
				.computeIfAbsent(server, (s) -> new ArrayList<>())
				.add(value);
		}
		else {
			this.values.computeIfAbsent(workload, (w) -> new LinkedHashMap<>())
				.computeIfAbsent(metric, (m) -> new LinkedHashMap<>());
		}
	}

	private void table(String workload, StringBuilder out) {
		Map<String, Map<String, List<Double>>> metrics = this.values.get(workload);
		List<String> names = new ArrayList<>(metrics.keySet());
		String primary = names.get(0);
		Map<String, List<Double>> first = metrics.get(primary);
		// the peers measured on this workload, each a ratio column of its own
		Map<String, Double> peers = new LinkedHashMap<>();
		for (Map.Entry<String, String> peer : PEERS) {
			Double median = median(first.get(peer.getKey()));
			if (median != null) {
				peers.put(peer.getValue(), median);
			}
		}
		boolean baselines = first.keySet().stream().anyMatch((server) -> server.endsWith(BASELINE));
		out.append("| server | ").append(primary).append(" | spread |");
		peers.keySet().forEach((title) -> out.append(" × ").append(title).append(" |"));
		out.append(baselines ? " × " + BASELINE + " |" : "");
		names.subList(1, names.size()).forEach((name) -> out.append(' ').append(name).append(" |"));
		out.append("\n| --- | ---: | ---: |").append(" ---: |".repeat(peers.size()));
		out.append(baselines ? " ---: |" : "");
		out.append(" ---: |".repeat(names.size() - 1)).append('\n');
		for (String server : this.servers) {
			if (metrics.values().stream().noneMatch((m) -> m.containsKey(server))) {
				continue;
			}
			Double value = median(first.get(server));
			out.append("| ").append(server).append(" | ").append(format(value)).append(" | ");
			out.append(spread(first.get(server))).append(" |");
			peers.values().forEach((peer) -> out.append(' ').append(ratio(value, peer)).append(" |"));
			out.append(baselines ? " " + ratio(value, median(first.get(server + BASELINE))) + " |" : "");
			for (String name : names.subList(1, names.size())) {
				out.append(' ').append(format(median(metrics.get(name).get(server)))).append(" |");
			}
			out.append('\n');
		}
		out.append('\n');
	}

	private static Double median(List<Double> values) {
		if (values == null || values.isEmpty()) {
			return null;
		}
		List<Double> sorted = values.stream().sorted().toList();
		int mid = sorted.size() / 2;
		return (sorted.size() % 2 == 1) ? sorted.get(mid) : (sorted.get(mid - 1) + sorted.get(mid)) / 2;
	}

	/** (max - min) / median over the rounds, so a reader sees how much a figure moved. */
	private static String spread(List<Double> values) {
		Double median = median(values);
		if (median == null || values.size() < 2 || median == 0) {
			return "—";
		}
		double min = values.stream().mapToDouble(Double::doubleValue).min().orElse(0);
		double max = values.stream().mapToDouble(Double::doubleValue).max().orElse(0);
		return String.format(Locale.ROOT, "±%.0f%%", 50 * (max - min) / median);
	}

	private static String ratio(Double value, Double base) {
		if (value == null || base == null || base == 0) {
			return "—";
		}
		return String.format(Locale.ROOT, "%.2f", value / base);
	}

	static String format(Double value) {
		if (value == null) {
			return "—";
		}
		double v = value;
		if (v >= 1000) {
			return String.format(Locale.ROOT, "%,.0f", v);
		}
		if (v >= 100 || v == Math.rint(v)) {
			return String.format(Locale.ROOT, "%.0f", v);
		}
		return String.format(Locale.ROOT, (v >= 10) ? "%.1f" : "%.2f", v);
	}

}
