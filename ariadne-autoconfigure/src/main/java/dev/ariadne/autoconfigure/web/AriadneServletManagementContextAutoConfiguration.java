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
import org.springframework.boot.web.server.servlet.ServletWebServerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration}
 * for {@code management.server.port} in a servlet application served by Ariadne: Actuator runs
 * in Boot's management child context on an Ariadne listener of its own, with its own small
 * pool, so that scraping keeps answering while the application's pool is starved.
 *
 * <p>Tomcat's and Jetty's auto-configurations contribute a {@link ManagementContextFactory} of
 * their own when they are on the class path; this one is {@link Primary}, since the
 * application's server is Ariadne's.
 */
@AutoConfiguration(after = AriadneServletWebServerAutoConfiguration.class)
@ConditionalOnClass({ ServletDeployment.class, ManagementContextFactory.class })
@ConditionalOnWebApplication(type = Type.SERVLET)
@ConditionalOnManagementPort(ManagementPortType.DIFFERENT)
@ConditionalOnBean(AriadneServletWebServerFactory.class)
public final class AriadneServletManagementContextAutoConfiguration {

	@Bean
	@Primary
	static ManagementContextFactory ariadneServletWebChildContextFactory() {
		return new ManagementContextFactory(WebApplicationType.SERVLET, ServletWebServerFactory.class,
				AriadneServletWebServerAutoConfiguration.class);
	}

}
