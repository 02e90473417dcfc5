package dev.ariadne.autoconfigure.web;

import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.MonoSink;
import reactor.util.context.Context;

/**
 * A subscriber that asks its publisher for one item at a time, the next only once the item in
 * hand has gone where it goes ({@link #next()}), and tells a {@link MonoSink} when the
 * publisher is done: how a response body and a WebSocket session's {@code send} wait for the
 * client rather than buffer.
 * @param <T> the items
 */
abstract class OneAtATime<T> implements CoreSubscriber<T> {

	protected final MonoSink<Void> sink;

	private Subscription upstream;

	OneAtATime(MonoSink<Void> sink) {
		this.sink = sink;
	}

	@Override
	public final Context currentContext() {
		return Context.of(this.sink.contextView());
	}

	@Override
	public final void onSubscribe(Subscription subscription) {
		this.upstream = subscription;
		this.sink.onCancel(this::cancelled);
		subscription.request(1);
	}

	/** The sink's subscriber cancelled: the publisher is cancelled. */
	protected void cancelled() {
		this.upstream.cancel();
	}

	/** Asks for the next item. */
	final void next() {
		this.upstream.request(1);
	}

	/** Cancels the publisher, after a failure to pass an item on. */
	protected final void cancelUpstream() {
		this.upstream.cancel();
	}

}
