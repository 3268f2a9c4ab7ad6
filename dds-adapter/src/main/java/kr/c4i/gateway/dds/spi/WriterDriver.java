package kr.c4i.gateway.dds.spi;

import kr.c4i.gateway.dds.WriterStatus;

/** A binding's data writer. */
public interface WriterDriver<T> {

    /**
     * Serialises and publishes one sample; may block up to the QoS's maximum blocking time.
     *
     * @throws IllegalArgumentException if the sample cannot be encoded (names the member)
     */
    void write(T sample);

    /**
     * Sends at once what write batching (see {@link kr.c4i.gateway.dds.ParticipantSettings#writeBatch()}) queued in
     * this writer; returns at once when nothing is queued.
     */
    void flush();

    WriterStatus status();

    void close();
}
