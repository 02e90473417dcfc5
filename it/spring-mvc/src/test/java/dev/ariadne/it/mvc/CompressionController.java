package dev.ariadne.it.mvc;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

/**
 * Bodies for {@code server.compression.*}: streamed text and JSON whose length Spring MVC does
 * not know, and a short text whose length it declares.
 */
@RestController
@RequestMapping("/compression")
class CompressionController {

	/**
	 * Streams {@code size} characters of {@link #text(int)} from Spring MVC's task executor,
	 * without a length, flushing once halfway.
	 */
	@GetMapping("/stream")
	ResponseEntity<StreamingResponseBody> stream(@RequestParam int size) {
		return ResponseEntity.ok().contentType(MediaType.TEXT_PLAIN).body((out) -> {
			byte[] body = text(size).getBytes(StandardCharsets.US_ASCII);
			out.write(body, 0, body.length / 2);
			out.flush();
			out.write(body, body.length / 2, body.length - body.length / 2);
		});
	}

	/** Items as JSON, which Jackson writes without a length. */
	@GetMapping(path = "/items", produces = MediaType.APPLICATION_JSON_VALUE)
	List<Map<String, Object>> items(@RequestParam int count) {
		List<Map<String, Object>> items = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			items.add(Map.of("id", i, "name", "item number " + i));
		}
		return items;
	}

	/** A short text, which Spring MVC sends with its length. */
	@GetMapping(path = "/word", produces = MediaType.TEXT_PLAIN_VALUE)
	String word() {
		return "compressible";
	}

	static String text(int size) {
		StringBuilder text = new StringBuilder(size);
		for (int i = 0; text.length() < size; i++) {
			text.append("streamed line ").append(i).append('\n');
		}
		return text.substring(0, size);
	}

}
