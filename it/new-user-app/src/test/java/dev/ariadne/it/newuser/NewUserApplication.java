package dev.ariadne.it.newuser;

import java.security.cert.X509Certificate;
import java.util.Map;
import java.util.concurrent.Callable;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

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

	@GetMapping(path = "/text/later/{size}", produces = "text/plain")
	Callable<String> textLater(@PathVariable int size) {
		// answered asynchronously: the response ends in the async cycle's completion
		return () -> "a".repeat(size);
	}

	@GetMapping(path = "/connection", produces = "text/plain")
	String connection(HttpServletRequest request) {
		X509Certificate[] chain = (X509Certificate[]) request.getAttribute("jakarta.servlet.request.X509Certificate");
		return request.getScheme() + " secure=" + request.isSecure() + " port=" + request.getServerPort() + " "
				+ request.getAttribute("jakarta.servlet.request.cipher_suite") + " "
				+ request.getAttribute("jakarta.servlet.request.key_size") + " peer="
				+ ((chain != null) ? chain[0].getSubjectX500Principal().getName() : "none") + " url="
				+ request.getRequestURL();
	}

	@GetMapping("/teapot/{kind}")
	String teapot(@PathVariable String kind) {
		throw new ResponseStatusException(HttpStatus.I_AM_A_TEAPOT, "no " + kind + " here");
	}

	@GetMapping("/fail")
	String fail() {
		throw new IllegalStateException("failed on purpose");
	}

}
