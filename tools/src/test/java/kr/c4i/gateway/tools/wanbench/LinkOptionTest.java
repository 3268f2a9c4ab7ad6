package kr.c4i.gateway.tools.wanbench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

class LinkOptionTest {

    private final WanBenchCommand.LinkConverter converter = new WanBenchCommand.LinkConverter();

    @Test
    void readsTheLinksAsTheyAreWritten() {
        assertThat(this.converter.convert("jms")).isEqualTo(RelayPair.LinkKind.JMS);
        assertThat(this.converter.convert(" NORM ")).isEqualTo(RelayPair.LinkKind.NORM);
        assertThat(this.converter.convert("Dds")).isEqualTo(RelayPair.LinkKind.DDS);
        assertThatThrownBy(() -> this.converter.convert("udp")).isInstanceOf(TypeConversionException.class)
                .hasMessage("'udp': use dds, jms or norm");
    }

    @Test
    void readsTheLansAsTheyAreWritten() {
        WanBenchCommand.LanConverter lans = new WanBenchCommand.LanConverter();
        assertThat(lans.convert("jms")).isEqualTo(RelayPair.Lan.JMS);
        assertThat(lans.convert(" DDS ")).isEqualTo(RelayPair.Lan.DDS);
        assertThatThrownBy(() -> lans.convert("norm")).isInstanceOf(TypeConversionException.class)
                .hasMessage("'norm': use jms or dds");
    }

    @Test
    void lossIsNormsHookSoTheJmsLinkRefusesIt() {
        assertThat(new RelayPair.Link(RelayPair.LinkKind.NORM, 30).label()).isEqualTo("norm (30.0% tx loss)");
        assertThat(RelayPair.Link.JMS.label()).isEqualTo("jms");
        assertThatThrownBy(() -> new RelayPair.Link(RelayPair.LinkKind.JMS, 10))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--link norm");
        assertThatThrownBy(() -> new RelayPair.Link(RelayPair.LinkKind.DDS, 10))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("--tx-loss needs --link norm: the dds link "
                        + "has no loss hook");
    }
}
