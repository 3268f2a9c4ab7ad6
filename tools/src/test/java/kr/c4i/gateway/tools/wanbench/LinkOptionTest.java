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
        assertThatThrownBy(() -> this.converter.convert("dds")).isInstanceOf(TypeConversionException.class)
                .hasMessage("'dds': use jms or norm");
    }

    @Test
    void lossIsNormsHookSoTheJmsLinkRefusesIt() {
        assertThat(new RelayPair.Link(RelayPair.LinkKind.NORM, 30).label()).isEqualTo("norm (30.0% tx loss)");
        assertThat(RelayPair.Link.JMS.label()).isEqualTo("jms");
        assertThatThrownBy(() -> new RelayPair.Link(RelayPair.LinkKind.JMS, 10))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--link norm");
    }
}
