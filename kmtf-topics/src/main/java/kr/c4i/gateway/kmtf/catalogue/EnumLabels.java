package kr.c4i.gateway.kmtf.catalogue;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Shared spelling rules for the catalogue enums, so that every enum accepts the same forms an operator may type:
 * any case, and {@code -} or a space in place of {@code _}.
 */
final class EnumLabels {

    private EnumLabels() {
    }

    static String label(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    static <E extends Enum<E>> E parse(Class<E> type, String what, String text) {
        if (text != null) {
            String normalised = text.strip().toUpperCase(Locale.ROOT).replace('-', '_').replace(' ', '_');
            for (E constant : type.getEnumConstants()) {
                if (constant.name().equals(normalised)) {
                    return constant;
                }
            }
        }
        throw new IllegalArgumentException(
                "'" + text + "' is not a " + what + "; allowed values are " + allowed(type));
    }

    static <E extends Enum<E>> String allowed(Class<E> type) {
        return Arrays.stream(type.getEnumConstants()).map(EnumLabels::label).collect(Collectors.joining(", "));
    }
}
