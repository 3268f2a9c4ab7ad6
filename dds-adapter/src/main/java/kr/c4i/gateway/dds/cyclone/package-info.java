/**
 * The Eclipse Cyclone DDS 0.10 binding of {@link kr.c4i.gateway.dds}, through {@code java.lang.foreign}: no JNI, no
 * C shim, no Java dependency.
 *
 * <h2>Requirements</h2>
 * <ul>
 * <li>Java 22 or later (built and tested on 25).</li>
 * <li>Cyclone DDS 0.10.x: on Debian 12 {@code apt-get install libddsc0debian}. To build, also
 * {@code cyclonedds-dev} (headers) and {@code cyclonedds-tools} ({@code idlc}): the tests compare the Java-built
 * descriptors and layouts with idlc's output and the headers (with gcc), and are skipped, visibly, without them.</li>
 * <li>{@code --enable-native-access=ALL-UNNAMED} on the command line (the module's jar also carries the manifest
 * entry {@code Enable-Native-Access: ALL-UNNAMED} for {@code java -jar}); without it the JVM warns on every start
 * and a future JVM will refuse.</li>
 * <li>x86_64 Linux: the struct layouts are those of LP64; LayoutProbeTest checks them against the installed headers.</li>
 * </ul>
 *
 * <h2>Loading the library</h2>
 * The first participant loads libddsc, trying in order, and keeps each earlier failure as a suppressed exception
 * of the final {@link java.lang.IllegalStateException}:
 * <ol>
 * <li>{@link kr.c4i.gateway.dds.ParticipantSettings.Vendor#library()}, a file name or path;</li>
 * <li>the system property {@code kr.c4i.gateway.dds.cyclone.library};</li>
 * <li>{@code libddsc.so.0debian}, Debian's name;</li>
 * <li>{@code libddsc.so.0}, upstream's name.</li>
 * </ol>
 * Every function the binding calls is bound at load time (the list is
 * {@link kr.c4i.gateway.dds.cyclone.internal.DdscSymbol}), so a library that is not Cyclone 0.10 fails at once.
 *
 * <h2>Configuration</h2>
 * Each participant's domain is created with {@code dds_create_domain} and a configuration string: the raw XML of
 * {@link kr.c4i.gateway.dds.ParticipantSettings.Vendor#config()}, or else the {@code CYCLONEDDS_URI} environment
 * variable, followed by a fragment for the typed settings (interface, multicast, peers, write batching), which
 * therefore win. Cyclone allows one configuration per domain and process: participants of one domain in one JVM
 * share it.
 *
 * <h2>Log</h2>
 * From the first participant on, Cyclone's log and trace go to the SLF4J logger
 * {@code kr.c4i.gateway.dds.cyclone.CycloneLog} (errors, warnings and info at their level, trace categories at debug),
 * never to stderr or a {@code Tracing/OutputFile}: Cyclone's sinks are process-wide, so one class owns them. What
 * a failing call logs on its own thread becomes its exception's message. A secured domain also traces the discovery
 * category, from which {@code HandshakeWatch} counts the remote participants DDS Security refused
 * ({@link kr.c4i.gateway.dds.DomainParticipant#securityRefusals()}).
 *
 * <h2>Write batching</h2>
 * {@link kr.c4i.gateway.dds.ParticipantSettings#writeBatch()} sets Cyclone's {@code Internal/WriteBatch} for the
 * domain (never the process-wide {@code dds_write_set_batch}): each {@code dds_write} then only queues the sample
 * in the writer's outgoing packet, which goes out when full, when a write blocks on a full history, or on
 * {@link kr.c4i.gateway.dds.DataWriter#flush()} ({@code dds_write_flush}). Nothing flushes it on a timer, so a
 * writer that stops writing must be flushed, or its last samples never reach remote readers (local readers get
 * them at once). {@link kr.c4i.gateway.dds.transport.DdsTransport} turns it on and flushes every writer it wrote to
 * before {@code send} returns, and after every receipt.
 *
 * <h2>Memory</h2>
 * A participant's shared arena holds its topic descriptors until the participant is deleted. Writes marshal samples,
 * and takes put their loan pointers and sample infos, in two per-participant scratch buffers that are reused from
 * call to call (one holder at a time; a concurrent or nested call, or a sample over 256 KB, uses a per-call
 * confined arena instead) and freed with the participant. Status calls use a per-call confined arena. Samples lent
 * by {@code dds_take} are copied to the heap and the loan is returned in a {@code finally}; the loan pointer array
 * is sized to the largest take ever asked of the reader and followed by guard slots (see {@code CycloneReader}).
 *
 * <pre>{@code
 * ParticipantSettings settings = ParticipantSettings.builder().domainId(7)
 *         .networkInterface("127.0.0.1").multicast(false).peers(List.of("127.0.0.1")).build();
 * try (DomainParticipant participant = DomainParticipant.create(settings)) {   // finds CycloneBinding
 *     Topic<KmtfMessageSample> topic = participant.createTopic("kmtf/operations/SITREP", KmtfTypes.MESSAGE);
 *     participant.createWriter(topic, Qos.reliable()).write(sample);
 * }
 * }</pre>
 */
@NullMarked
package kr.c4i.gateway.dds.cyclone;

import org.jspecify.annotations.NullMarked;
