package dev.ariadne.autoconfigure.web;

import dev.ariadne.servlet.ServletDeployment;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.actuate.autoconfigure.web.server.ConditionalOnManagementPort;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementContextFactory;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.web.server.reactive.ReactiveWebServerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration}
 * for {@code management.server.port} in a reactive application served by Ariadne: Actuator runs
 * in Boot's management child context on an Ariadne listener of its own, with its own small
 * pool. Reactor Netty's auto-configuration contributes a {@link ManagementContextFactory} of
 * its own when it is on the class path; this one is {@link Primary}.
 */
@AutoConfiguration(after = AriadneReactiveWebServerAutoConfiguration.class)
@ConditionalOnClass({ ServletDeployment.class, ManagementContextFactory.class })
@ConditionalOnWebApplication(type = Type.REACTIVE)
@ConditionalOnManagementPort(ManagementPortType.DIFFERENT)
@ConditionalOnBean(AriadneReactiveWebServerFactory.class)
public final class AriadneReactiveManagementContextAutoConfiguration {

	@Bean
	@Primary
	static ManagementContextFactory ariadneReactiveWebChildContextFactory() {
		return new ManagementContextFactory(WebApplicationType.REACTIVE, ReactiveWebServerFactory.class,
				AriadneReactiveWebServerAutoConfiguration.class);
	}

}
