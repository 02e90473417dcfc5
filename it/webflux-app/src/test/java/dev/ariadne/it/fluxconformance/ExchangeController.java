package dev.ariadne.it.fluxconformance;

import java.net.URI;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.ResponseCookie;
import org.springframework.http.ResponseEntity;
import org.springframework.http.codec.multipart.FilePart;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.CookieValue;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RequestPart;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;

/**
 * The request side of the conformance application: JSON, path variables and query parameters,
 * forms, multipart uploads, bodies echoed or counted, response entities, cookies and headers.
 */
@RestController
class ExchangeController {

	/**
	 * An order, as a client sends it.
	 * @param item what is ordered
	 * @param quantity how many
	 * @param notes free notes
	 */
	record Order(String item, int quantity, List<String> notes) {
	}

	/**
	 * The answer to an order.
	 * @param item what was ordered
	 * @param quantity how many
	 * @param notes the notes, as received
	 * @param accepted whether the order was accepted
	 */
	record Receipt(String item, int quantity, List<String> notes, boolean accepted) {
	}

	@PostMapping("/json/orders")
	Mono<Receipt> order(@RequestBody Mono<Order> order) {
		return order.map((o) -> new Receipt(o.item(), o.quantity(), o.notes(), o.quantity() > 0));
	}

	@GetMapping("/users/{id}")
	Mono<Map<String, String>> user(@PathVariable String id) {
		return Mono.just(Map.of("id", id));
	}

	@GetMapping("/greet/{name}")
	Map<String, Object> greet(@PathVariable String name, @RequestParam("name") String who,
			@RequestParam(name = "tag", required = false) List<String> tags,
			@RequestParam(name = "plus", required = false) String plus) {
		Map<String, Object> answer = new LinkedHashMap<>();
		answer.put("path", name);
		answer.put("name", who);
		answer.put("tag", tags);
		answer.put("plus", plus);
		return answer;
	}

	@PostMapping("/form")
	Mono<MultiValueMap<String, String>> form(ServerWebExchange exchange) {
		return exchange.getFormData();
	}

	@PostMapping("/upload")
	Mono<Map<String, Object>> upload(@RequestPart("title") String title, @RequestPart("file") FilePart file) {
		MessageDigest digest = sha256();
		return DataBufferUtils.join(file.content()).map((buffer) -> {
			long size = buffer.readableByteCount();
			byte[] bytes = new byte[(int) size];
			buffer.read(bytes);
			DataBufferUtils.release(buffer);
			digest.update(bytes);
			Map<String, Object> answer = new LinkedHashMap<>();
			answer.put("title", title);
			answer.put("filename", file.filename());
			answer.put("contentType", String.valueOf(file.headers().getContentType()));
			answer.put("size", size);
			answer.put("sha256", HexFormat.of().formatHex(digest.digest()));
			return answer;
		});
	}

	@PostMapping("/echo")
	Mono<ResponseEntity<byte[]>> echo(ServerWebExchange exchange) {
		return DataBufferUtils.join(exchange.getRequest().getBody()).map((buffer) -> {
			byte[] bytes = new byte[buffer.readableByteCount()];
			buffer.read(bytes);
			DataBufferUtils.release(buffer);
			return bytes;
		})
			.defaultIfEmpty(new byte[0])
			.map((bytes) -> ResponseEntity.ok()
				.header("Content-Type", "application/octet-stream")
				.body(bytes));
	}

	@PostMapping("/count")
	Mono<String> count(@RequestBody Flux<DataBuffer> body) {
		return body.map((buffer) -> {
			long size = buffer.readableByteCount();
			DataBufferUtils.release(buffer);
			return size;
		}).reduce(0L, Long::sum).map(String::valueOf);
	}

	@PostMapping("/things")
	ResponseEntity<Map<String, String>> create(@RequestBody Map<String, String> thing) {
		return ResponseEntity.created(URI.create("/things/" + thing.get("name")))
			.header("X-Thing", thing.get("name"))
			.header("X-Trace", "one", "two")
			.header("Cache-Control", "no-store")
			.body(thing);
	}

	@GetMapping("/cookies/set")
	Mono<ResponseEntity<String>> setCookies() {
		ResponseCookie session = ResponseCookie.from("session", "abc123")
			.httpOnly(true)
			.path("/")
			.maxAge(Duration.ofHours(1))
			.sameSite("Strict")
			.build();
		ResponseCookie theme = ResponseCookie.from("theme", "dark").maxAge(Duration.ofDays(30)).sameSite("Lax").build();
		return Mono.just(ResponseEntity.ok()
			.header("Set-Cookie", session.toString())
			.header("Set-Cookie", theme.toString())
			.body("cookies set"));
	}

	@GetMapping("/cookies/read")
	Mono<String> readCookies(@CookieValue("session") String session, @CookieValue("theme") String theme) {
		return Mono.just("session=" + session + ", theme=" + theme);
	}

	@GetMapping("/headers/read")
	Mono<Map<String, Object>> readHeaders(@RequestHeader("X-Multi") List<String> multi,
			@RequestHeader("X-Single") String single, @RequestHeader("X-List") List<String> list) {
		return Mono.just(Map.of("multi", multi, "single", single, "list", list));
	}

	private static MessageDigest sha256() {
		try {
			return MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
