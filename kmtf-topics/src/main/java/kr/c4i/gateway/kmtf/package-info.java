/**
 * The check every message passes before the gateway forwards it:
 * {@link kr.c4i.gateway.kmtf.KmtfValidator#validate(byte[], String)} returns a
 * {@link kr.c4i.gateway.kmtf.ValidatedMessage} or throws a {@link kr.c4i.gateway.kmtf.KmtfRejection} whose
 * {@link kr.c4i.gateway.kmtf.KmtfRejection#kind() kind} is the quarantine reason.
 *
 * <pre>{@code
 * KmtfValidator validator = new KmtfValidator(KmtfCatalogue.loadDefault());
 * try {
 *     ValidatedMessage ok = validator.validate(body, declaredType);
 *     transport.send(ok.type().topicName(), ok.type().defaultPrecedence(), body);
 * }
 * catch (KmtfRejection rejection) {
 *     quarantine(rejection.kind(), rejection.getMessage(), body);
 * }
 * }</pre>
 */
@NullMarked
package kr.c4i.gateway.kmtf;

import org.jspecify.annotations.NullMarked;
