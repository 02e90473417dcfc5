package dev.ariadne.servlet;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;

/**
 * Sets up a servlet context when its deployment starts: registers servlets, filters and
 * listeners, sets init parameters and session settings. Spring Boot's
 * {@code ServletContextInitializer} has the same shape.
 */
@FunctionalInterface
public interface ServletStartup {

	/**
	 * Sets up the context. Called once, by {@link ServletDeployment#start()}, in the order the
	 * initializers were added, before any {@code ServletContextListener} is told that the
	 * context is initialised.
	 * @param context the context, open for registrations
	 * @throws ServletException to fail the start
	 */
	void onStartup(ServletContext context) throws ServletException;

}
