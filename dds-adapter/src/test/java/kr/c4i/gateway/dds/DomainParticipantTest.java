package kr.c4i.gateway.dds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DomainParticipantTest {

    record Probe(int i32, int u32, long i64, long u64, int colour, String text, byte[] bytes, List<String> words) {
    }

    static final DataType<Probe> PROBE = DataType.<Probe>builder("test::Probe")
            .int32("i32").uint32("u32").int64("i64").uint64("u64")
            .enumeration("colour", List.of("RED", "GREEN", "BLUE"))
            .string("text").octets("bytes").strings("words")
            .build(new SampleCodec<>() {
                @Override
                public void encode(Probe p, SampleEncoder out) {
                    out.int32(p.i32());
                    out.uint32(p.u32());
                    out.int64(p.i64());
                    out.uint64(p.u64());
                    out.enumerator(p.colour());
                    out.string(p.text());
                    out.octets(p.bytes());
                    out.strings(p.words());
                }

                @Override
                public Probe decode(SampleDecoder in) {
                    return new Probe(in.int32(), in.uint32(), in.int64(), in.uint64(), in.enumerator(), in.string(),
                            in.octets(), in.strings());
                }
            });

    private DomainParticipant participant;

    @BeforeEach
    void openParticipant() {
        this.participant = DomainParticipant.create(TestNetwork.loopback());
    }

    @AfterEach
    void closeParticipant() {
        this.participant.close();
    }

    @Test
    void samplesRoundTripEveryMemberKind() throws Exception {
        Topic<Probe> topic = this.participant.createTopic("test/probe", PROBE);
        DataReader<Probe> reader = this.participant.createReader(topic, Qos.reliable());
        DataWriter<Probe> writer = this.participant.createWriter(topic, Qos.reliable());
        assertThat(writer.awaitMatched(1, Duration.ofSeconds(5))).isTrue();
        Probe sent = new Probe(-7, 0xFFFF_FFFE, Long.MIN_VALUE, -1L, 2, "작전 보고 ✓ 𝄞",
                "body".getBytes(StandardCharsets.UTF_8), List.of("a", "", "한글"));
        Probe empty = new Probe(0, 0, 0, 0, 0, "", new byte[0], List.of());
        writer.write(sent);
        writer.write(empty);
        List<Probe> received = takeAtLeast(reader, 2);
        assertThat(received).hasSize(2);
        Probe first = received.getFirst();
        assertThat(first).usingRecursiveComparison().isEqualTo(sent);
        assertThat(received.get(1)).usingRecursiveComparison().isEqualTo(empty);
    }

    @Test
    void writingAStringThatIsNotValidUnicodeFailsNamingTheMember() {
        Topic<Probe> topic = this.participant.createTopic("test/probe", PROBE);
        DataWriter<Probe> writer = this.participant.createWriter(topic, Qos.reliable());
        Probe bad = new Probe(0, 0, 0, 0, 0, "ab\uD800c", new byte[0], List.of());
        assertThatThrownBy(() -> writer.write(bad)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Member text of test::Probe").hasMessageContaining("unpaired surrogate");
        Probe nul = new Probe(0, 0, 0, 0, 0, "ok", new byte[0], List.of("x\0y"));
        assertThatThrownBy(() -> writer.write(nul)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Member words of test::Probe[0]").hasMessageContaining("NUL");
        Probe outOfRange = new Probe(0, 0, 0, 0, 3, "ok", new byte[0], List.of());
        assertThatThrownBy(() -> writer.write(outOfRange)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("enumerator 3 is out of range 0..2");
    }

    @Test
    void lateJoiningReaderReceivesTransientLocalHistory() throws Exception {
        Topic<Probe> topic = this.participant.createTopic("test/history", PROBE);
        Qos qos = Qos.reliable().withDurability(Qos.Durability.TRANSIENT_LOCAL, Qos.History.keepLast(5));
        DataWriter<Probe> writer = this.participant.createWriter(topic, qos);
        for (int i = 0; i < 8; i++) {
            writer.write(new Probe(i, 0, 0, 0, 0, "n" + i, new byte[0], List.of()));
        }
        DataReader<Probe> reader = this.participant.createReader(topic, qos);
        List<Probe> received = takeAtLeast(reader, 5);
        assertThat(received).extracting(Probe::i32).containsExactly(3, 4, 5, 6, 7);
    }

    @Test
    void waitSetReportsReadersWithDataAndWakesUp() throws Exception {
        Topic<Probe> topic = this.participant.createTopic("test/waitset", PROBE);
        DataReader<Probe> reader = this.participant.createReader(topic, Qos.reliable());
        DataWriter<Probe> writer = this.participant.createWriter(topic, Qos.reliable());
        WaitSet waitSet = this.participant.createWaitSet();
        waitSet.attach(reader);
        assertThat(waitSet.await(Duration.ofMillis(20))).isEmpty();
        writer.write(new Probe(1, 0, 0, 0, 0, "x", new byte[0], List.of()));
        assertThat(waitSet.await(Duration.ofSeconds(5))).containsExactly(reader);
        assertThat(reader.take(10)).hasSize(1);
        Thread.ofPlatform().start(() -> {
            sleep(50); // the stimulus, not a wait: the wakeup must come while await blocks
            waitSet.wakeup();
        });
        long start = System.nanoTime();
        assertThat(waitSet.await(Duration.ofSeconds(10))).isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void closingTheParticipantClosesItsChildrenAndIsIdempotent() {
        Topic<Probe> topic = this.participant.createTopic("test/close", PROBE);
        DataWriter<Probe> writer = this.participant.createWriter(topic, Qos.reliable());
        DataReader<Probe> reader = this.participant.createReader(topic, Qos.bestEffort(4));
        reader.close();
        reader.close();
        assertThat(reader.isClosed()).isTrue();
        assertThat(this.participant.isAlive()).isTrue();
        this.participant.close();
        this.participant.close();
        assertThat(this.participant.isAlive()).isFalse();
        assertThat(writer.isClosed()).isTrue();
        assertThat(topic.isClosed()).isTrue();
        writer.close();
        assertThatThrownBy(() -> writer.write(new Probe(0, 0, 0, 0, 0, "", new byte[0], List.of())))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThatThrownBy(() -> this.participant.createTopic("test/after", PROBE))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(this.participant::securityRefusals).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void announcingAgainAndAgainIsAcceptedAndAClosedParticipantRefusesIt() {
        // Each announcement changes the participant's USER_DATA; Cyclone refuses a change it cannot make.
        for (int i = 0; i < 3; i++) {
            this.participant.announce();
        }
        assertThat(this.participant.isAlive()).isTrue();
        this.participant.close();
        assertThatThrownBy(this.participant::announce).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void withoutSecurityNobodyIsRefused() {
        assertThat(this.participant.securityRefusals()).isEqualTo(SecurityRefusals.NONE);
    }

    @Test
    void twoParticipantsShareTheDomainButNotAConflictingConfiguration() {
        try (DomainParticipant second = DomainParticipant.create(TestNetwork.loopback())) {
            assertThat(second.domainId()).isEqualTo(this.participant.domainId());
        }
        assertThatThrownBy(() -> DomainParticipant.create(TestNetwork.loopback().toBuilder().peers(List.of("127.0.0.2")).build()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("already joined it");
        assertThat(this.participant.isAlive()).isTrue();
    }

    @Test
    void lossyLinkSettingsAreAcceptedAndSamplesOverOneDatagramStillArrive() throws Exception {
        ParticipantSettings oneFrame = TestNetwork.loopback(TestNetwork.domainId() + 1).toBuilder()
                .maxDatagramSize(1400).heartbeatMaxInterval(Duration.ofMillis(300))
                .nackRepeatInterval(Duration.ofMillis(300)).build();
        try (DomainParticipant small = DomainParticipant.create(oneFrame)) {
            Topic<Probe> topic = small.createTopic("test/one_frame", PROBE);
            DataReader<Probe> reader = small.createReader(topic, Qos.reliable());
            DataWriter<Probe> writer = small.createWriter(topic, Qos.reliable());
            byte[] body = new byte[6000];
            Arrays.fill(body, (byte) 7);
            writer.write(new Probe(1, 0, 0, 0, 0, "big", body, List.of()));
            assertThat(takeAtLeast(reader, 1).getFirst().bytes()).isEqualTo(body);
        }
        assertThatThrownBy(() -> TestNetwork.loopback().toBuilder().maxDatagramSize(100).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("512..65507 bytes, was 100");
    }

    @Test
    void unknownBindingIsReportedWithTheAvailableOnes() {
        ParticipantSettings settings = ParticipantSettings.builder().domainId(TestNetwork.domainId()).binding("opendds")
                .build();
        assertThatThrownBy(() -> DomainParticipant.create(settings)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'opendds'").hasMessageContaining("[cyclone]");
    }

    @Test
    void failedNativeCallsBecomeTypedExceptionsNamingTheCall() {
        assertThatThrownBy(() -> this.participant.createTopic("bad topic*name", PROBE))
                .isInstanceOf(DdsException.BadParameter.class)
                .hasMessageStartingWith("dds_create_topic failed: ")
                .satisfies(ex -> assertThat(((DdsException) ex).code()).isEqualTo(3));
    }

    static <T> List<T> takeAtLeast(DataReader<T> reader, int count) {
        List<T> received = new ArrayList<>();
        await(count + " samples").atMost(Duration.ofSeconds(10)).pollInSameThread().pollInterval(Duration.ofMillis(2))
                .until(() -> received.addAll(reader.take(256)) && received.size() >= count);
        return received;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
