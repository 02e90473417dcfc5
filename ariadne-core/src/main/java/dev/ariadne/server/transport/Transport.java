package dev.ariadne.server.transport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;

import dev.ariadne.server.stats.AcceptQueueProbe;
import dev.ariadne.server.stats.PoolStats;

/**
 * One I/O model's way of accepting connections and running their exchanges. Each I/O model
 * has one implementation, named after its property value ({@code BlockingTransport},
 * {@code EventLoopTransport}, {@code VirtualThreadTransport}), built on
 * {@link AbstractTransport}, which holds what the models share: the acceptor and the shutdown
 * sequence.
 *
 * <p>Contract, for every model:
 * <ul>
 * <li>{@link #start()} binds the listening socket with the configured backlog and returns once
 * accepting has begun; it leaves at least one non-daemon thread running until shutdown.</li>
 * <li>A connection permit is taken before each {@code accept()} and released when that
 * connection closes, on every path; without a permit the transport does not accept, so clients
 * wait in the kernel's accept queue.</li>
 * <li>Handlers never run on an acceptor or selector thread.</li>
 * <li>{@link #shutdown(Duration)} is called once, from any thread, and blocks until every
 * connection and thread of the transport is gone or the grace period is over (then it closes
 * what is left).</li>
 * </ul>
 */
public interface Transport {

	/**
	 * Binds and starts accepting.
	 * @throws IOException if the socket cannot be bound
	 */
	void start() throws IOException;

	/**
	 * Returns the bound address.
	 * @return the address, or {@code null} before {@link #start()}
	 */
	InetSocketAddress localAddress();

	/**
	 * Stops accepting, closes idle connections, lets active exchanges finish with
	 * {@code Connection: close} for up to the grace period, then closes everything.
	 * @param gracePeriod how long active exchanges may take; zero closes everything at once
	 * @return whether every connection finished within the grace period
	 */
	boolean shutdown(Duration gracePeriod);

	/**
	 * Releases whatever {@link #start()} acquired after it failed.
	 */
	void close();

	/**
	 * Returns the model's own pool, named {@code default}, for the statistics: the workers of
	 * {@code blocking} and {@code event-loop}, the in-flight permits of {@code virtual-threads}.
	 * Any thread, from construction on.
	 * @return the pool
	 */
	PoolStats pool();

	/**
	 * Returns the reader of the listening socket's kernel accept queue.
	 * @return the probe, or {@code null} before the socket is bound
	 */
	AcceptQueueProbe acceptQueue();

	/**
	 * Returns how many pooled buffers connections have borrowed and not given back: 0 whenever
	 * no connection is reading or holding input, so a leak check can compare it with zero. Any
	 * thread; the value may be a moment old.
	 * @return the borrowed buffers, 0 for a model that pools none
	 */
	default int borrowedBuffers() {
		return 0;
	}

}
