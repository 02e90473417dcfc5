package dev.ariadne;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.AsyncResponse;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.Request;
import dev.ariadne.server.Response;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.RequestEvent;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The async exchange ({@link Response#suspend()}) in every model, at socket level: a suspended
 * request holds its connection but no worker in {@code event-loop} and {@code virtual-threads};
 * it completes from another thread, streams from it, runs continuations on a worker of its
 * pool, answers an abort with a 500, keeps pipelined requests in order, is covered by one
 * request event, is waited for by a graceful shutdown and told of a forced stop.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AsyncExchangeIT {

	private final BlockingQueue<Suspended> suspended = new LinkedBlockingQueue<>();

	private final List<RawClient> clients = new ArrayList<>();

	private final ExecutorService threads = Executors.newCachedThreadPool();

	private final BlockingQueue<RequestEvent> events = new LinkedBlockingQueue<>();

	private AriadneServer server;

	/** A suspended exchange as the test holds it. */
	private record Suspended(Request request, Response response, AsyncResponse async, long nanos) {

		void answer(String body) {
			this.response.send(body);
			this.async.complete();
		}

	}

	@AfterEach
	void cleanUp() {
		this.clients.forEach(RawClient::close);
		this.threads.shutdownNow();
		if (this.server != null) {
			this.server.stop();
		}
	}

	@ParameterizedTest
	@EnumSource(value = IoModel.class, names = { "EVENT_LOOP", "VIRTUAL_THREADS" })
	void aHundredSuspendedRequestsHoldNoWorkerAndAllComplete(IoModel model) throws Exception {
		start(model, 4);
		List<RawClient> waiting = new ArrayList<>();
		for (int i = 0; i < 100; i++) {
			RawClient client = connect();
			client.send("GET /deferred/" + i + " HTTP/1.1\r\nHost: async\r\n\r\n");
			waiting.add(client);
		}
		Await.until(() -> this.suspended.size() == 100, () -> this.suspended.size() + " suspended");
		Await.until(() -> this.server.stats().pool().busyWorkers() == 0,
				() -> "busy workers " + this.server.stats().pool().busyWorkers());
		assertThat(this.server.stats().pool().queued()).isZero();
		// other requests are served at once, by the 4 workers
		RawClient other = connect();
		for (int i = 0; i < 10; i++) {
			AbstractProtocolIT.assertOk(other.exchange("GET /hello HTTP/1.1\r\nHost: async\r\n\r\n"), "hello");
		}
		List<Suspended> held = new ArrayList<>();
		this.suspended.drainTo(held);
		CompletableFuture.runAsync(() -> held.forEach((s) -> s.answer("done " + s.request().pathVariable("id"))),
				this.threads);
		for (int i = 0; i < 100; i++) {
			AbstractProtocolIT.assertOk(waiting.get(i).read(), "done " + i);
		}
		this.clients.forEach(RawClient::close);
		Leaks.assertServerHoldsNothing(this.server);
	}

	@Test
	void blockingModelKeepsTheWorkerOfASuspendedRequest() throws Exception {
		start(IoModel.BLOCKING, 4);
		RawClient client = connect();
		client.send("GET /deferred/1 HTTP/1.1\r\nHost: async\r\n\r\n");
		Suspended one = this.suspended.poll(10, TimeUnit.SECONDS);
		assertThat(one).isNotNull();
		assertThat(this.server.stats().pool().busyWorkers()).as("the worker owns its connection").isEqualTo(1);
		CompletableFuture.runAsync(() -> one.answer("done"), this.threads);
		AbstractProtocolIT.assertOk(client.read(), "done");
		AbstractProtocolIT.assertOk(client.exchange("GET /hello HTTP/1.1\r\nHost: async\r\n\r\n"), "hello");
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void continuationRunsOnAWorkerOfTheExchangesPool(IoModel model) throws Exception {
		start(model, 4);
		RawClient client = connect();
		client.send("GET /deferred/1 HTTP/1.1\r\nHost: async\r\n\r\n");
		Suspended one = this.suspended.poll(10, TimeUnit.SECONDS);
		// the handler that suspended returns after it offered the exchange: until its worker is
		// free, a continuation on another worker counts two (only blocking keeps the worker)
		int held = (model == IoModel.BLOCKING) ? 1 : 0;
		Await.until(() -> this.server.stats().pool().busyWorkers() == held,
				() -> "busy workers: " + this.server.stats().pool().busyWorkers());
		AtomicReference<String> thread = new AtomicReference<>();
		AtomicReference<Integer> busy = new AtomicReference<>();
		CompletableFuture.runAsync(() -> one.async().execute(() -> {
			thread.set(Thread.currentThread().getName());
			busy.set(this.server.stats().pool().busyWorkers());
			one.answer("continued");
		}), this.threads);
		AbstractProtocolIT.assertOk(client.read(), "continued");
		assertThat(thread.get()).as("the continuation's thread").startsWith("ariadne-app-");
		assertThat(busy.get()).as("busy workers while it ran").isEqualTo(1);
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void streamsFromAnotherThreadAndEndsTheChunkedBodyOnComplete(IoModel model) throws Exception {
		start(model, 4);
		RawClient client = connect();
		client.send("GET /deferred/1 HTTP/1.1\r\nHost: async\r\n\r\n");
		Suspended one = this.suspended.poll(10, TimeUnit.SECONDS);
		CountDownLatch firstRead = new CountDownLatch(1);
		CompletableFuture<Void> streaming = CompletableFuture.runAsync(() -> {
			try {
				OutputStream out = one.response().outputStream();
				out.write("event 0\n".getBytes(StandardCharsets.US_ASCII));
				out.flush();
				firstRead.await();
				for (int i = 1; i < 100; i++) {
					out.write(("event " + i + "\n").getBytes(StandardCharsets.US_ASCII));
					out.flush();
				}
				one.async().complete();
			}
			catch (IOException | InterruptedException ex) {
				one.async().abort(ex);
			}
		}, this.threads);
		assertThat(new String(client.peek(16), StandardCharsets.US_ASCII)).startsWith("HTTP/1.1 200 OK");
		firstRead.countDown();
		RawResponse response = client.read();
		streaming.get(10, TimeUnit.SECONDS);
		assertThat(response.header("Transfer-Encoding")).isEqualTo("chunked");
		assertThat(response.bodyText()).startsWith("event 0\nevent 1\n").endsWith("event 99\n");
		AbstractProtocolIT.assertOk(client.exchange("GET /hello HTTP/1.1\r\nHost: async\r\n\r\n"), "hello");
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void abortBeforeTheResponseIsCommittedAnswers500(IoModel model) throws Exception {
		start(model, 4);
		RawClient client = connect();
		client.send("GET /deferred/1 HTTP/1.1\r\nHost: async\r\n\r\n");
		Suspended one = this.suspended.poll(10, TimeUnit.SECONDS);
		CompletableFuture.runAsync(() -> one.async().abort(new IllegalStateException("failed later")), this.threads);
		AbstractProtocolIT.assertRefused(client.read(), "HTTP/1.1 500 Internal Server Error");
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void completeCalledWhileTheHandlerStillRunsTakesEffectWhenItReturns(IoModel model) throws Exception {
		this.server = Servers.start(model, (config) -> config.maxThreads(4),
				Route.get("/early", (request, response) -> {
					AsyncResponse async = response.suspend();
					response.send("early");
					CompletableFuture.runAsync(async::complete, this.threads).get(10, TimeUnit.SECONDS);
				}));
		RawClient client = connect();
		AbstractProtocolIT.assertOk(client.exchange("GET /early HTTP/1.1\r\nHost: async\r\n\r\n"), "early");
		AbstractProtocolIT.assertOk(client.exchange("GET /early HTTP/1.1\r\nHost: async\r\n\r\n"), "early");
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void aResponseWrittenWithoutBlockingAndCompletedWhileTheHandlerRunsLeavesAtOnce(IoModel model)
			throws Exception {
		// what a reactive handler does when its answer is ready at once: the whole response
		// goes out as non-blocking writes, and the end is asked for before the handler returns
		this.server = Servers.start(model, (config) -> config.maxThreads(4),
				Route.get("/written", (request, response) -> {
					AsyncResponse async = response.suspend();
					async.onWritable(() -> {
					});
					response.header("Content-Length", "7");
					try {
						response.outputStream().write("written".getBytes(StandardCharsets.US_ASCII));
						response.outputStream().flush();
					}
					catch (IOException ex) {
						async.abort(ex);
						return;
					}
					async.complete();
				}));
		RawClient client = connect();
		for (int i = 0; i < 3; i++) {
			AbstractProtocolIT.assertOk(client.exchange("GET /written HTTP/1.1\r\nHost: async\r\n\r\n"), "written");
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void pipelinedRequestsAfterASuspendedOneWaitForItsEnd(IoModel model) throws Exception {
		start(model, 4);
		RawClient client = connect();
		client.send("GET /deferred/1 HTTP/1.1\r\nHost: async\r\n\r\nGET /hello HTTP/1.1\r\nHost: async\r\n\r\n");
		Suspended one = this.suspended.poll(10, TimeUnit.SECONDS);
		assertThat(client.hasBytesWaiting()).as("an answer before the suspended one ended").isFalse();
		CompletableFuture.runAsync(() -> one.answer("first"), this.threads);
		AbstractProtocolIT.assertOk(client.read(), "first");
		AbstractProtocolIT.assertOk(client.read(), "hello");
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void theRequestEventCoversTheWholeSuspension(IoModel model) throws Exception {
		Servers.assumeSupported(model);
		this.server = AriadneServer
			.builder(ServerConfig.builder().address(RawClient.LOOPBACK).port(0).ioModel(model).maxThreads(4).build())
			.routes(List.of(routes()))
			.requestListener(this.events::add)
			.build();
		this.server.start();
		RawClient client = connect();
		client.send("GET /deferred/7 HTTP/1.1\r\nHost: async\r\n\r\n");
		Suspended one = this.suspended.poll(10, TimeUnit.SECONDS);
		Await.until(() -> System.nanoTime() - one.nanos() > TimeUnit.MILLISECONDS.toNanos(300), () -> "time passing");
		// the server read the head before the handler suspended, and ends after this
		long held = System.nanoTime() - one.nanos();
		CompletableFuture.runAsync(() -> one.answer("late"), this.threads);
		AbstractProtocolIT.assertOk(client.read(), "late");
		RequestEvent event = this.events.poll(10, TimeUnit.SECONDS);
		assertThat(event).isNotNull();
		assertThat(event.route()).isEqualTo("/deferred/{id}");
		assertThat(event.status()).isEqualTo(200);
		assertThat(event.durationNanos()).as("event duration").isGreaterThanOrEqualTo(held);
		assertThat(this.events).as("one event per exchange").isEmpty();
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void gracefulShutdownWaitsForASuspendedExchange(IoModel model) throws Exception {
		start(model, 4);
		RawClient client = connect();
		client.send("GET /deferred/1 HTTP/1.1\r\nHost: async\r\n\r\n");
		Suspended one = this.suspended.poll(10, TimeUnit.SECONDS);
		CompletableFuture<Boolean> shutdown = CompletableFuture
			.supplyAsync(() -> this.server.shutdownGracefully(Duration.ofSeconds(20)), this.threads);
		int port = this.server.port();
		// the shutdown has begun once the server accepts no more
		Await.until(() -> refuses(port), () -> "still accepting");
		assertThat(shutdown).isNotDone();
		one.answer("finished");
		RawResponse response = client.read();
		AbstractProtocolIT.assertOk(response, "finished");
		assertThat(response.announcesClose()).isTrue();
		assertThat(shutdown.get(20, TimeUnit.SECONDS)).as("drained").isTrue();
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void forcedStopClosesASuspendedExchangeAndTellsIt(IoModel model) throws Exception {
		start(model, 4);
		RawClient client = connect();
		client.send("GET /deferred/1 HTTP/1.1\r\nHost: async\r\n\r\n");
		Suspended one = this.suspended.poll(10, TimeUnit.SECONDS);
		CountDownLatch told = new CountDownLatch(1);
		one.async().onClose(told::countDown);
		this.server.stop();
		assertThat(told.await(10, TimeUnit.SECONDS)).as("close listener ran").isTrue();
		assertThat(one.async().closed()).isTrue();
		client.expectClosed();
		// ending it now changes nothing, and fails nothing
		one.async().complete();
	}

	private void start(IoModel model, int threads) {
		this.server = Servers.start(model, (config) -> config.maxThreads(threads), routes());
	}

	private Route[] routes() {
		return new Route[] {
				Route.get("/deferred/{id}", (request, response) -> this.suspended
					.add(new Suspended(request, response, response.suspend(), System.nanoTime()))),
				Route.get("/hello", (request, response) -> response.send("hello")) };
	}

	private static boolean refuses(int port) {
		try (RawClient probe = RawClient.connect(port)) {
			return false;
		}
		catch (IOException ex) {
			return true;
		}
	}

	private RawClient connect() throws IOException {
		RawClient client = RawClient.connect(this.server.port(), Duration.ofSeconds(20));
		this.clients.add(client);
		return client;
	}

}
