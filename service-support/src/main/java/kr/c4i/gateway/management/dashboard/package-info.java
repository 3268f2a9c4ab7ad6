/**
 * The built-in dashboard page every service serves beside its actuator endpoints ({@code /actuator/dashboard}, same
 * listener, same credential): live charts of the service's key figures, read from its own meter registry, drawn by
 * Chart.js from a WebJar (no CDN); and a search box that asks the custody endpoint beside it ({@code
 * /actuator/custody/<id>}) where a message is.
 */
@org.jspecify.annotations.NullMarked
package kr.c4i.gateway.management.dashboard;
