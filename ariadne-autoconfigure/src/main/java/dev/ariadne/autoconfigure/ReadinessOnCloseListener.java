package dev.ariadne.autoconfigure;

import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;

/**
 * Turns readiness to {@link ReadinessState#REFUSING_TRAFFIC} when the context starts to close,
 * before the server drains: the context publishes {@link ContextClosedEvent} before it stops
 * its lifecycle beans. Boot's servlet and reactive web contexts do this themselves; a
 * non-web context, which is what an Ariadne application runs in, does not.
 */
final class ReadinessOnCloseListener implements ApplicationListener<ContextClosedEvent> {

	private final ApplicationContext applicationContext;

	/**
	 * Creates a listener for one context.
	 * @param applicationContext the context whose closing refuses traffic; closing events of
	 * child contexts, which reach this listener too, are ignored
	 */
	ReadinessOnCloseListener(ApplicationContext applicationContext) {
		this.applicationContext = applicationContext;
	}

	@Override
	public void onApplicationEvent(ContextClosedEvent event) {
		if (event.getApplicationContext() == this.applicationContext) {
			AvailabilityChangeEvent.publish(this.applicationContext, ReadinessState.REFUSING_TRAFFIC);
		}
	}

}
