package kr.c4i.gateway.core.transport;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class Ipv4MulticastTest {

    @ParameterizedTest
    @ValueSource(strings = { "224.0.0.0", "239.255.255.255", "239.255.0.1", "230.1.2.3" })
    void groupsAre(String group) {
        assertThat(Ipv4Multicast.isGroup(group)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = { "", "10.0.0.1", "223.255.255.255", "240.0.0.1", "239.255.0", "239.255.0.256",
            "239.255.0.1.2", "239.255..1", "239.255.0.", "mcast.example", "ff02::1", "239.255.0.+1", "0239.255.0.1",
            " 239.255.0.1", "\uFF12\uFF13\uFF19.255.0.1" })
    void anythingElseIsNot(String text) {
        assertThat(Ipv4Multicast.isGroup(text)).isFalse();
    }
}
