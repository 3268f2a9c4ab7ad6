/**
 * The KMTF message text model, its parser and a builder.
 *
 * <p>{@link kr.c4i.gateway.kmtf.text.KmtfParser} documents the accepted syntax. The model only holds text the parser
 * accepts, so {@code parse(message.render())} always gives back an equal message; each parse failure is a
 * {@link kr.c4i.gateway.kmtf.text.KmtfParseException} subclass with a line, set, field and a stable
 * {@link kr.c4i.gateway.kmtf.text.KmtfParseException#kind() kind}.
 */
@NullMarked
package kr.c4i.gateway.kmtf.text;

import org.jspecify.annotations.NullMarked;
