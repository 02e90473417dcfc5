package dev.ariadne.sample;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.ariadne.Await;
import dev.ariadne.RawClient;
import dev.ariadne.RawResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seed's bug on Spring MVC, as a user meets it, over HTTP only: 20 keep-alive clients of
 * the sample application's {@code /api/compute}. With the {@code starved} profile (4 blocking
 * workers, each pinned by an idle keep-alive connection) 4 are served and 16 wait, as
 * {@code /actuator/prometheus} on the management port shows; with {@code event-loop}, the same
 * 4 workers serve all 20, again and again on their connections.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class SampleStarvationIT {

	private static final int CLIENTS = 20;

	private static final Duration DEADLINE = Duration.ofSeconds(20);

	private static final Pattern SAMPLE = Pattern.compile("(?m)^(\\w+)\\{listener=\"app\"(?:,pool=\"default\")?} (\\S+)$");

	private final ExecutorService threads = Executors.newCachedThreadPool();

	private final List<RawClient> clients = new ArrayList<>();

	private ConfigurableApplicationContext context;

	@AfterEach
	void stop() {
		this.clients.forEach(RawClient::close);
		this.threads.shutdownNow();
		if (this.context != null) {
			this.context.close();
		}
	}

	@Test
	void starvedProfileServesFourOfTwentyKeepAliveClientsAndQueuesSixteen() throws Exception {
		start("starved");
		List<CompletableFuture<RawResponse>> answers = sendFromEveryClient();
		Await.until(DEADLINE, () -> answered(answers) == 4 && "4.0".equals(gauge("ariadne_pool_threads_busy"))
				&& "16.0".equals(gauge("ariadne_pool_queue_size")),
				() -> answered(answers) + " answered " + statuses(answers) + "; " + gauges());
		assertThat(gauge("ariadne_pool_threads_max")).isEqualTo("4.0");
		assertThat(gauge("ariadne_pool_saturation")).isEqualTo("1.0");
		// the four stay pinned by their idle connections: nobody else is served meanwhile
		for (int scrape = 0; scrape < 5; scrape++) {
			assertThat(gauge("ariadne_pool_queue_size")).isEqualTo("16.0");
		}
		assertThat(answered(answers)).isEqualTo(4);
		// when the four served clients leave, their workers take the next four
		for (int i = 0; i < CLIENTS; i++) {
			if (answers.get(i).isDone()) {
				this.clients.get(i).close();
			}
		}
		Await.until(DEADLINE, () -> answered(answers) == 8, () -> answered(answers) + " answered; " + gauges());
	}

	@Test
	void eventLoopProfileServesAllTwentyKeepAliveClientsWithFourWorkers() throws Exception {
		start("event-loop");
		for (int round = 1; round <= 3; round++) {
			List<CompletableFuture<RawResponse>> answers = sendFromEveryClient();
			for (CompletableFuture<RawResponse> answer : answers) {
				RawResponse response = answer.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
				assertThat(response.status()).isEqualTo(200);
				assertThat(response.bodyText()).isEqualTo("832040");
				assertThat(response.announcesClose()).as("round %d keeps the connection", round).isFalse();
			}
		}
		assertThat(gauge("ariadne_pool_threads_max")).isEqualTo("4.0");
		assertThat(gauge("ariadne_pool_queue_size")).isEqualTo("0.0");
		Await.until(DEADLINE, () -> "20.0".equals(gauge("ariadne_connections_idle")),
				() -> "idle connections: " + gauge("ariadne_connections_idle"));
	}

	private void start(String profile) throws IOException {
		this.context = new SpringApplicationBuilder(SampleApplication.class).profiles(profile)
			.run("--ariadne.server.port=0", "--ariadne.server.address=127.0.0.1", "--management.server.port=0",
					"--management.server.address=127.0.0.1", "--ariadne.server.keep-alive.timeout=10m");
		int port = this.context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
		for (int i = 0; i < CLIENTS; i++) {
			this.clients.add(RawClient.connect(port, Duration.ofSeconds(60)));
		}
	}

	/** Sends one keep-alive request from every client; each answer is read on a thread of its own. */
	private List<CompletableFuture<RawResponse>> sendFromEveryClient() throws IOException {
		List<CompletableFuture<RawResponse>> answers = new ArrayList<>();
		for (RawClient client : this.clients) {
			client.send("GET /api/compute HTTP/1.1\r\nHost: localhost\r\n\r\n");
			answers.add(CompletableFuture.supplyAsync(() -> {
				try {
					return client.read();
				}
				catch (IOException ex) {
					throw new IllegalStateException(ex);
				}
			}, this.threads));
		}
		return answers;
	}

	/** The status and the Connection field of every answer so far, for a failure's message. */
	private static List<String> statuses(List<CompletableFuture<RawResponse>> answers) {
		return answers.stream()
			.filter((answer) -> answer.isDone() && !answer.isCompletedExceptionally())
			.map(CompletableFuture::join)
			.map((response) -> response.status() + (response.announcesClose() ? " close" : ""))
			.toList();
	}

	private static int answered(List<CompletableFuture<RawResponse>> answers) {
		return (int) answers.stream().filter((answer) -> answer.isDone() && !answer.isCompletedExceptionally()).count();
	}

	/** Reads a gauge of the application listener (its default pool) from the management port. */
	private String gauge(String name) {
		Matcher matcher = SAMPLE.matcher(scrape());
		while (matcher.find()) {
			if (matcher.group(1).equals(name)) {
				return matcher.group(2);
			}
		}
		return null;
	}

	private String gauges() {
		return "busy " + gauge("ariadne_pool_threads_busy") + ", queued " + gauge("ariadne_pool_queue_size");
	}

	private String scrape() {
		int port = this.context.getEnvironment().getRequiredProperty("local.management.port", Integer.class);
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/prometheus"))
			.timeout(DEADLINE)
			.build();
		try {
			HttpResponse<String> response = HttpClient.newBuilder()
				.version(HttpClient.Version.HTTP_1_1)
				.build()
				.send(request, HttpResponse.BodyHandlers.ofString());
			return response.body();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
