package kr.c4i.gateway.kmtf.catalogue;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CatalogueExceptionTest {

    @Test
    void messageListsEveryProblemWithFileLineColumnAndValue() {
        CatalogueException ex = new CatalogueException("ops.csv",
                List.of(new CatalogueException.Problem("ops.csv", 3, "history", "0", "0 is out of range 1..1000"),
                        new CatalogueException.Problem("ops.csv", 7, null, null, "expected 9 columns, found 8")));
        assertThat(ex.getMessage()).isEqualTo("""
                Unable to load the KMTF catalogue from ops.csv: 2 problems
                  ops.csv:3, column history, value '0': 0 is out of range 1..1000
                  ops.csv:7: expected 9 columns, found 8""");
        assertThat(ex.problems()).hasSize(2);
    }
}
