package kr.c4i.gateway.deploy.docker;

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
