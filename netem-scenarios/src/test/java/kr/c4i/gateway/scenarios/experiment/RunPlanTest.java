package kr.c4i.gateway.scenarios.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.scenarios.net.Rate;
import kr.c4i.gateway.scenarios.node.WanLinkKind;
import kr.c4i.gateway.core.transport.TransportKind;

class RunPlanTest {

    private static final List<ExperimentKind> ALL = List.of(ExperimentKind.values());
    private static final List<TransportKind> BOTH = List.of(TransportKind.JMS, TransportKind.DDS);

    @Test
    void theFullPlanIsTheStudys() {
        RunPlan full = RunPlan.full(ALL, BOTH);
        assertThat(full.repetitions()).isEqualTo(15);
        assertThat(full.recoveryMessages()).isEqualTo(200);
        assertThat(full.recoverySize()).isEqualTo(1024);
        assertThat(full.fanOutMessages()).isEqualTo(1000);
        assertThat(full.fanOutSize()).isEqualTo(200);
        assertThat(full.subscribers()).containsExactly(1, 3, 5);
        assertThat(full.lossMessages()).isEqualTo(1000);
        assertThat(full.lossCells()).extracting(LossCell::key).containsExactly("10% 128 kbit/s", "10% 256 kbit/s",
                "10% 2 Mbit/s", "30% 128 kbit/s", "30% 256 kbit/s", "30% 2 Mbit/s");
        assertThat(full.quick()).isFalse();
    }

    @Test
    void theQuickPlanIsSmallButKeepsEveryExperimentAndEveryN() {
        RunPlan quick = RunPlan.quick(ALL, BOTH);
        assertThat(quick.repetitions()).isEqualTo(1);
        assertThat(quick.subscribers()).containsExactly(1, 3, 5);
        assertThat(quick.lossCells()).hasSize(2);
        assertThat(quick.quick()).isTrue();
    }

    @Test
    void theOneToOneExperimentsRunOnAPairAndOneToNOnTheLargestNsHosts() {
        assertThat(RunPlan.quick(ALL, BOTH).deployments()).extracting(RunPlan.Deployment::name,
                RunPlan.Deployment::hosts, RunPlan.Deployment::experiments).containsExactly(
                        tuple("pair", 2, List.of(ExperimentKind.RECOVERY, ExperimentKind.LOSS)),
                        tuple("fanout", 6, List.of(ExperimentKind.FANOUT)));
        assertThat(RunPlan.quick(List.of(ExperimentKind.LOSS), BOTH).deployments()).singleElement()
                .satisfies(d -> assertThat(d.hosts()).isEqualTo(2));
        assertThat(RunPlan.quick(List.of(ExperimentKind.WAN), BOTH).deployments()).isEmpty();
        // per transport: pair start + recovery + calibration + 2 loss cells, fanout start + 3 N; wan: per link
        // start + cells
        assertThat(RunPlan.quick(ALL, BOTH).steps()).isEqualTo(2 * (1 + 1 + 1 + 2 + 1 + 3) + 2 * (1 + 2));
        assertThat(RunPlan.full(ALL, BOTH).steps())
                .isEqualTo(2 * (1 + 15 + 1 + 6 * 15 + 1 + 3 * 15) + 3 * (1 + 7 * 15));
    }

    @Test
    void theWanExperimentAloneStartsNoTransportDeployment() {
        RunPlan wanOnly = RunPlan.quick(List.of(ExperimentKind.WAN), BOTH);
        assertThat(wanOnly.transportExperiments()).isFalse();
        // the jms and norm links: each its start, the 10% x 2 Mbit/s cell and the outage
        assertThat(wanOnly.steps()).isEqualTo(2 * (1 + 2));
        assertThat(wanOnly.wan().links()).containsExactly(WanLinkKind.JMS, WanLinkKind.NORM);
        // one rate: the gateways, which read their budget at start, are not restarted in CI
        assertThat(WanStep.ordered(wanOnly.wan()).stream().map(WanStep::rate).distinct()).hasSize(1);
        assertThat(RunPlan.full(List.of(ExperimentKind.WAN), BOTH).wan().cells()).isEqualTo(RunPlan.studyLossCells());
    }

    @Test
    void wanCellsRunGroupedByRateSoTheGatewaysRestartOncePerBudget() {
        List<WanStep> steps = WanStep.ordered(WanPlan.full());
        assertThat(steps).extracting(s -> s.key(WanPlan.full())).containsExactly("10% 128 kbit/s", "30% 128 kbit/s",
                "10% 256 kbit/s", "30% 256 kbit/s", "outage 60 s 256 kbit/s", "10% 2 Mbit/s", "30% 2 Mbit/s");
        assertThat(steps.stream().map(WanStep::rate).distinct()).hasSize(3);
    }

    @Test
    void wanCellsWithADelayRunOncePerDelayKeyedApartFromTheUndelayedOnes() {
        WanPlan wan = WanPlan.quick().withDelays(List.of(Duration.ZERO, Duration.ofMillis(250)));
        List<WanStep> steps = WanStep.ordered(wan);
        // one rate: the delay changes once, the gateways never restart
        assertThat(steps).extracting(s -> s.key(wan)).containsExactly("10% 2 Mbit/s", "outage 10 s 2 Mbit/s",
                "10% 2 Mbit/s, 250 ms delay", "outage 10 s 2 Mbit/s, 250 ms delay");
        assertThat(wan.cellCount()).isEqualTo(4);
        assertThat(wan.delayed()).isTrue();
        assertThat(WanPlan.quick().delayed()).isFalse();
        assertThat(WanPlan.quick().delays()).containsExactly(Duration.ZERO);
        RunPlan plan = RunPlan.quick(List.of(ExperimentKind.WAN), BOTH).withWan(wan);
        // per link (jms, norm): its deployment and the four cells
        assertThat(plan.steps()).isEqualTo(2 * (1 + 4));
        assertThatIllegalArgumentException().isThrownBy(() -> WanPlan.quick().withDelays(List.of(Duration.ofMillis(-1))))
                .withMessageContaining("from 0 to 10 s");
        assertThatIllegalArgumentException().isThrownBy(() -> WanPlan.quick().withDelays(List.of()));
    }

    @Test
    void wanDeadlinesFollowTheCellsCapacityWithinBounds() {
        WanPlan wan = WanPlan.full();
        assertThat(wan.timeout(Rate.MBIT_2, 0.1, 1000)).isEqualTo(Duration.ofSeconds(60));
        assertThat(wan.timeout(Rate.KBIT_128, 0.3, 5000)).isEqualTo(Duration.ofSeconds(600));
        assertThat(wan.timeout(Rate.KBIT_256, 0.1, 1000)).isBetween(Duration.ofSeconds(60), Duration.ofSeconds(600));
        // the gateways' budget: the rate less the header allowance of full frames
        assertThat(WanExperiment.budget(WanLinkKind.JMS, Rate.KBIT_256)).isEqualTo(244_840);
        assertThat(WanExperiment.budget(WanLinkKind.DDS, Rate.KBIT_256)).isEqualTo(244_840);
        // ... but the norm link's is the rate: it paces its packets with their IP and UDP headers counted itself
        assertThat(WanExperiment.budget(WanLinkKind.NORM, Rate.KBIT_256)).isEqualTo(256_000);
    }

    @Test
    void aFastWanCellCarriesTenSecondsOfItsBoundAndASlowOneTheStudysThousand() {
        WanPlan full = WanPlan.full();
        // 2 Mbit/s x 0.9 / (8 x 200 B) = 1,125 msg/s of bound; 10 s of it
        assertThat(full.messagesIn(new LossCell(0.1, Rate.MBIT_2))).isEqualTo(11_250);
        assertThat(full.messagesIn(new LossCell(0.3, Rate.MBIT_2))).isEqualTo(8_750);
        assertThat(full.messagesIn(new LossCell(0.1, Rate.KBIT_256))).isEqualTo(1_440);
        assertThat(full.messagesIn(new LossCell(0.1, Rate.KBIT_128))).isEqualTo(1_000);
        assertThat(full.messageCounts().getMin()).isEqualTo(1_000);
        assertThat(full.messageCounts().getMax()).isEqualTo(11_250);
        // CI's quick cell and a plan without the floor take the count as given
        assertThat(WanPlan.quick().messagesIn(new LossCell(0.1, Rate.MBIT_2))).isEqualTo(200);
        assertThat(full.withCellSeconds(0).messagesIn(new LossCell(0.1, Rate.MBIT_2))).isEqualTo(1_000);
        assertThat(full.withLoad(full.cells(), 20_000).messagesIn(new LossCell(0.1, Rate.MBIT_2))).isEqualTo(20_000);
        assertThatIllegalArgumentException().isThrownBy(() -> full.withCellSeconds(-1))
            .withMessageContaining("seconds of its bound must be 0 to 600");
    }

    @Test
    void aLossDeadlineIsSixTimesTheCellsNominalTimeWithinOneToTenMinutes() {
        RunPlan full = RunPlan.full(ALL, BOTH);
        // 1000 x 400 B x 8 / (128 kbit/s x 0.7) = 35.7 s, x 6
        assertThat(full.lossTimeout(new LossCell(0.3, Rate.KBIT_128)).toSeconds()).isEqualTo(214);
        assertThat(full.lossTimeout(new LossCell(0.1, Rate.MBIT_2))).isEqualTo(Duration.ofSeconds(60));
        assertThat(full.lossTimeout(new LossCell(0.3, new Rate(16_000)))).isEqualTo(Duration.ofSeconds(600));
    }

    @Test
    void nonsenseIsRefusedBeforeAnythingIsBuilt() {
        assertThatIllegalArgumentException().isThrownBy(() -> RunPlan.full(List.of(), BOTH));
        assertThatIllegalArgumentException().isThrownBy(() -> ExperimentKind.parse("latency"));
        assertThatIllegalArgumentException().isThrownBy(() -> TransportKind.parse("mqtt"));
        assertThatIllegalArgumentException().isThrownBy(() -> new LossCell(1.0, Rate.MBIT_2));
    }

    @Test
    void typesAreDistinctReliableAndRoutedToExactlyNSubscribers() {
        RunPlan plan = RunPlan.quick(ALL, BOTH);
        ScenarioTypes types = ScenarioTypes.choose(KmtfCatalogue.loadDefault(), plan);
        assertThat(types.recovery()).isEqualTo("SITREP");
        assertThat(types.loss()).isEqualTo("LOGSITREP");
        assertThat(types.fanOut()).containsEntry(1, "LOGSITREP").containsEntry(3, "AIRSITREP")
                .containsEntry(5, "MARSITREP");
        RunPlan.Deployment pair = plan.deployments().get(0);
        RunPlan.Deployment fanout = plan.deployments().get(1);
        assertThat(types.routing(pair)).containsExactly(entry(2, List.of("SITREP", "LOGSITREP")));
        assertThat(types.sizes(plan, pair)).containsExactly(entry("SITREP", 1024), entry("LOGSITREP", 200));
        var routing = types.routing(fanout);
        assertThat(routing.get(2)).containsExactly("LOGSITREP", "AIRSITREP", "MARSITREP");
        assertThat(routing.get(4)).containsExactly("AIRSITREP", "MARSITREP");
        assertThat(routing.get(6)).containsExactly("MARSITREP");
        for (int n : List.of(1, 3, 5)) {
            String type = types.fanOut().get(n);
            assertThat(routing.values().stream().filter(t -> t.contains(type)).count()).isEqualTo(n);
        }
        assertThat(types.sizes(plan, fanout)).containsOnlyKeys("LOGSITREP", "AIRSITREP", "MARSITREP")
                .containsEntry("LOGSITREP", 200);
    }
}
