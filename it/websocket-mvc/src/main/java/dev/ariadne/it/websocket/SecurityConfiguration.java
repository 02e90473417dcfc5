package dev.ariadne.it.websocket;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Spring Security around the handshakes: {@code /secure/**} needs a user (HTTP Basic), the rest
 * is open; SockJS's XHR transports post without a CSRF token, and its iframe is same-origin.
 */
@Configuration(proxyBeanMethods = false)
public class SecurityConfiguration {

	@Bean
	SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
		http.authorizeHttpRequests(
				(requests) -> requests.requestMatchers("/secure/**").authenticated().anyRequest().permitAll())
			.httpBasic(Customizer.withDefaults())
			.csrf((csrf) -> csrf.ignoringRequestMatchers("/stomp/**", "/secure/stomp/**"))
			.headers((headers) -> headers.frameOptions((frames) -> frames.sameOrigin()));
		return http.build();
	}

}
