package dev.ariadne.autoconfigure.actuate;

import java.util.List;
import java.util.Set;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.web.AdditionalPathsMapper;
import org.springframework.boot.actuate.endpoint.web.WebServerNamespace;
import org.springframework.boot.health.actuate.endpoint.AdditionalHealthEndpointPath;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroup;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroupsPostProcessor;
import org.springframework.boot.health.actuate.endpoint.HttpCodeStatusMapper;
import org.springframework.boot.health.actuate.endpoint.StatusAggregator;

/**
 * {@link HealthEndpointGroups} decorator that makes one contributor a member of the
 * {@code readiness} group, whatever its configured membership, and never of the main group,
 * so that a saturated pool never fails {@code /actuator/health}, which some platforms use as
 * a liveness check. Other groups keep their configured membership.
 *
 * <p>Applied by its {@link #postProcessor post-processor} after Boot's availability probes
 * have created the readiness group: both have the lowest precedence, and this one's bean is
 * registered later, by an auto-configuration ordered after Boot's.
 */
final class SaturationReadinessGroups implements HealthEndpointGroups, AdditionalPathsMapper {

	private static final String READINESS = "readiness";

	private static final Log logger = LogFactory.getLog(SaturationReadinessGroups.class);

	private final HealthEndpointGroups groups;

	private final String member;

	private SaturationReadinessGroups(HealthEndpointGroups groups, String member) {
		this.groups = groups;
		this.member = member;
	}

	/**
	 * Returns a post-processor that decorates the groups.
	 * @param member the name of the contributor to add to the readiness group
	 * @return the post-processor
	 */
	static HealthEndpointGroupsPostProcessor postProcessor(String member) {
		return (groups) -> {
			if (groups.get(READINESS) == null) {
				logger.warn("ariadne.server.health.saturation-readiness is set but there is no '" + READINESS
						+ "' health group; enable management.endpoint.health.probes.enabled or define the group");
			}
			return new SaturationReadinessGroups(groups, member);
		};
	}

	@Override
	public HealthEndpointGroup getPrimary() {
		return new Membership(this.groups.getPrimary(), this.member, false);
	}

	@Override
	public Set<String> getNames() {
		return this.groups.getNames();
	}

	@Override
	public HealthEndpointGroup get(String name) {
		HealthEndpointGroup group = this.groups.get(name);
		return (group != null && READINESS.equals(name)) ? new Membership(group, this.member, true) : group;
	}

	@Override
	public List<String> getAdditionalPaths(EndpointId endpointId, WebServerNamespace webServerNamespace) {
		return (this.groups instanceof AdditionalPathsMapper mapper)
				? mapper.getAdditionalPaths(endpointId, webServerNamespace) : null;
	}

	/**
	 * A group whose membership of one contributor is fixed.
	 */
	private record Membership(HealthEndpointGroup delegate, String member, boolean included)
			implements HealthEndpointGroup {

		@Override
		public boolean isMember(String name) {
			return this.member.equals(name) ? this.included : this.delegate.isMember(name);
		}

		@Override
		public boolean showComponents(SecurityContext securityContext) {
			return this.delegate.showComponents(securityContext);
		}

		@Override
		public boolean showDetails(SecurityContext securityContext) {
			return this.delegate.showDetails(securityContext);
		}

		@Override
		public StatusAggregator getStatusAggregator() {
			return this.delegate.getStatusAggregator();
		}

		@Override
		public HttpCodeStatusMapper getHttpCodeStatusMapper() {
			return this.delegate.getHttpCodeStatusMapper();
		}

		@Override
		public AdditionalHealthEndpointPath getAdditionalPath() {
			return this.delegate.getAdditionalPath();
		}

	}

}
