package dev.ariadne.autoconfigure.actuate;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import dev.ariadne.autoconfigure.actuate.ManagementServerSettings.PortType;

import org.springframework.context.annotation.Conditional;

/**
 * Matches when Actuator's endpoints are served on the given kind of listener, as decided by
 * {@code management.server.port} and {@code ariadne.server.port}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.TYPE, ElementType.METHOD })
@Documented
@Conditional(OnManagementPortCondition.class)
@interface ConditionalOnManagementPort {

	/**
	 * Returns the kind of listener that must serve the endpoints.
	 * @return the port type
	 */
	PortType value();

}
