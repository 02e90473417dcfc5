package dev.ariadne.it.fluxconformance;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The WebFlux conformance cases on Reactor Netty, WebFlux's own server, without the starter:
 * the reference that shows the cases ask what WebFlux users get anyway.
 */
class WebFluxConformanceOnReactorNettyIT
		implements ExchangeCases, FramingCases, ErrorCases, StreamingCases, RequestFactsCases, TraceCases,
		RequestMeterCases, WebSocketCases {

	private static FluxApp app;

	@BeforeAll
	static void start() {
		app = FluxApp.onReactorNetty();
	}

	@AfterAll
	static void stop() {
		if (app != null) {
			app.close();
		}
	}

	@Override
	public FluxApp app() {
		return app;
	}

	@Override
	public boolean mayResetAfterItsCloseFrame() {
		// Reactor Netty closes the connection once its 1009 is written, with the client's 16 MB
		// still arriving: the client's stack may then see a reset instead of the frame
		return true;
	}

}
