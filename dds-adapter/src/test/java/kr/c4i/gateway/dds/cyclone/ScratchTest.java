package kr.c4i.gateway.dds.cyclone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import kr.c4i.gateway.dds.DataReader;
import kr.c4i.gateway.dds.DataType;
import kr.c4i.gateway.dds.DataWriter;
import kr.c4i.gateway.dds.DomainParticipant;
import kr.c4i.gateway.dds.Qos;
import kr.c4i.gateway.dds.SampleCodec;
import kr.c4i.gateway.dds.SampleDecoder;
import kr.c4i.gateway.dds.SampleEncoder;
import kr.c4i.gateway.dds.TestNetwork;
import kr.c4i.gateway.dds.Topic;

/** The participant's reused write and take memory: one holder at a time, growth, and the per-call fallback. */
@Timeout(120)
class ScratchTest {

    record Text(long seq, String text, byte[] body, List<String> words) {
    }

    static final DataType<Text> TEXT = DataType.<Text>builder("test::Text").int64("seq").string("text")
            .octets("body").strings("words").build(new SampleCodec<>() {
                @Override
                public void encode(Text t, SampleEncoder out) {
                    out.int64(t.seq());
                    out.string(t.text());
                    out.octets(t.body());
                    out.strings(t.words());
                }

                @Override
                public Text decode(SampleDecoder in) {
                    return new Text(in.int64(), in.string(), in.octets(), in.strings());
                }
            });

    @Test
    void oneHolderAtATimeGrowingByDoublingUpToItsLimit() {
        Scratch scratch = new Scratch(8192);
        MemorySegment first = scratch.acquire(100);
        assertThat(first.byteSize()).isEqualTo(1024);
        assertThat(scratch.acquire(10)).as("held").isNull();
        scratch.release();
        assertThat(scratch.acquire(1500).byteSize()).isEqualTo(2048);
        scratch.release();
        assertThat(scratch.acquire(8193)).as("over the limit").isNull();
        assertThat(scratch.acquire(8192).byteSize()).isEqualTo(8192);
        scratch.release();
        scratch.close();
        assertThat(scratch.acquire(10)).as("closed").isNull();
    }

    @Test
    void theAllocatorAlignsAndReportsWhenFull() {
        Scratch scratch = new Scratch(4096);
        MemorySegment memory = scratch.acquire(64);
        Scratch.Allocator allocator = new Scratch.Allocator(memory.asSlice(0, 64));
        MemorySegment a = allocator.allocate(3, 1);
        MemorySegment b = allocator.allocate(8, 8);
        assertThat(b.address() % 8).isZero();
        assertThat(b.address()).isGreaterThanOrEqualTo(a.address() + 3);
        allocator.allocate(40, 8);
        assertThatThrownBy(() -> allocator.allocate(16, 8)).isInstanceOf(Scratch.Full.class);
        scratch.release();
        scratch.close();
    }

    @Test
    void writersOnManyThreadsAndNestedTakesGetEverySampleIntact() throws Exception {
        try (DomainParticipant participant = DomainParticipant.create(TestNetwork.loopback())) {
            Topic<Text> topic = participant.createTopic("test/scratch", TEXT);
            Topic<Text> side = participant.createTopic("test/scratch_side", TEXT);
            DataReader<Text> reader = participant.createReader(topic, Qos.reliable());
            DataReader<Text> sideReader = participant.createReader(side, Qos.reliable());
            DataWriter<Text> writer = participant.createWriter(topic, Qos.reliable());
            DataWriter<Text> sideWriter = participant.createWriter(side, Qos.reliable());
            int threads = 4;
            int perThread = 500;
            List<Thread> writers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                writers.add(Thread.ofPlatform().start(() -> {
                    for (int i = 0; i < perThread; i++) {
                        long seq = thread * 1_000_000L + i;
                        writer.write(sample(seq));
                        if (i % 50 == 0) {
                            sideWriter.write(sample(-seq - 1));
                        }
                    }
                }));
            }
            Map<Long, Text> received = new ConcurrentHashMap<>();
            List<Text> sideReceived = Collections.synchronizedList(new ArrayList<>());
            await("every sample").atMost(Duration.ofSeconds(60)).pollInSameThread().pollInterval(Duration.ofMillis(1))
                    .until(() -> {
                        // The sink takes from another reader while this take holds the take scratch.
                        while (received.size() < threads * perThread && reader.take(64, text -> {
                            assertThat(received.put(text.seq(), text)).as("duplicate " + text.seq()).isNull();
                            sideReader.take(3, sideReceived::add);
                        }) > 0) {
                            // take while there is data
                        }
                        return received.size() >= threads * perThread;
                    });
            for (Thread thread : writers) {
                thread.join();
            }
            sideReceived.addAll(sideReader.take(1000));
            assertThat(received).hasSize(threads * perThread);
            received.forEach((seq, text) -> assertIntact(text, seq));
            assertThat(sideReceived).hasSize(threads * perThread / 50);
            sideReceived.forEach(text -> assertIntact(text, text.seq()));
        }
    }

    static void assertIntact(Text text, long seq) {
        Text sent = sample(seq);
        assertThat(text.seq()).isEqualTo(seq);
        assertThat(text.text()).isEqualTo(sent.text());
        assertThat(Arrays.equals(text.body(), sent.body())).as("body of " + seq).isTrue();
        assertThat(text.words()).isEqualTo(sent.words());
    }

    /** Sizes from a few bytes to past the scratch's limit, so writes grow it and some fall back. */
    static Text sample(long seq) {
        int kind = (int) Math.floorMod(seq, 7);
        int size = switch (kind) {
            case 0 -> 0;
            case 1 -> 10;
            case 2 -> 900;
            case 3 -> 5_000;
            case 4 -> 70_000;
            case 5 -> (int) CycloneParticipant.SCRATCH_MAX_BYTES + 1000;
            default -> 200;
        };
        byte[] body = new byte[size];
        Arrays.fill(body, (byte) seq);
        String text = "t" + seq + "-" + "가".repeat(kind * 7);
        return new Text(seq, text, body, List.of("w" + seq, "", "단어" + kind));
    }
}
