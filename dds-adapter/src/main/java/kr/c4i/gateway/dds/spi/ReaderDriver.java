package kr.c4i.gateway.dds.spi;

import java.util.List;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.dds.DataReader.SampleSink;

import kr.c4i.gateway.dds.ReaderStatus;

/** A binding's data reader. */
public interface ReaderDriver<T> {

    /**
     * Takes up to {@code max} samples, decodes each one and passes it to {@code sink} while the vendor's memory is
     * still lent; samples that fail to decode are counted in {@link ReaderStatus#undecodable()} and skipped.
     *
     * @return the number of samples taken, including undecodable ones and those without data
     */
    default int take(int max, Consumer<? super T> sink) {
        return takeWithPublication(max, (SampleSink<T>) (sample, publication) -> sink.accept(sample));
    }

    /** Like {@link #take(int, Consumer)}, also passing the handle of each sample's writer. */
    int takeWithPublication(int max, SampleSink<T> sink);

    /**
     * The partitions of the matched writer with this handle, or {@code null} if it is no longer matched.
     */
    @Nullable List<String> publicationPartitions(long publication);

    ReaderStatus status();

    void close();
}
