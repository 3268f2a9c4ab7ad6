/**
 * Delivery and non-delivery reports: the bridge asks its site's WAN gateway what became of its messages at the sites
 * they went to, and the nodes of its site what became of those sent to them, and writes those it is asked to report
 * on into its interface database's {@code delivery_report}.
 */
@NullMarked
package kr.c4i.gateway.bridge.report;

import org.jspecify.annotations.NullMarked;
