package kr.c4i.gateway.dds.cyclone;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import kr.c4i.gateway.dds.Qos;
import kr.c4i.gateway.dds.TestNetwork;
import kr.c4i.gateway.dds.cyclone.ScratchTest.Text;
import kr.c4i.gateway.dds.spi.ParticipantDriver;
import kr.c4i.gateway.dds.spi.TopicDriver;
import kr.c4i.gateway.dds.spi.WriterDriver;

/**
 * Regression test for the loan overrun fixed in "size the loan pointer array to the largest take ever asked of the
 * reader": Cyclone 0.10.2 stores as many pointers into {@code dds_take}'s {@code buf} as the largest {@code maxs}
 * the reader ever saw, so a take of 1 after a take of 256 wrote 255 pointers past a 1-slot array into the C heap.
 * Writer and reader are in two participants (of one domain instance, so delivery is in-process and immediate).
 */
@Timeout(60)
class CycloneReaderLoanTest {

    /** Any sample type will do: ScratchTest's, with a body of this many bytes. */
    private static final byte[] PAYLOAD = new byte[100];

    private ParticipantDriver publisher;
    private ParticipantDriver subscriber;
    private WriterDriver<Text> writer;
    private CycloneReader<Text> reader;

    @BeforeEach
    void createWriterAndReaderInTwoParticipants() {
        CycloneBinding binding = new CycloneBinding();
        this.publisher = binding.createParticipant(TestNetwork.loopback());
        this.subscriber = binding.createParticipant(TestNetwork.loopback());
        TopicDriver<Text> out = this.publisher.createTopic("test/loan", ScratchTest.TEXT);
        TopicDriver<Text> in = this.subscriber.createTopic("test/loan", ScratchTest.TEXT);
        this.writer = this.publisher.createWriter(out, Qos.reliable());
        this.reader = (CycloneReader<Text>) this.subscriber.createReader(in, Qos.reliable());
    }

    @AfterEach
    void close() {
        this.subscriber.close();
        this.publisher.close();
    }

    @Test
    void aGuardRegionShowsCycloneStoringTheLargestLoanIntoASmallerTakesArray() throws Exception {
        write(1, 300);
        List<Long> received = new ArrayList<>();
        awaitTaken(256, received);
        assertThat(this.reader.loanCapacity()).isEqualTo(256);
        // The array as the binding sized it before the fix: max slots. A 300-slot guard catches the overrun.
        int taken = this.reader.take(1, 1, 300, sample -> received.add(sample.seq()));
        assertThat(taken).isEqualTo(1);
        assertThat(this.reader.guardOverruns()).as("pointers stored past a 1-slot array after a take of 256")
                .isEqualTo(255);
        // Empty takes fill the array too.
        awaitTaken(300, received);
        this.reader.take(1, 1, 300, sample -> received.add(sample.seq()));
        assertThat(this.reader.guardOverruns()).isEqualTo(2 * 255);
        assertThat(received).containsExactlyElementsOf(LongStream.rangeClosed(1, 300).boxed().toList());
    }

    @Test
    void takesOfShrinkingSizesAfterALargeOneStayInsideTheArrayAndDeliverEverySampleOnce() throws Exception {
        int count = 3000;
        write(1, count);
        List<Long> received = new ArrayList<>();
        int[] sizes = {256, 1, 1, 1, 7, 3, 1, 100, 2, 1, 64, 1, 255, 5, 1};
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        int round = 0;
        while (received.size() < count && System.nanoTime() < deadline) {
            int max = sizes[round++ % sizes.length];
            int taken = this.reader.take(max, sample -> received.add(sample.seq()));
            assertThat(taken).isLessThanOrEqualTo(max);
        }
        // Takes that find nothing get the same array.
        for (int max : new int[] {1, 300, 1, 2, 1}) {
            assertThat(this.reader.take(max, sample -> received.add(sample.seq()))).isZero();
        }
        assertThat(received).containsExactlyElementsOf(LongStream.rangeClosed(1, count).boxed().toList());
        assertThat(this.reader.guardOverruns()).as("pointers Cyclone stored past the loan array").isZero();
        assertThat(this.reader.loanCapacity()).isEqualTo(300);
        // And the reader (and this JVM) still work.
        write(count + 1, count + 10);
        awaitTaken(count + 10, received);
        assertThat(received).hasSize(count + 10).doesNotHaveDuplicates();
    }

    private void write(long first, long last) {
        for (long seq = first; seq <= last; seq++) {
            this.writer.write(new Text(seq, "", PAYLOAD, List.of()));
        }
    }

    /** Takes with max 256 until {@code total} samples were received. */
    private void awaitTaken(int total, List<Long> received) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (received.size() < total && System.nanoTime() < deadline) {
            if (this.reader.take(Math.min(256, total - received.size()), s -> received.add(s.seq())) == 0) {
                Thread.sleep(2);
            }
        }
        assertThat(received).hasSize(total);
    }
}
