package kr.c4i.gateway.dds;

import java.util.List;

/**
 * Supplies the members of one received sample in declaration order. Implemented by bindings; valid only during
 * {@link SampleCodec#decode}. Every method throws IllegalArgumentException, naming the member, for a malformed
 * value: a string that is not valid UTF-8, an enumerator out of range.
 */
public interface SampleDecoder {

    int int32();

    int uint32();

    long int64();

    long uint64();

    int enumerator();

    String string();

    byte[] octets();

    List<String> strings();
}
