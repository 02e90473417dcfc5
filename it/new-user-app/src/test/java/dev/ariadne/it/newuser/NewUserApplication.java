package dev.ariadne.it.newuser;

import java.util.Map;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * A new user's application, as the Spring guides write one: nothing in it knows about Ariadne.
 */
@SpringBootApplication
@RestController
public class NewUserApplication {

	@GetMapping("/greeting/{name}")
	Map<String, String> greeting(@PathVariable String name) {
		return Map.of("greeting", "Hello, " + name + "!");
	}

	@GetMapping(path = "/text/{size}", produces = "text/plain")
	String text(@PathVariable int size) {
		return "a".repeat(size);
	}

	@GetMapping("/fail")
	String fail() {
		throw new IllegalStateException("failed on purpose");
	}

}
