package kr.c4i.gateway.tools.ddsbench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.tools.ddsbench.DdsPerfOutput.LatencyWindow;
import kr.c4i.gateway.tools.ddsbench.DdsPerfOutput.RoundTrip;
import kr.c4i.gateway.tools.ddsbench.DdsPerfOutput.SubInterval;
import kr.c4i.gateway.tools.ddsbench.DdsPerfOutput.Throughput;

/** Parsing of output captured from Debian's ddsperf 0.10.2 on loopback. */
class DdsPerfOutputTest {

    /** {@code ddsperf -i 211 -D7 sub} against {@code ddsperf -i 211 -D5 pub size 200}. */
    private static final List<String> SUB = """
            [11713] participant vm:11713: new (self)
            [11713] participant vm:11723: new
            [11713] 1.001  size 200 total 337141 lost 0 delta 337141 lost 0 rate 336.86 kS/s 538.98 Mb/s (33.69 kS/s 53.90 Mb/s)
            [11713] 1.001  rss:7.3MB vcsw:5630 ivcsw:1519 recvUC:27%+1%
            [11713] 2.002  size 200 total 922302 lost 0 delta 585161 lost 0 rate 584.64 kS/s 935.42 Mb/s (92.15 kS/s 147.44 Mb/s)
            [11713] 2.002  rss:7.3MB vcsw:4720 ivcsw:1125 tev:0%+1% recvUC:40%+2%
            [11713] 3.000  size 200 total 1494117 lost 0 delta 571815 lost 0 rate 572.75 kS/s 916.40 Mb/s (149.66 kS/s 239.45 Mb/s)
            [11713] 3.000  rss:7.3MB vcsw:4979 ivcsw:758 recvUC:40%+1%
            [11713] 4.000  size 200 total 1982291 lost 0 delta 488174 lost 0 rate 488.19 kS/s 781.10 Mb/s (198.23 kS/s 317.17 Mb/s)
            [11713] 4.000  rss:7.3MB vcsw:4180 ivcsw:477 recvUC:35%+2%
            [11713] 5.000  size 200 total 2537502 lost 0 delta 555211 lost 0 rate 555.22 kS/s 888.35 Mb/s (253.75 kS/s 406.01 Mb/s)
            [11713] 5.000  rss:7.3MB vcsw:4284 ivcsw:772 tev:1%+1% recvUC:37%+1%
            [11713] participant vm:11723: gone
            [11713] 6.000  size 200 total 2823903 lost 0 delta 286401 lost 0 rate 286.38 kS/s 458.21 Mb/s (282.37 kS/s 451.79 Mb/s)
            [11713] 6.000  rss:7.3MB vcsw:2708 ivcsw:381 recvUC:20%+1%
            """.lines().toList();

    /** {@code ddsperf -i 211 -D5 ping size 200 waitset} against {@code ddsperf -i 211 -D7 pong waitset}. */
    private static final List<String> PING = """
            [12378] participant vm:12378: new (self)
            [12378] participant vm:12363: new
            [12378] 2.000  vm:12363 size 200 mean 11.861us min 7.011us 50% 10.034us 90% 11.900us 99% 19.784us max 7587.573us cnt 41923
            [12378] 2.000  rss:7.8MB vcsw:91133 ivcsw:64985 recvUC:4%+15% pong:9%+18%
            [12378] 3.000  vm:12363 size 200 mean 11.553us min 6.998us 50% 11.380us 90% 12.416us 99% 20.160us max 1053.607us cnt 43064
            [12378] 3.000  rss:8.1MB vcsw:95359 ivcsw:77885 ddsperf:1%+0% recvUC:7%+14% pong:15%+14%
            [12378] 4.000  vm:12363 size 200 mean 12.146us min 7.156us 50% 11.566us 90% 12.501us 99% 22.096us max 2087.132us cnt 40975
            [12378] 4.000  rss:8.1MB vcsw:90192 ivcsw:69979 recvUC:8%+14% pong:11%+16%
            [12378] 5.000  vm:12363 size 200 mean 11.018us min 6.839us 50% 10.333us 90% 12.481us 99% 33.188us max 1013.928us cnt 45151
            [12378] 5.000  rss:8.1MB vcsw:93592 ivcsw:55312 recvUC:5%+14% pong:10%+20%
            """.lines().toList();

    @Test
    void parsesASubscriberLine() {
        SubInterval interval = DdsPerfOutput.parseSub(SUB.get(4)).orElseThrow();

        assertThat(interval).isEqualTo(new SubInterval(2.002, 200, 922302, 0, 585161, 0, 584.64));
    }

    @Test
    void ignoresLinesThatAreNotSubscriberStatistics() {
        assertThat(DdsPerfOutput.parseSub(SUB.get(0))).isEmpty();
        assertThat(DdsPerfOutput.parseSub(SUB.get(3))).isEmpty();
        assertThat(DdsPerfOutput.parseSub(PING.get(2))).isEmpty();
        assertThat(DdsPerfOutput.parseSub("")).isEmpty();
    }

    @Test
    void steadyThroughputLeavesOutTheFirstAndLastSecondsWithData() {
        List<SubInterval> intervals = DdsPerfOutput.subIntervals(SUB);

        Throughput throughput = DdsPerfOutput.steadyThroughput(intervals);

        assertThat(intervals).hasSize(6);
        assertThat(throughput.intervals()).isEqualTo(4);
        assertThat(throughput.rateKs()).isCloseTo((584.64 + 572.75 + 488.19 + 555.22) / 4, within(1e-9));
        assertThat(throughput.received()).isEqualTo(2823903);
        assertThat(throughput.lost()).isZero();
    }

    @Test
    void steadyThroughputOfAShortRunAveragesEverySecondWithData() {
        Throughput throughput = DdsPerfOutput.steadyThroughput(DdsPerfOutput.subIntervals(SUB.subList(0, 5)));

        assertThat(throughput.intervals()).isEqualTo(2);
        assertThat(throughput.rateKs()).isCloseTo((336.86 + 584.64) / 2, within(1e-9));
    }

    @Test
    void noDataGivesZero() {
        assertThat(DdsPerfOutput.steadyThroughput(List.of()).rateKs()).isZero();
        assertThat(DdsPerfOutput.steadyThroughput(List.of()).intervals()).isZero();
    }

    @Test
    void parsesAPingLine() {
        LatencyWindow window = DdsPerfOutput.parsePing(PING.get(4)).orElseThrow();

        assertThat(window).isEqualTo(new LatencyWindow(3.000, "vm:12363", 200, 11.553, 6.998, 11.380, 12.416, 20.160,
                1053.607, 43064));
        assertThat(DdsPerfOutput.parsePing(PING.get(5))).isEmpty();
        assertThat(DdsPerfOutput.parsePing(SUB.get(2))).isEmpty();
    }

    @Test
    void roundTripsAreTwiceDdsperfsHalfRoundTripsAfterTheWarmUp() {
        RoundTrip roundTrip = DdsPerfOutput.roundTrip(DdsPerfOutput.latencyWindows(PING), 2.5);

        assertThat(roundTrip.windows()).isEqualTo(3);
        assertThat(roundTrip.count()).isEqualTo(43064 + 40975 + 45151);
        // Medians of 11.380, 11.566, 10.333 and of 20.160, 22.096, 33.188, doubled.
        assertThat(roundTrip.p50Us()).isCloseTo(2 * 11.380, within(1e-9));
        assertThat(roundTrip.p99Us()).isCloseTo(2 * 22.096, within(1e-9));
    }

    @Test
    void theJavaSubscribersLinesReadLikeDdsperfs() {
        String line = DdsPerfOutput.subLine(42, 3.0004, 200, 1_500_000, 0, 250_000, 0, 1.0);

        assertThat(DdsPerfOutput.parseSub(line)).hasValue(new SubInterval(3.000, 200, 1_500_000, 0, 250_000, 0,
                250.0));
    }

    @Test
    void quantilesUseTheNearestRank() {
        long[] sorted = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100};

        assertThat(DdsPerfOutput.quantile(sorted, 10, 0.5)).isEqualTo(50);
        assertThat(DdsPerfOutput.quantile(sorted, 10, 0.99)).isEqualTo(100);
        assertThat(DdsPerfOutput.quantile(sorted, 1, 0.5)).isEqualTo(10);
        assertThat(DdsPerfOutput.quantile(sorted, 0, 0.5)).isEqualTo(-1);
    }
}
