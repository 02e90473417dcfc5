package dev.ariadne.autoconfigure.web;

import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.ariadne.http.HttpParseException;
import dev.ariadne.server.AsyncResponse;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import reactor.core.publisher.Operators;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.server.ResponseStatusException;

/**
 * A request body as a {@link Publisher} of {@link DataBuffer}s, for one subscriber: reads what
 * the client has sent so far ({@link AsyncResponse#read}) while there is demand, and when
 * nothing is there, lets the exchange call back once something is ({@link AsyncResponse#readable()}),
 * so no thread waits for a slow client. Demand is the back-pressure: while the subscriber asks
 * for nothing, nothing is read, and the event loop stops reading the socket.
 *
 * <p>Reads run one at a time (a work-in-progress counter serialises them), on the thread that
 * asked for more or on a worker of the exchange's pool.
 *
 * <p>A body the parser refuses as it is read (malformed chunked framing, a chunk over the limit,
 * a client too slow) ends the stream with a {@link ResponseStatusException} of the parser's
 * status, which WebFlux answers with that status rather than a 500, and marks the framing lost
 * ({@link #framingLost()}) so that the response closes the connection, whoever writes it.
 */
final class RequestBodyPublisher implements Publisher<DataBuffer>, Subscription {

	/** The most bytes one buffer carries. */
	static final int BUFFER_SIZE = 16 * 1024;

	private final AsyncResponse exchange;

	private final DataBufferFactory bufferFactory;

	private final AtomicBoolean subscribed = new AtomicBoolean();

	private final AtomicLong demand = new AtomicLong();

	private final AtomicInteger work = new AtomicInteger();

	private volatile Subscriber<? super DataBuffer> subscriber;

	private volatile boolean cancelled;

	private volatile boolean framingLost;

	private boolean done;

	/** Where reads land; handed over whole when a read fills it, else copied out. */
	private byte[] scratch;

	RequestBodyPublisher(AsyncResponse exchange, DataBufferFactory bufferFactory) {
		this.exchange = exchange;
		this.bufferFactory = bufferFactory;
	}

	/**
	 * Returns whether reading failed on the body's framing or a limit: the connection cannot
	 * carry another request.
	 * @return whether the framing is lost
	 */
	boolean framingLost() {
		return this.framingLost;
	}

	@Override
	public void subscribe(Subscriber<? super DataBuffer> subscriber) {
		if (!this.subscribed.compareAndSet(false, true)) {
			Operators.error(subscriber, new IllegalStateException("The request body can be read only once"));
			return;
		}
		this.subscriber = subscriber;
		this.exchange.onReadable(this::drain);
		subscriber.onSubscribe(this);
	}

	@Override
	public void request(long n) {
		if (n <= 0) {
			this.cancelled = true;
			this.subscriber.onError(new IllegalArgumentException("Rule 3.9: request a positive number, not " + n));
			return;
		}
		this.demand.getAndUpdate((current) -> Operators.addCap(current, n));
		drain();
	}

	@Override
	public void cancel() {
		this.cancelled = true;
	}

	private void drain() {
		if (this.work.getAndIncrement() != 0) {
			return;
		}
		int missed = 1;
		do {
			read();
			missed = this.work.addAndGet(-missed);
		}
		while (missed != 0);
	}

	private void read() {
		Subscriber<? super DataBuffer> subscriber = this.subscriber;
		while (!this.done && !this.cancelled && this.demand.get() > 0) {
			byte[] bytes;
			int read;
			try {
				if (!this.exchange.readable()) {
					return;
				}
				if (this.scratch == null) {
					this.scratch = new byte[BUFFER_SIZE];
				}
				bytes = this.scratch;
				read = this.exchange.read(bytes, 0, bytes.length);
			}
			catch (IOException | RuntimeException ex) {
				this.done = true;
				subscriber.onError(failure(ex));
				return;
			}
			if (read < 0) {
				this.done = true;
				subscriber.onComplete();
				return;
			}
			if (read > 0) {
				if (read == bytes.length) {
					this.scratch = null;
				}
				else {
					bytes = Arrays.copyOf(bytes, read);
				}
				this.demand.decrementAndGet();
				subscriber.onNext(this.bufferFactory.wrap(bytes));
			}
		}
	}

	private Throwable failure(Exception ex) {
		if (ex.getCause() instanceof HttpParseException refused) {
			this.framingLost = true;
			return new ResponseStatusException(HttpStatusCode.valueOf(refused.status().code()), refused.reason(), ex);
		}
		return ex;
	}

}
