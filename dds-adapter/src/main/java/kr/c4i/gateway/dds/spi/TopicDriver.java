package kr.c4i.gateway.dds.spi;

/** A binding's topic. */
public interface TopicDriver<T> {

    String name();

    void close();
}
