/**
 * DDS Security (OMG DDS-Security 1.1) for the gateway: the governance and permissions documents, signed by the
 * site's authority, the partitions that bind a sample's origin and a receipt's receiver to the writer's
 * permissions, and the files a node's participant needs. See docs/dds-security.md.
 */
@org.jspecify.annotations.NullMarked
package kr.c4i.gateway.dds.security;
