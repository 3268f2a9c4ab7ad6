package kr.c4i.gateway.wan.relay;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.transport.TransportHealth;
import kr.c4i.gateway.wan.lan.LanDelivery;
import kr.c4i.gateway.wan.lan.LanIngest;
import kr.c4i.gateway.wan.lan.LanSide;

/** This site's nodes: they take every message at once, and the test sees each envelope handed over. */
final class RecordingLan implements LanSide {

    final List<Envelope> handed = new CopyOnWriteArrayList<>();

    @Override
    public void open(LanIngest ingest) {
    }

    @Override
    public String kind() {
        return "test-lan";
    }

    @Override
    public LanDelivery deliver(List<RelayedEnvelope> batch) {
        batch.forEach(r -> handed.add(r.envelope()));
        return new LanDelivery(batch.stream().map(RelayedEnvelope::messageId).collect(Collectors.toSet()), Set.of(),
                Map.of());
    }

    @Override
    public TransportHealth health() {
        return TransportHealth.up(Map.of());
    }

    @Override
    public void close() {
    }
}
