package dev.ariadne.it.mvc;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;

import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseCookie;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.CookieValue;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * The JSON API of the conformance application: bodies in and out (JSON, and raw bytes echoed),
 * path variables and parameters, forms, uploads, failures, response entities, cookies and the
 * session.
 */
@RestController
@RequestMapping("/api")
class ApiController {

	private final Gate gate;

	ApiController(Gate gate) {
		this.gate = gate;
	}

	/** An order, validated. */
	record Order(@NotBlank String item, @Min(1) int quantity, List<String> notes) {
	}

	/** What {@link #order} answers. */
	record Confirmation(String item, int quantity, List<String> notes, String contentType) {
	}

	@PostMapping(path = "/orders", consumes = MediaType.APPLICATION_JSON_VALUE)
	ResponseEntity<Confirmation> order(@Valid @RequestBody Order order,
			@RequestHeader(HttpHeaders.CONTENT_TYPE) String contentType) {
		Confirmation confirmation = new Confirmation(order.item(), order.quantity(),
				(order.notes() != null) ? order.notes() : List.of(), contentType);
		URI location = UriComponentsBuilder.fromPath("/api/orders/{item}").buildAndExpand(order.item()).encode().toUri();
		return ResponseEntity.created(location).body(confirmation);
	}

	@GetMapping("/items/{name}/{variant}")
	Map<String, Object> item(@PathVariable String name, @PathVariable String variant, @RequestParam String q,
			@RequestParam(required = false) List<String> tag) {
		Map<String, Object> answer = new LinkedHashMap<>();
		answer.put("name", name);
		answer.put("variant", variant);
		answer.put("q", q);
		answer.put("tag", (tag != null) ? tag : List.of());
		return answer;
	}

	@PostMapping(path = "/form", consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE)
	Map<String, Object> form(@RequestParam String name, @RequestParam List<String> color,
			@RequestParam(required = false) String empty) {
		Map<String, Object> answer = new LinkedHashMap<>();
		answer.put("name", name);
		answer.put("color", color);
		answer.put("empty", empty);
		return answer;
	}

	@PostMapping(path = "/upload", consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
	Map<String, Object> upload(@RequestParam("file") MultipartFile file, @RequestParam String title)
			throws IOException {
		byte[] bytes = file.getBytes();
		long sum = 0;
		for (byte b : bytes) {
			sum += b & 0xFF;
		}
		Map<String, Object> answer = new LinkedHashMap<>();
		answer.put("title", title);
		answer.put("filename", file.getOriginalFilename());
		answer.put("contentType", file.getContentType());
		answer.put("size", file.getSize());
		answer.put("sum", sum);
		return answer;
	}

	@PostMapping(path = "/echo", produces = MediaType.APPLICATION_OCTET_STREAM_VALUE)
	byte[] echo(@RequestBody(required = false) byte[] body) {
		return (body != null) ? body : new byte[0];
	}

	/**
	 * Reads the content and its trailers, and answers with trailers of its own: the request's
	 * {@code x-request} trailer echoed, and the content's length.
	 */
	@PostMapping(path = "/trailers")
	void trailers(HttpServletRequest request, HttpServletResponse response) throws IOException {
		byte[] body = request.getInputStream().readAllBytes();
		boolean ready = request.isTrailerFieldsReady();
		Map<String, String> received = request.getTrailerFields();
		response.setTrailerFields(() -> Map.of("x-echo", String.valueOf(received.get("x-request")), "x-length",
				Integer.toString(body.length)));
		response.setContentType(MediaType.TEXT_PLAIN_VALUE);
		response.getWriter().write("ready=" + ready + " supplier=" + (response.getTrailerFields() != null));
	}

	@GetMapping(path = "/protocol", produces = MediaType.TEXT_PLAIN_VALUE)
	String protocol(HttpServletRequest request) {
		return request.getProtocol() + " " + request.getScheme() + " secure=" + request.isSecure() + " connection="
				+ request.getServletConnection().getProtocol() + "/" + request.getServletConnection().getProtocolConnectionId();
	}

	@GetMapping("/fail")
	String fail() {
		throw new IllegalStateException("failed on purpose");
	}

	@GetMapping("/conflict")
	String conflict() {
		throw new ConflictException();
	}

	@GetMapping("/entity")
	ResponseEntity<Map<String, String>> entity() {
		return ResponseEntity.status(HttpStatus.ACCEPTED)
			.header("X-Trace", "one", "two")
			.cacheControl(CacheControl.maxAge(Duration.ofMinutes(5)).cachePublic())
			.eTag("\"v7\"")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("state", "accepted"));
	}

	@GetMapping("/versioned")
	ResponseEntity<String> versioned() {
		return ResponseEntity.ok().eTag("\"v7\"").contentType(MediaType.TEXT_PLAIN).body("version 7");
	}

	@GetMapping("/no-content")
	ResponseEntity<Void> noContent() {
		return ResponseEntity.noContent().header("X-Empty", "yes").build();
	}

	@GetMapping("/cookies/set")
	ResponseEntity<String> setCookies(HttpServletResponse response) {
		Cookie servletCookie = new Cookie("flavour", "oatmeal");
		servletCookie.setPath("/");
		servletCookie.setMaxAge(3600);
		servletCookie.setHttpOnly(true);
		response.addCookie(servletCookie);
		ResponseCookie springCookie = ResponseCookie.from("theme", "dark").path("/").sameSite("Strict").build();
		return ResponseEntity.ok().header(HttpHeaders.SET_COOKIE, springCookie.toString()).body("set");
	}

	@GetMapping("/cookies/read")
	Map<String, String> readCookies(@CookieValue("flavour") String flavour, @CookieValue("theme") String theme) {
		return Map.of("flavour", flavour, "theme", theme);
	}

	@PostMapping("/cart")
	List<String> addToCart(@RequestParam String item, HttpSession session) {
		List<String> cart = cart(session);
		cart.add(item);
		session.setAttribute("cart", cart);
		return cart;
	}

	/** Puts an attribute no session store can serialize beside the others. */
	@PostMapping("/session/unserializable")
	String unserializable(HttpSession session) {
		session.setAttribute("unserializable", new Object());
		return "set";
	}

	@GetMapping("/session/attributes")
	List<String> attributes(HttpSession session) {
		return java.util.Collections.list(session.getAttributeNames()).stream().sorted().toList();
	}

	@GetMapping("/cart")
	Map<String, Object> cart(HttpSession session, @RequestParam(defaultValue = "false") boolean invalidate) {
		Map<String, Object> answer = new LinkedHashMap<>();
		answer.put("id", session.getId());
		answer.put("cart", cart(session));
		if (invalidate) {
			session.invalidate();
		}
		return answer;
	}

	@SuppressWarnings("unchecked")
	private static List<String> cart(HttpSession session) {
		Object cart = session.getAttribute("cart");
		return (cart != null) ? new ArrayList<>((List<String>) cart) : new ArrayList<>();
	}

	/**
	 * Waits at the gate, holding its worker, then answers.
	 * @return {@code slept} when the gate opened
	 * @throws InterruptedException if the thread is interrupted
	 */
	@GetMapping(path = "/slow", produces = MediaType.TEXT_PLAIN_VALUE)
	String slow() throws InterruptedException {
		return this.gate.pass() ? "released" : "timed out";
	}

	/** A failure Spring MVC answers with its annotated status. */
	@ResponseStatus(code = HttpStatus.CONFLICT, reason = "Already ordered")
	static class ConflictException extends RuntimeException {

		private static final long serialVersionUID = 1L;

	}

}
