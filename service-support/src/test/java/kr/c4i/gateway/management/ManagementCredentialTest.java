package kr.c4i.gateway.management;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration;
import org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration;
import org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;

/** Where the management credential comes from, and what a node without one does. */
class ManagementCredentialTest {

    private static final PasswordEncoder PASSWORDS = PasswordEncoderFactories.createDelegatingPasswordEncoder();

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ManagementSecurityConfiguration.class,
                    SecurityAutoConfiguration.class, ServletWebSecurityAutoConfiguration.class,
                    UserDetailsServiceAutoConfiguration.class))
            .withBean(PathMappedEndpoints.class, () -> new PathMappedEndpoints("/actuator", List::of));

    @Test
    void aNodeWithoutAPasswordDoesNotStartAndSaysWhatToSet() {
        runner.run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isInstanceOf(ManagementPasswordMissingException.class)
                    .hasMessageContaining("spring.security.user.password");
            FailureAnalysis analysis = new ManagementFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis.getAction()).contains("spring.security.user.password")
                    .contains("SPRING_SECURITY_USER_PASSWORD");
        });
    }

    @Test
    void aPlainOrAnEncodedPasswordIsTheUsersCredential() {
        runner.withPropertyValues("spring.security.user.name=ops", "spring.security.user.password=plain-secret")
                .run(context -> assertThat(PASSWORDS.matches("plain-secret",
                        context.getBean(UserDetailsService.class).loadUserByUsername("ops").getPassword())).isTrue());
        String hash = PASSWORDS.encode("hashed-secret");
        runner.withPropertyValues("spring.security.user.password=" + hash)
                .run(context -> assertThat(PASSWORDS.matches("hashed-secret",
                        context.getBean(UserDetailsService.class).loadUserByUsername("user").getPassword())).isTrue());
    }

    @Test
    void anOperatorsOwnUsersReplaceThePropertyUser() {
        runner.withBean(UserDetailsService.class, () -> new InMemoryUserDetailsManager(
                User.withUsername("ldap-like").password("{noop}x").build())).run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBeansOfType(UserDetailsService.class)).hasSize(1);
                    assertThat(context.getBean(UserDetailsService.class).loadUserByUsername("ldap-like")).isNotNull();
                });
    }
}
