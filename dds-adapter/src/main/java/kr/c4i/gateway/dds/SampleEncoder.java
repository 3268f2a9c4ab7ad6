package kr.c4i.gateway.dds;

import java.util.List;

/**
 * Receives the members of one sample in declaration order. Implemented by bindings. Every method throws
 * IllegalArgumentException, naming the member, for a value the wire cannot carry: a string with an unpaired
 * surrogate or a NUL character, an enumerator out of range.
 */
public interface SampleEncoder {

    void int32(int value);

    void uint32(int value);

    void int64(long value);

    void uint64(long value);

    /** The position of the enumerator in the member's list. */
    void enumerator(int ordinal);

    void string(String value);

    void octets(byte[] value);

    void strings(List<String> value);
}
