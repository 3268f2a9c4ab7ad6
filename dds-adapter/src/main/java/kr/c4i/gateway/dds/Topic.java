package kr.c4i.gateway.dds;

import kr.c4i.gateway.dds.spi.TopicDriver;

/**
 * A named channel of one data type in a participant. Closing the participant closes it.
 *
 * @param <T> the Java type of a sample
 */
public final class Topic<T> extends Entity {

    private final TopicDriver<T> driver;
    private final DataType<T> type;

    Topic(DomainParticipant participant, TopicDriver<T> driver, DataType<T> type) {
        super(participant, "topic " + driver.name());
        this.driver = driver;
        this.type = type;
    }

    public String name() {
        return this.driver.name();
    }

    public DataType<T> type() {
        return this.type;
    }

    TopicDriver<T> driver() {
        return this.driver;
    }

    @Override
    void closeDriver() {
        this.driver.close();
    }
}
