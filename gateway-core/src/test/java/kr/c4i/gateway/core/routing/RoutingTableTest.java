package kr.c4i.gateway.core.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.kmtf.catalogue.Category;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;

class RoutingTableTest {

    private static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();
    private static final NodeId A = NodeId.of("a");
    private static final NodeId B = NodeId.of("b");
    private static final NodeId C = NodeId.of("c");

    @Test
    void wildcardSubscribesToEveryCatalogueType() {
        RoutingTable table = RoutingTable.of(Map.of(B, List.of("*")), CATALOGUE);

        assertThat(table.subscriptions(B)).hasSize(CATALOGUE.size());
        assertThat(table.destinations("SITREP", A)).containsExactly(B);
    }

    @Test
    void categoryPatternSelectsOnlyThatCategory() {
        RoutingTable table = RoutingTable.of(Map.of(C, List.of("category:fires")), CATALOGUE);

        List<String> fires = CATALOGUE.types().stream().filter(t -> t.category() == Category.FIRES)
                .map(MessageType::id).toList();
        assertThat(fires).isNotEmpty();
        assertThat(table.subscriptions(C)).containsExactlyInAnyOrderElementsOf(fires);
        assertThat(table.destinations("SITREP", A)).isEmpty();
    }

    @Test
    void originIsNeverItsOwnDestination() {
        RoutingTable table = RoutingTable.of(Map.of(A, List.of("*"), B, List.of("SITREP")), CATALOGUE);

        assertThat(table.destinations("SITREP", A)).containsExactly(B);
        assertThat(table.destinations("SITREP", B)).containsExactly(A);
    }

    @Test
    void unknownPatternsAreAllReportedAtOnce() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> RoutingTable.of(Map.of(B, List.of("NOSUCH", "category:nonsense")), CATALOGUE))
                .withMessageContaining("'NOSUCH'")
                .withMessageContaining("'category:nonsense'");
    }
}
