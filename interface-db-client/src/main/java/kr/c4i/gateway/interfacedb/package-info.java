/**
 * The C4I application's side of an interface database, whose schema db-bridge's Flyway migrations own:
 * {@link kr.c4i.gateway.interfacedb.InterfaceDatabaseClient} writes the outbox and reads the inbox, both quarantines
 * and counts, over a {@link javax.sql.DataSource} its caller makes (pooled, embedded, over a Unix socket).
 */
@NullMarked
package kr.c4i.gateway.interfacedb;

import org.jspecify.annotations.NullMarked;
