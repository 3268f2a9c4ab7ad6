package kr.c4i.gateway.tools.wanbench;

import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FeedConverterTest {

    private final WanBenchCommand.FeedConverter converter = new WanBenchCommand.FeedConverter();

    @Test
    void readsTheFeedsAsTheyAreWritten() {
        assertThat(this.converter.convert("site-broker")).isEqualTo(RelayPair.Feed.SITE_BROKER);
        assertThat(this.converter.convert(" Own-Broker ")).isEqualTo(RelayPair.Feed.OWN_BROKER);
    }

    @Test
    void anUnknownOrBlankFeedNamesTheOnesThereAre() {
        assertThatThrownBy(() -> this.converter.convert("bogus")).isInstanceOf(TypeConversionException.class)
                .hasMessage("'bogus': use site-broker or own-broker");
        assertThatThrownBy(() -> this.converter.convert("")).isInstanceOf(TypeConversionException.class)
                .hasMessageContaining("use site-broker or own-broker");
        assertThatThrownBy(() -> this.converter.convert("SITE_BROKER")).isInstanceOf(TypeConversionException.class);
    }
}
