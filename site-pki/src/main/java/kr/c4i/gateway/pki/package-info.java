/**
 * A site's public key infrastructure: its certificate authority, the identities it issues to the site's nodes and
 * gateway (certificate and private key, as PEM files or a PKCS #12 key store), and the documents it signs (DDS
 * Security governance and permissions). Keys are EC P-256, which DDS Security, TLS and key agreement all take.
 */
@NullMarked
package kr.c4i.gateway.pki;

import org.jspecify.annotations.NullMarked;
