/**
 * Which messages are worth the WAN, per type, from a file the operator may change while the gateway runs:
 * allow/deny rules, rate limits, supersede keys for position-like reports and expiry.
 */
@NullMarked
package kr.c4i.gateway.wan.policy;

import org.jspecify.annotations.NullMarked;
