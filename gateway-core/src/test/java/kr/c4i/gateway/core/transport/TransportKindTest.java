package kr.c4i.gateway.core.transport;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class TransportKindTest {

    @Test
    void labelIsTheLowerCaseNameUsedInPropertiesTagsAndReports() {
        assertThat(TransportKind.JMS.label()).isEqualTo("jms");
        assertThat(TransportKind.DDS.label()).isEqualTo("dds");
        assertThat(TransportKind.DDS).hasToString("dds");
    }

    @Test
    void parseAcceptsLabelsInAnyCaseAndNamesTheAllowedOnes() {
        assertThat(TransportKind.parse("jms")).isEqualTo(TransportKind.JMS);
        assertThat(TransportKind.parse(" DDS ")).isEqualTo(TransportKind.DDS);
        assertThatIllegalArgumentException().isThrownBy(() -> TransportKind.parse("mqtt"))
                .withMessage("'mqtt' is not a transport; use jms or dds");
    }
}
