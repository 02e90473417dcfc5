package dev.ariadne.it.mvc;

import java.io.IOException;
import java.net.URI;
import java.security.Principal;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ResponseBody;

/**
 * Redirects and forwards the three ways Spring applications send them, and the signed-in
 * user's page.
 */
@Controller
class PageController {

	@GetMapping("/pages/redirect")
	String redirect() {
		return "redirect:/pages/target?from=redirect";
	}

	@GetMapping("/pages/see-other")
	ResponseEntity<Void> seeOther() {
		return ResponseEntity.status(HttpStatus.SEE_OTHER).location(URI.create("target?from=see-other")).build();
	}

	@GetMapping("/pages/relative")
	void relative(HttpServletResponse response) throws IOException {
		response.sendRedirect("target?from=relative");
	}

	@GetMapping("/pages/forward")
	String forward() {
		return "forward:/pages/target?from=forward";
	}

	@GetMapping(path = "/pages/target", produces = MediaType.TEXT_PLAIN_VALUE)
	@ResponseBody
	String target(HttpServletRequest request) {
		return "target from=" + request.getParameter("from") + " uri=" + request.getRequestURI();
	}

	@GetMapping(path = "/account/me", produces = MediaType.TEXT_PLAIN_VALUE)
	@ResponseBody
	String me(Principal principal, HttpServletRequest request) {
		return principal.getName() + " admin=" + request.isUserInRole("ADMIN");
	}

	@GetMapping(path = "/admin/**", produces = MediaType.TEXT_PLAIN_VALUE)
	@ResponseBody
	String admin(HttpServletRequest request) {
		return "SECRET of " + request.getRequestURI();
	}

	@GetMapping(path = "/public/**", produces = MediaType.TEXT_PLAIN_VALUE)
	@ResponseBody
	String open() {
		return "public";
	}

}
