package kr.c4i.gateway.dds;

/**
 * The IDL member types a {@link DataType} may use: enough for message envelopes, nothing a binding would have to
 * emulate. Integers map to IDL {@code long}, {@code unsigned long}, {@code long long} and
 * {@code unsigned long long}; strings and sequences are unbounded.
 */
public enum MemberKind {
    /** IDL {@code long}. */
    INT32,
    /** IDL {@code unsigned long}, carried in a Java {@code int} bit for bit. */
    UINT32,
    /** IDL {@code long long}. */
    INT64,
    /** IDL {@code unsigned long long}, carried in a Java {@code long} bit for bit. */
    UINT64,
    /** An IDL {@code enum} (32-bit), carried as the enumerator's position. */
    ENUM,
    /** IDL {@code string}: UTF-8 without NUL characters. */
    STRING,
    /** IDL {@code sequence<octet>}. */
    OCTET_SEQUENCE,
    /** IDL {@code sequence<string>}. */
    STRING_SEQUENCE
}
