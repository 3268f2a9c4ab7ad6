/**
 * A small vendor-neutral DDS API in this project's terms: {@link kr.c4i.gateway.dds.DomainParticipant},
 * {@link kr.c4i.gateway.dds.Topic}, {@link kr.c4i.gateway.dds.DataWriter}, {@link kr.c4i.gateway.dds.DataReader},
 * {@link kr.c4i.gateway.dds.WaitSet} and {@link kr.c4i.gateway.dds.Qos}. Data types are keyless {@code @final}
 * IDL structs described by {@link kr.c4i.gateway.dds.DataType} with a {@link kr.c4i.gateway.dds.SampleCodec}.
 * Failed native calls throw a {@link kr.c4i.gateway.dds.DdsException} subclass per standard DDS return code.
 *
 * <p>Nothing here touches native memory; implementations plug in through {@link kr.c4i.gateway.dds.spi.DdsBinding}
 * and {@link java.util.ServiceLoader}. The one shipped is Eclipse Cyclone DDS 0.10
 * ({@link kr.c4i.gateway.dds.cyclone}); see there for requirements and library loading.
 *
 * <p>Ownership follows the entity tree: closing a participant closes everything it created; closing twice is
 * harmless. All classes are thread-safe.
 *
 * <p>With {@link kr.c4i.gateway.dds.ParticipantSettings#writeBatch() write batching} a writer packs samples for
 * remote readers into shared datagrams and sends them only when a datagram is full or on
 * {@link kr.c4i.gateway.dds.DataWriter#flush()}: flush after the last write of every burst.
 *
 * <pre>{@code
 * try (DomainParticipant participant = DomainParticipant.create(ParticipantSettings.builder().domainId(7).build())) {
 *     Topic<KmtfMessageSample> topic = participant.createTopic("kmtf/operations/SITREP", KmtfTypes.MESSAGE);
 *     DataReader<KmtfMessageSample> reader = participant.createReader(topic, Qos.reliable());
 *     WaitSet waitSet = participant.createWaitSet();
 *     waitSet.attach(reader);
 *     for (DataReader<?> ready : waitSet.await(Duration.ofSeconds(1))) {
 *         ready.take(256).forEach(System.out::println);
 *     }
 * }
 * }</pre>
 */
@NullMarked
package kr.c4i.gateway.dds;

import org.jspecify.annotations.NullMarked;
