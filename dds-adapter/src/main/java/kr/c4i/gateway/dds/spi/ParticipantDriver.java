package kr.c4i.gateway.dds.spi;

import java.util.Set;

import kr.c4i.gateway.dds.DataType;
import kr.c4i.gateway.dds.Qos;
import kr.c4i.gateway.dds.SecurityRefusals;

/**
 * A binding's participant. The public {@link kr.c4i.gateway.dds.DomainParticipant} serialises its lifecycle: no
 * call reaches a driver after its {@code close}, and {@link #close} is called once, after every child's.
 */
public interface ParticipantDriver {

    int domainId();

    /** Whether the native participant still exists. */
    boolean alive();

    /** Remote participants DDS Security kept out of this participant's domain since it joined. */
    SecurityRefusals securityRefusals();

    /**
     * Remote participants (their ids as the binding's log names them) whose authentication handshake with this
     * participant failed and that are still there; empty without security, or if the binding retries handshakes.
     */
    Set<String> failedHandshakes();

    /**
     * Sends the participant's announcement (SPDP) now, to every discovery destination, besides the binding's
     * periodic ones: a remote participant that missed the last one, say behind a cut that just lifted, finds it
     * without waiting for the next.
     */
    void announce();

    <T> TopicDriver<T> createTopic(String name, DataType<T> type);

    <T> WriterDriver<T> createWriter(TopicDriver<T> topic, Qos qos);

    <T> ReaderDriver<T> createReader(TopicDriver<T> topic, Qos qos);

    WaitSetDriver createWaitSet();

    /** Deletes the participant and everything beneath it, and frees the memory it held. */
    void close();
}
