package kr.c4i.gateway.dds;

/**
 * Converts between a Java value and the members of its {@link DataType}. Both directions visit every member once,
 * in declaration order, with the method matching the member's kind; a binding rejects anything else with an
 * {@link IllegalStateException}.
 *
 * @param <T> the Java type of a sample
 */
public interface SampleCodec<T> {

    void encode(T sample, SampleEncoder out);

    /**
     * @throws IllegalArgumentException if the received values do not make a valid {@code T}; the reader then
     *         drops the sample and counts it as undecodable
     */
    T decode(SampleDecoder in);
}
