/** {@code gateway pki}: an operator's command that creates a site's authority and issues its identities. */
@NullMarked
package kr.c4i.gateway.tools.pki;

import org.jspecify.annotations.NullMarked;
