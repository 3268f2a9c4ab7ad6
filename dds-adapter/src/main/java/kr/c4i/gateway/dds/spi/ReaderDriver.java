package kr.c4i.gateway.dds.spi;

import java.util.function.Consumer;

import kr.c4i.gateway.dds.ReaderStatus;

/** A binding's data reader. */
public interface ReaderDriver<T> {

    /**
     * Takes up to {@code max} samples, decodes each one and passes it to {@code sink} while the vendor's memory is
     * still lent; samples that fail to decode are counted in {@link ReaderStatus#undecodable()} and skipped.
     *
     * @return the number of samples taken, including undecodable ones and those without data
     */
    int take(int max, Consumer<? super T> sink);

    ReaderStatus status();

    void close();
}
