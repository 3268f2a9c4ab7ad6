/**
 * The catalogue of KMTF message types: for each type, the DDS topic it is published on, its QoS and its default
 * precedence.
 *
 * <p>The catalogue is data that belongs to the operator. {@link kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue#loadDefault()}
 * reads the shipped {@code kmtf-catalogue.csv} (270 types modelled on APP-11/USMTF, not the official KMTF list);
 * {@link kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue#load(java.nio.file.Path)} reads a replacement. The file is UTF-8
 * CSV; {@code #} lines are comments; the first other line is the header. Columns, in any order:
 * <table>
 * <caption>Catalogue columns</caption>
 * <tr><th>column</th><th>meaning</th><th>allowed values</th></tr>
 * <tr><td>id</td><td>identifier written in the first field of MSGID</td><td>1..20 of A-Z, 0-9; unique</td></tr>
 * <tr><td>title</td><td>name for people</td><td>1..120 characters</td></tr>
 * <tr><td>category</td><td>functional area</td><td>{@link kr.c4i.gateway.kmtf.catalogue.Category} in lower case</td></tr>
 * <tr><td>topic</td><td>DDS topic name</td><td>letters, digits, {@code _}, single {@code /} separators; unique</td></tr>
 * <tr><td>reliability</td><td>repair lost messages or not</td><td>reliable, best_effort</td></tr>
 * <tr><td>history</td><td>messages kept for repair and late joiners</td><td>1..1000</td></tr>
 * <tr><td>durability</td><td>history for late joiners</td><td>volatile, transient_local, transient, persistent</td></tr>
 * <tr><td>precedence</td><td>default precedence</td><td>flash, immediate, priority, routine, or z, o, p, r</td></tr>
 * <tr><td>max_size</td><td>largest message text in UTF-8 bytes</td><td>256..1048576</td></tr>
 * </table>
 * Loading checks every cell and the uniqueness of ids and topics, then fails once with a
 * {@link kr.c4i.gateway.kmtf.catalogue.CatalogueException} listing every problem by file, line, column and value.
 */
@NullMarked
package kr.c4i.gateway.kmtf.catalogue;

import org.jspecify.annotations.NullMarked;
