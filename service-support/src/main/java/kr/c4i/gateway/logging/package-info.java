/**
 * What the services add to Spring Boot's logging: {@link kr.c4i.gateway.logging.RepeatedConnectFailureFilter}
 * keeps a broker peer that stays away from filling the log.
 */
@NullMarked
package kr.c4i.gateway.logging;

import org.jspecify.annotations.NullMarked;
