package kr.c4i.gateway.deploy.docker;

import java.time.Duration;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.utility.DockerImageName;

/**
 * The images docker-compose.yml runs by default, as {@code bin/images} builds them from Debian's packages and the
 * build's exec jars (the docker profile runs it before these suites). Never pulled: a missing one is a clear failure.
 */
final class LocalImages {

    static final DockerImageName NODE = local("c4i-gateway/db-bridge:local");

    static final DockerImageName WAN_GATEWAY = local("c4i-gateway/wan-gateway:local");

    /** Debian's PostgreSQL behind the official image's contract, so Testcontainers' PostgreSQL module takes it. */
    static final DockerImageName POSTGRES = local("c4i-gateway/postgres:15").asCompatibleSubstituteFor("postgres");

    /**
     * How long a node's or a gateway's container, or two of them started together, may take to be ready: 45 s on a
     * quiet 2-core machine, 65-81 s with 24 busy processes beside it, 3m53s for four started together under a CI at
     * load 21, 154 s for one node restarted with the containers held to 0.45 CPU (2026-12-03).
     */
    static final Duration SERVICE_STARTUP = Duration.ofMinutes(6);

    private LocalImages() {
    }

    private static DockerImageName local(String name) {
        try {
            DockerClientFactory.instance().client().inspectImageCmd(name).exec();
        }
        catch (com.github.dockerjava.api.exception.NotFoundException ex) {
            throw new IllegalStateException("No image " + name + " on the engine: build the images with bin/images", ex);
        }
        return DockerImageName.parse(name);
    }
}
