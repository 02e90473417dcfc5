package dev.ariadne.it.websocket;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.websocket.CloseReason;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.server.ServerContainer;
import jakarta.websocket.server.ServerEndpointConfig;

import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

/**
 * Switches {@code GET /upgraded/{name}} to an {@link UpgradedEndpoint} with the servlet
 * container's {@code upgradeHttpToWebSocket}, as an application does without Spring's WebSocket
 * support: one configuration without encoders or decoders, shared by every request (its user
 * properties hold {@code shared}), whose configurator makes a fresh endpoint each time. Only in
 * the {@value #PROFILE} profile, which {@link UpgradedEndpointIT} starts the application with.
 * The path is open to anyone, as {@code /echo} is ({@code SecurityConfiguration}).
 */
@Controller
@Profile(UpgradedEndpointController.PROFILE)
class UpgradedEndpointController {

	static final String PROFILE = "upgraded-endpoint";

	private final Map<String, CloseReason> closes = new ConcurrentHashMap<>();

	private final ServerEndpointConfig config = ServerEndpointConfig.Builder
		.create(UpgradedEndpoint.class, "/upgraded/{name}")
		.configurator(new ServerEndpointConfig.Configurator() {
			@Override
			public <T> T getEndpointInstance(Class<T> endpointClass) {
				return endpointClass.cast(new UpgradedEndpoint(UpgradedEndpointController.this.closes));
			}
		})
		.build();

	UpgradedEndpointController() {
		this.config.getUserProperties().put("shared", "from the config");
	}

	@GetMapping("/upgraded/{name}")
	void upgrade(@PathVariable String name, HttpServletRequest request, HttpServletResponse response)
			throws IOException, DeploymentException {
		ServerContainer container = (ServerContainer) request.getServletContext()
			.getAttribute(ServerContainer.class.getName());
		container.upgradeHttpToWebSocket(request, response, this.config, Map.of("name", name));
	}

	/**
	 * Returns how each session closed, as its endpoint's {@code onClose} was told, by path parameter.
	 * @return the closes
	 */
	Map<String, CloseReason> closes() {
		return this.closes;
	}

}
