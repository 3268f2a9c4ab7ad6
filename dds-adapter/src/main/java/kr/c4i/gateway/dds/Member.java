package kr.c4i.gateway.dds;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One member of a {@link DataType}, in declaration order.
 *
 * @param name the IDL member name
 * @param kind its type
 * @param enumerators for {@link MemberKind#ENUM}, the enumerator names in order; empty otherwise
 */
public record Member(String name, MemberKind kind, List<String> enumerators) {

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z][A-Za-z0-9_]*");

    public Member {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        enumerators = List.copyOf(enumerators);
        if (!IDENTIFIER.matcher(name).matches()) {
            throw new IllegalArgumentException("Invalid IDL member name '" + name + "'");
        }
        if ((kind == MemberKind.ENUM) == enumerators.isEmpty()) {
            throw new IllegalArgumentException("Member " + name + ": enumerators are required for an ENUM member "
                    + "and not allowed otherwise");
        }
    }
}
