package kr.c4i.gateway.kmtf.catalogue;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class UnknownMessageTypeExceptionTest {

    @Test
    void messageNamesTheIdAndCatalogueSize() {
        UnknownMessageTypeException ex = new UnknownMessageTypeException("NOSUCH", 270);
        assertThat(ex.id()).isEqualTo("NOSUCH");
        assertThat(ex.getMessage()).contains("'NOSUCH'").contains("270 types");
    }
}
