/** The delivery contract against the real images (PostgreSQL, the gateway's), where a Docker engine runs. */
@org.jspecify.annotations.NullMarked
package kr.c4i.gateway.deploy.docker;
