package dev.ariadne.it.websocket;

import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.messaging.handler.annotation.SendTo;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ResponseBody;

/**
 * Greets over STOMP ({@code /app/greet} to {@code /topic/greetings}) and answers a plain HTTP
 * request ({@code /hello}).
 */
@Controller
public class GreetingController {

	/**
	 * Greets a name, for every subscriber of {@code /topic/greetings}.
	 * @param name the name
	 * @return the greeting
	 */
	@MessageMapping("/greet")
	@SendTo("/topic/greetings")
	public String greet(String name) {
		return "Hello, " + name + "!";
	}

	/**
	 * Answers a plain request.
	 * @return a word
	 */
	@GetMapping("/hello")
	@ResponseBody
	public String hello() {
		return "hello";
	}

}
