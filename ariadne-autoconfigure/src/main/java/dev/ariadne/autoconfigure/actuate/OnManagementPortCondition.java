package dev.ariadne.autoconfigure.actuate;

import java.util.Map;

import dev.ariadne.autoconfigure.actuate.ManagementServerSettings.PortType;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when Actuator's endpoints are served where
 * {@link ConditionalOnManagementPort @ConditionalOnManagementPort} says.
 */
class OnManagementPortCondition extends SpringBootCondition {

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		Map<String, Object> attributes = metadata.getAnnotationAttributes(ConditionalOnManagementPort.class.getName());
		PortType required = (PortType) attributes.get("value");
		ManagementServerSettings settings = ManagementServerSettings.get(context.getEnvironment());
		PortType actual = settings.portType();
		String message = "management port type " + actual + " (" + ManagementServerSettings.PORT_PROPERTY + "="
				+ settings.port() + ", ariadne.server.port=" + settings.applicationPort() + ")";
		return (actual == required) ? ConditionOutcome.match(message) : ConditionOutcome.noMatch(message);
	}

}
