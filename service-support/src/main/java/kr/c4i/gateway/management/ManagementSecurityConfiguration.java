package kr.c4i.gateway.management;

import java.util.Set;
import java.util.regex.Pattern;

import jakarta.servlet.DispatcherType;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.security.autoconfigure.SecurityProperties;
import org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration;
import org.springframework.boot.security.autoconfigure.web.servlet.ConditionalOnDefaultWebSecurity;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.annotation.Order;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.util.matcher.AndRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * The management endpoints (actuator) need a credential, except what an orchestrator or a load
 * balancer probes: {@code /actuator/health} (status only, no details for anonymous callers) and the
 * {@code liveness} and {@code readiness} groups. Everything else (details, prometheus, metrics, info)
 * needs HTTP Basic as {@code spring.security.user.name} / {@code spring.security.user.password}.
 * Unlike Spring Boot's default, there is no generated password: a node without one does not start.
 * An operator's own {@link SecurityFilterChain} or {@link UserDetailsService} replaces the matching
 * half of this configuration.
 */
@AutoConfiguration(before = { ManagementWebSecurityAutoConfiguration.class, UserDetailsServiceAutoConfiguration.class },
        afterName = "org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration")
@ConditionalOnWebApplication(type = Type.SERVLET)
@EnableConfigurationProperties(SecurityProperties.class)
public final class ManagementSecurityConfiguration {

    private static final Pattern ENCODED_PASSWORD = Pattern.compile("^\\{.+}.*$");

    private static final Set<String> OPEN_HEALTH_PATHS = Set.of("", "/liveness", "/readiness");

    @Bean
    @Order(SecurityFilterProperties.BASIC_AUTH_ORDER)
    @ConditionalOnDefaultWebSecurity
    SecurityFilterChain managementSecurityFilterChain(HttpSecurity http, PathMappedEndpoints endpoints) {
        http.authorizeHttpRequests(requests -> requests
                // The error page an anonymous 401 is rendered with must not be refused in turn.
                .dispatcherTypeMatchers(DispatcherType.ERROR).permitAll()
                .requestMatchers(openHealth(endpoints)).permitAll()
                .requestMatchers(EndpointRequest.toAnyEndpoint()).authenticated()
                // The services serve nothing else over HTTP.
                .anyRequest().denyAll());
        http.httpBasic(Customizer.withDefaults());
        // A scraper or a curl is no browser: no session, nothing for CSRF to protect.
        http.sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS));
        http.csrf(csrf -> csrf.disable());
        return http.build();
    }

    /**
     * The health endpoint's own path and its probe groups, not its components: {@code /actuator/health/db}
     * would tell an anonymous caller which components exist.
     */
    private static RequestMatcher openHealth(PathMappedEndpoints endpoints) {
        String health = endpoints.getPath(EndpointId.of("health"));
        RequestMatcher openPaths = request -> health != null && OPEN_HEALTH_PATHS.stream()
                .anyMatch(suffix -> request.getRequestURI().endsWith(health + suffix));
        return new AndRequestMatcher(EndpointRequest.to(HealthEndpoint.class), openPaths);
    }

    /**
     * Spring Boot's single user, without its generated password (which would change at every restart). Given as a
     * {@link UserDetailsService} alone: Spring's in-memory manager is also a password service, so Spring Security
     * re-encoded a plain password with bcrypt at the first login, and every scrape after it paid a bcrypt check
     * (5-6% of a core per service at a scrape every 5 s; docs/benchmarks.md, "the compose stack at idle"). The
     * password is in the environment as given anyway.
     */
    @Bean
    @ConditionalOnMissingBean({ UserDetailsService.class, AuthenticationManager.class, AuthenticationProvider.class })
    UserDetailsService managementUser(SecurityProperties security) {
        SecurityProperties.User user = security.getUser();
        if (user.isPasswordGenerated()) {
            throw new ManagementPasswordMissingException(user.getName());
        }
        String password = user.getPassword();
        // Like Spring Boot: a password may be stored encoded, e.g. {bcrypt}$2a$10$...; otherwise it is plain.
        String stored = ENCODED_PASSWORD.matcher(password).matches() ? password : "{noop}" + password;
        InMemoryUserDetailsManager users = new InMemoryUserDetailsManager(User.withUsername(user.getName())
                .password(stored).roles(user.getRoles().toArray(String[]::new)).build());
        return users::loadUserByUsername;
    }
}
