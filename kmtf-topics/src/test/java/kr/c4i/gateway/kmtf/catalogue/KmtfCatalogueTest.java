package kr.c4i.gateway.kmtf.catalogue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.tuple;

class KmtfCatalogueTest {

    private static final String HEADER = "id,title,category,topic,reliability,history,durability,precedence,max_size\n";

    @TempDir
    Path dir;

    @Test
    void shippedCatalogueHasExactly270Types() {
        KmtfCatalogue catalogue = KmtfCatalogue.loadDefault();
        assertThat(catalogue.size()).isEqualTo(270);
        assertThat(catalogue.types()).hasSize(270);
        assertThat(catalogue.ids()).hasSize(270);
    }

    @Test
    void shippedCatalogueHasUniqueTopics() {
        Set<String> topics = new HashSet<>();
        KmtfCatalogue.loadDefault().types().forEach((type) -> assertThat(topics.add(type.topicName()))
            .as("topic %s is unique", type.topicName()).isTrue());
    }

    @Test
    void shippedCatalogueUsesEveryCategory() {
        Set<Category> used = EnumSet.noneOf(Category.class);
        KmtfCatalogue.loadDefault().types().forEach((type) -> used.add(type.category()));
        assertThat(used).containsExactlyInAnyOrder(Category.values());
    }

    @Test
    void shippedCatalogueNamesTopicsByCategoryAndId() {
        assertThat(KmtfCatalogue.loadDefault().types()).allSatisfy((type) -> assertThat(type.topicName())
            .isEqualTo("kmtf/" + type.category().label() + "/" + type.id()));
    }

    @Test
    void shippedCatalogueIsMostlyReliableWithSomeBestEffortTracks() {
        List<MessageType> bestEffort = KmtfCatalogue.loadDefault().types().stream()
            .filter((type) -> type.reliability() == Reliability.BEST_EFFORT)
            .toList();
        assertThat(bestEffort.size()).isBetween(270 * 15 / 100, 270 * 25 / 100);
        assertThat(bestEffort).allSatisfy((type) -> {
            assertThat(type.durability()).isEqualTo(Durability.VOLATILE);
            assertThat(type.historyDepth()).isBetween(1, 10);
        });
    }

    @Test
    void shippedCatalogueContainsWellKnownTypes() {
        KmtfCatalogue catalogue = KmtfCatalogue.loadDefault();
        assertThat(catalogue.ids()).contains("SITREP", "OPORD", "FRAGO", "INTREP", "INTSUM", "SPOTREP", "CALLFIRE",
                "FIREPLAN", "ATO", "ACO", "AIRSUPREQ", "MARSITREP", "LOGSITREP", "LOGREQ", "NBC1", "NBC2", "NBC3",
                "NBC4", "NBC5", "NBC6", "PERSTAT", "CASREP", "COMSPOT", "MEDEVAC", "EOD", "ENGSITREP", "WEATHER");
        MessageType callFire = catalogue.require("CALLFIRE");
        assertThat(callFire.reliability()).isEqualTo(Reliability.RELIABLE);
        assertThat(callFire.defaultPrecedence()).isEqualTo(Precedence.FLASH);
    }

    @Test
    void typesAndIdsKeepFileOrder() {
        KmtfCatalogue catalogue = KmtfCatalogue.loadDefault();
        assertThat(catalogue.types().getFirst().id()).isEqualTo("SITREP");
        assertThat(List.copyOf(catalogue.ids())).isEqualTo(catalogue.types().stream().map(MessageType::id).toList());
    }

    @Test
    void findReturnsEmptyForUnknownId() {
        assertThat(KmtfCatalogue.loadDefault().find("NOSUCHTYPE")).isEmpty();
        assertThat(KmtfCatalogue.loadDefault().find("sitrep")).isEmpty();
    }

    @Test
    void requireThrowsForUnknownId() {
        assertThatExceptionOfType(UnknownMessageTypeException.class)
            .isThrownBy(() -> KmtfCatalogue.loadDefault().require("NOSUCHTYPE"))
            .withMessageContaining("NOSUCHTYPE");
    }

    @Test
    void findByTopicMapsTopicBackToType() {
        assertThat(KmtfCatalogue.loadDefault().findByTopic("kmtf/fires/CALLFIRE")).get()
            .extracting(MessageType::id).isEqualTo("CALLFIRE");
    }

    @Test
    void operatorFileReplacesShippedCatalogueWithColumnsInAnyOrder() throws IOException {
        Path file = write("""
                # operator's catalogue
                topic,id,title,category,reliability,history,durability,precedence,max_size

                kmtf/fires/CALLFIRE,CALLFIRE,Call for fire,FIRES,RELIABLE,50,TRANSIENT_LOCAL,Z,4096
                air/tracks,AIRTRACK,"Air track, fused",air,best-effort,1,volatile,routine,2048
                """);
        KmtfCatalogue catalogue = KmtfCatalogue.load(file);
        assertThat(catalogue.types()).extracting(MessageType::id, MessageType::title, MessageType::maxSize)
            .containsExactly(tuple("CALLFIRE", "Call for fire", 4096), tuple("AIRTRACK", "Air track, fused", 2048));
        assertThat(catalogue.require("AIRTRACK").reliability()).isEqualTo(Reliability.BEST_EFFORT);
    }

    @Test
    void brokenFileReportsEveryProblemWithLineAndColumnInOneException() throws IOException {
        Path file = write("# broken on purpose\n" + HEADER
                + "SITREP,Situation report,operations,kmtf/operations/SITREP,reliable,100,transient_local,priority,16384\n"
                + "SITREP,Again,operations,kmtf/operations/SITREP2,reliable,100,transient_local,priority,16384\n"
                + "SPOTREP,Spot report,operations,kmtf/operations/SITREP,reliable,100,transient_local,immediate,8192\n"
                + "INTREP,Intelligence report,intelligence,kmtf/intelligence/INTREP,sometimes,0,forever,soon,10\n"
                + "CALLFIRE,Call for fire,fires,kmtf/fires/CALLFIRE,reliable,100\n"
                + "bad id,Bad,nonsense,kmtf//BAD,reliable,abc,volatile,routine,99999999\n");
        CatalogueException ex = catchCatalogueException(file);
        assertThat(ex.problems()).extracting(CatalogueException.Problem::line, CatalogueException.Problem::column,
                CatalogueException.Problem::value)
            .containsExactly(
                    tuple(4, "id", "SITREP"),
                    tuple(5, "topic", "kmtf/operations/SITREP"),
                    tuple(6, "reliability", "sometimes"),
                    tuple(6, "history", "0"),
                    tuple(6, "durability", "forever"),
                    tuple(6, "precedence", "soon"),
                    tuple(6, "max_size", "10"),
                    tuple(7, null, null),
                    tuple(8, "id", "bad id"),
                    tuple(8, "category", "nonsense"),
                    tuple(8, "topic", "kmtf//BAD"),
                    tuple(8, "history", "abc"),
                    tuple(8, "max_size", "99999999"));
        assertThat(ex.problems()).allSatisfy((problem) -> assertThat(problem.file()).isEqualTo(file.toString()));
        assertThat(ex.getMessage()).contains("13 problems")
            .contains(file + ":4, column id, value 'SITREP': duplicate id, first defined on line 3")
            .contains(file + ":6, column history, value '0': 0 is out of range 1..1000")
            .contains(file + ":7: expected 9 columns as in the header, found 6");
    }

    @Test
    void headerWithUnknownAndMissingColumnsIsReported() throws IOException {
        Path file = write("id,title,category,topic,reliability,history,durability,priority\n");
        CatalogueException ex = catchCatalogueException(file);
        assertThat(ex.problems()).extracting(CatalogueException.Problem::line, CatalogueException.Problem::column)
            .containsExactly(tuple(1, "priority"), tuple(1, "precedence"), tuple(1, "max_size"));
    }

    @Test
    void fileWithoutTypesIsRejected() throws IOException {
        assertThat(catchCatalogueException(write("# nothing\n" + HEADER)).getMessage())
            .contains("defines no message types");
        assertThat(catchCatalogueException(write("# nothing at all\n")).getMessage()).contains("no header row");
    }

    @Test
    void missingFileIsReportedAsCatalogueException() {
        Path missing = this.dir.resolve("missing.csv");
        assertThat(catchCatalogueException(missing).getMessage()).contains("Unable to read").contains("missing.csv");
    }

    private Path write(String content) throws IOException {
        return Files.writeString(this.dir.resolve("catalogue.csv"), content);
    }

    private static CatalogueException catchCatalogueException(Path file) {
        try {
            KmtfCatalogue.load(file);
        }
        catch (CatalogueException ex) {
            return ex;
        }
        throw new AssertionError("expected a CatalogueException from " + file);
    }
}
