package kr.c4i.gateway.dds.cyclone;

import kr.c4i.gateway.dds.DataType;
import kr.c4i.gateway.dds.cyclone.internal.TypeLayout;
import kr.c4i.gateway.dds.spi.TopicDriver;

/** A Cyclone topic handle with the layout its writers and readers marshal with. */
final class CycloneTopic<T> implements TopicDriver<T> {

    final CycloneParticipant participant;
    final int handle;
    final DataType<T> type;
    final TypeLayout layout;
    private final String name;

    CycloneTopic(CycloneParticipant participant, int handle, String name, DataType<T> type, TypeLayout layout) {
        this.participant = participant;
        this.handle = handle;
        this.name = name;
        this.type = type;
        this.layout = layout;
    }

    @Override
    public String name() {
        return this.name;
    }

    @Override
    public void close() {
        this.participant.deleteQuietly(this.handle, "topic " + this.name);
    }
}
