package kr.c4i.gateway.dds.cyclone;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.dds.DataType;
import kr.c4i.gateway.dds.Qos;
import kr.c4i.gateway.dds.SecurityRefusals;
import kr.c4i.gateway.dds.cyclone.internal.Ddsc;
import kr.c4i.gateway.dds.cyclone.internal.TypeLayout;
import kr.c4i.gateway.dds.spi.ParticipantDriver;
import kr.c4i.gateway.dds.spi.ReaderDriver;
import kr.c4i.gateway.dds.spi.TopicDriver;
import kr.c4i.gateway.dds.spi.WaitSetDriver;
import kr.c4i.gateway.dds.spi.WriterDriver;

/**
 * A Cyclone participant. Its shared arena holds the topic descriptors (one per data type) for the participant's
 * whole life and is closed after {@code dds_delete}, when Cyclone can no longer refer to them. Its writers share
 * one write scratch and its readers one take scratch (reused native memory, see {@link Scratch}), freed at the same
 * time. A secured participant reports the remote participants its domain's {@link HandshakeWatch} counted as
 * refused since it joined, and those whose handshake with it failed.
 */
final class CycloneParticipant implements ParticipantDriver {

    private static final Logger log = LoggerFactory.getLogger(CycloneParticipant.class);
    /** The most each scratch grows to: samples up to this size, takes of up to about 3 500 samples. */
    static final long SCRATCH_MAX_BYTES = 256 * 1024;

    final Ddsc ddsc;
    private final int domainId;
    private final int handle;
    /** The participant's GUID prefix as Cyclone's log prints it; empty unless secured. */
    private final String guidPrefix;
    private final Arena arena = Arena.ofShared();
    private final @Nullable HandshakeWatch handshakes;
    private final SecurityRefusals refusedBefore;
    private final Map<DataType<?>, Prepared> types = new ConcurrentHashMap<>();
    /** The announcement count {@link #announce} puts in USER_DATA, so each call changes the QoS. */
    private final AtomicLong announcements = new AtomicLong();
    /** Where writes marshal samples; larger samples use a per-call arena. */
    final Scratch writeScratch = new Scratch(SCRATCH_MAX_BYTES);
    /** Where takes put the loan pointers and sample infos. */
    final Scratch takeScratch = new Scratch(SCRATCH_MAX_BYTES);

    /**
     * @param secured whether {@code config} turns DDS Security on, so a refusal's reason is captured
     */
    CycloneParticipant(Ddsc ddsc, int domainId, String config, boolean secured) {
        this.ddsc = ddsc;
        this.domainId = domainId;
        this.handshakes = DomainRegistry.acquire(ddsc, domainId, config, secured);
        this.refusedBefore = this.handshakes == null ? SecurityRefusals.NONE : this.handshakes.refusals();
        int created = 0;
        try {
            created = secured ? CycloneSecurity.createParticipant(ddsc, domainId)
                    : ddsc.check(ddsc.createParticipant(domainId, MemorySegment.NULL), "dds_create_participant");
            this.guidPrefix = secured ? guidPrefix(ddsc, created) : "";
        }
        catch (RuntimeException ex) {
            if (created > 0) {
                ddsc.delete(created);
            }
            DomainRegistry.release(ddsc, domainId);
            this.arena.close();
            throw ex;
        }
        this.handle = created;
    }

    /** The GUID's first three words in hex, as {@code PGUIDFMT} prints them: "b01f1c88:5f5df29e:68ad5f51". */
    private static String guidPrefix(Ddsc ddsc, int participant) {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment guid = call.allocate(16);
            ddsc.check(ddsc.getGuid(participant, guid), "dds_get_guid");
            ValueLayout.OfInt word = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
            return Integer.toHexString(guid.get(word, 0)) + ":" + Integer.toHexString(guid.get(word, 4)) + ":"
                    + Integer.toHexString(guid.get(word, 8));
        }
    }

    @Override
    public int domainId() {
        return this.domainId;
    }

    @Override
    public boolean alive() {
        try (Arena call = Arena.ofConfined()) {
            return this.ddsc.getDomainid(this.handle, call.allocate(ValueLayout.JAVA_INT)) >= 0;
        }
    }

    @Override
    public SecurityRefusals securityRefusals() {
        return this.handshakes == null ? SecurityRefusals.NONE : this.handshakes.refusals().since(this.refusedBefore);
    }

    @Override
    public Set<String> failedHandshakes() {
        return this.handshakes == null ? Set.of() : this.handshakes.failedWith(this.guidPrefix);
    }

    /**
     * Cyclone 0.10 has no call that announces a participant, but it announces one whose QoS changed at once
     * ({@code ddsi_update_participant_plist} writes the SPDP sample to every discovery address, multicast and
     * peers, as its periodic announcement does). So the participant's USER_DATA, which nothing else here uses,
     * carries a count that each call raises.
     */
    @Override
    public void announce() {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment count = call.allocate(ValueLayout.JAVA_LONG);
            count.set(ValueLayout.JAVA_LONG, 0, this.announcements.incrementAndGet());
            MemorySegment qos = this.ddsc.createQos();
            try {
                this.ddsc.qsetUserdata(qos, count, count.byteSize());
                this.ddsc.check(this.ddsc.setQos(this.handle, qos), "dds_set_qos");
            }
            finally {
                this.ddsc.deleteQos(qos);
            }
        }
    }

    @Override
    public <T> TopicDriver<T> createTopic(String name, DataType<T> type) {
        Prepared prepared = this.types.computeIfAbsent(type, t -> {
            TypeLayout layout = TypeLayout.of(t);
            return new Prepared(layout, layout.descriptor(this.arena));
        });
        try (Arena call = Arena.ofConfined()) {
            int topic = this.ddsc.check(this.ddsc.createTopic(this.handle, prepared.descriptor,
                    call.allocateFrom(name), MemorySegment.NULL), "dds_create_topic");
            return new CycloneTopic<>(this, topic, name, type, prepared.layout);
        }
    }

    @Override
    public <T> WriterDriver<T> createWriter(TopicDriver<T> topic, Qos qos) {
        CycloneTopic<T> cycloneTopic = (CycloneTopic<T>) topic;
        try (Arena call = Arena.ofConfined()) {
            MemorySegment nativeQos = NativeQos.create(this.ddsc, qos, call);
            try {
                int writer = this.ddsc.check(this.ddsc.createWriter(this.handle, cycloneTopic.handle, nativeQos),
                        "dds_create_writer");
                return new CycloneWriter<>(cycloneTopic, writer);
            }
            finally {
                this.ddsc.deleteQos(nativeQos);
            }
        }
    }

    @Override
    public <T> ReaderDriver<T> createReader(TopicDriver<T> topic, Qos qos) {
        CycloneTopic<T> cycloneTopic = (CycloneTopic<T>) topic;
        try (Arena call = Arena.ofConfined()) {
            MemorySegment nativeQos = NativeQos.create(this.ddsc, qos, call);
            try {
                int reader = this.ddsc.check(this.ddsc.createReader(this.handle, cycloneTopic.handle, nativeQos),
                        "dds_create_reader");
                return new CycloneReader<>(cycloneTopic, reader);
            }
            finally {
                this.ddsc.deleteQos(nativeQos);
            }
        }
    }

    @Override
    public WaitSetDriver createWaitSet() {
        int waitset = this.ddsc.check(this.ddsc.createWaitset(this.handle), "dds_create_waitset");
        return new CycloneWaitSet(this, waitset);
    }

    @Override
    public void close() {
        try {
            deleteQuietly(this.handle, "participant");
        }
        finally {
            if (this.handshakes != null) {
                this.handshakes.forget(this.guidPrefix);
            }
            DomainRegistry.release(this.ddsc, this.domainId);
            this.writeScratch.close();
            this.takeScratch.close();
            this.arena.close();
        }
    }

    /** Deletes an entity; close paths never throw, so a failure is only logged. */
    void deleteQuietly(int entity, String what) {
        int result = this.ddsc.delete(entity);
        if (result < 0) {
            log.warn("Unable to delete the {}: dds_delete returned {} ({})", what, result,
                    this.ddsc.strretcode(result));
        }
    }

    private record Prepared(TypeLayout layout, MemorySegment descriptor) {
    }
}
