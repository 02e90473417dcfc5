package dev.ariadne.autoconfigure.actuate;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ariadne.AriadneServer;
import dev.ariadne.autoconfigure.AriadneServers;
import dev.ariadne.server.diagnosis.Diagnosis;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.util.MimeType;

/**
 * {@link Endpoint @Endpoint} ({@code ariadne}) that shows the live state of each Ariadne
 * listener, the application's and, when there is one, the management listener: its worker
 * pool, its connections, the kernel's accept queue, and the configuration it runs with. Under
 * it:
 * <ul>
 * <li>{@code ariadne/diagnosis}: each pool's verdict, why it is starved and what to change
 * (JSON);</li>
 * <li>{@code ariadne/history}: the last minutes of each listener's figures, sampled once a
 * second by its diagnosis (JSON);</li>
 * <li>{@code ariadne/live}: a page that charts the history and shows the verdicts and their
 * advice, served from the jar (HTML, no external resources).</li>
 * </ul>
 *
 * <p>The servers are looked up when the endpoint is read, not when it is created, since
 * endpoints are discovered while the servers that serve them are being created.
 */
@Endpoint(id = "ariadne")
public class AriadneEndpoint {

	/** The type of the JSON parts, as Actuator's own endpoints answer. */
	static final MimeType JSON = MimeType.valueOf("application/vnd.spring-boot.actuator.v3+json");

	/** The type of the live page. */
	static final MimeType HTML = MimeType.valueOf("text/html;charset=UTF-8");

	static final String LIVE_PAGE = "ariadne-live.html";

	private final ObjectProvider<AriadneServers> servers;

	private volatile String livePage;

	/**
	 * Creates the endpoint.
	 * @param servers provides the running listeners: the application's and, when there is
	 * one, the management listener
	 */
	public AriadneEndpoint(ObjectProvider<AriadneServers> servers) {
		this.servers = servers;
	}

	/**
	 * Returns a snapshot of every listener.
	 * @return the listeners by name ({@code app}, {@code management})
	 */
	@ReadOperation
	public ListenersDescriptor listeners() {
		Map<String, ListenerDescriptor> listeners = new LinkedHashMap<>();
		for (AriadneServer server : servers()) {
			listeners.put(server.config().name(), ListenerDescriptor.of(server));
		}
		return new ListenersDescriptor(listeners);
	}

	/**
	 * Returns one part under the endpoint: {@code diagnosis}, {@code history} or {@code live}.
	 * The JSON parts are answered as JSON and the page as HTML whatever the request accepts,
	 * so that one operation serves all three on every web stack.
	 * @param part the part's name
	 * @return the part, or 404 for an unknown one
	 */
	@ReadOperation(produces = { "application/vnd.spring-boot.actuator.v3+json", "application/json", "text/html" })
	public WebEndpointResponse<Object> part(@Selector String part) {
		return switch (part) {
			case "diagnosis" -> new WebEndpointResponse<>(DiagnosisDescriptor.of(diagnoses()), 200, JSON);
			case "history" -> new WebEndpointResponse<>(HistoryDescriptor.of(diagnoses()), 200, JSON);
			case "live" -> new WebEndpointResponse<>(livePage(), 200, HTML);
			default -> new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND);
		};
	}

	/** The running listeners, the application's first. */
	private List<AriadneServer> servers() {
		AriadneServers servers = this.servers.getIfAvailable();
		return (servers != null) ? servers.all() : List.of();
	}

	private List<Diagnosis> diagnoses() {
		List<Diagnosis> diagnoses = new ArrayList<>(2);
		for (AriadneServer server : servers()) {
			server.diagnosis().ifPresent(diagnoses::add);
		}
		return diagnoses;
	}

	private String livePage() {
		String page = this.livePage;
		if (page == null) {
			try (InputStream in = AriadneEndpoint.class.getResourceAsStream(LIVE_PAGE)) {
				if (in == null) {
					throw new IllegalStateException("The live page " + LIVE_PAGE + " is missing from the jar");
				}
				page = new String(in.readAllBytes(), StandardCharsets.UTF_8);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			this.livePage = page;
		}
		return page;
	}

	/**
	 * Every listener's snapshot.
	 *
	 * @param listeners the snapshots by listener name
	 */
	public record ListenersDescriptor(Map<String, ListenerDescriptor> listeners) implements OperationResponseBody {
	}

}
