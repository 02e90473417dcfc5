package dev.ariadne.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The seed's workload served by Ariadne: a light text route, a light JSON route and a
 * CPU-heavy route, with profiles that reproduce thread-pool starvation and fix it.
 */
@SpringBootApplication
public class SampleApplication {

	/**
	 * Starts the application.
	 * @param args the command-line arguments
	 */
	public static void main(String[] args) {
		SpringApplication.run(SampleApplication.class, args);
	}

}
