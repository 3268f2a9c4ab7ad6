/** Static checks of the deployment: docker-compose.yml, the Dockerfiles, Prometheus's scrape configuration. */
@org.jspecify.annotations.NullMarked
package kr.c4i.gateway.deploy;
