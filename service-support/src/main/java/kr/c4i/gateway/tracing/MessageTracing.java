package kr.c4i.gateway.tracing;

import java.util.List;

import io.opentelemetry.api.OpenTelemetry;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.core.transport.TransportException;

/**
 * The spans of the messages a service moves, each linked to its message's creation context
 * ({@link Envelope#traceParent}). {@link #off()} makes none and costs a call per batch: the bridge's fast path.
 */
public interface MessageTracing {

    /** No spans: what a service has unless {@code gateway.tracing.enabled}. */
    static MessageTracing off() {
        return Off.INSTANCE;
    }

    /** Spans per the OpenTelemetry messaging conventions, made by this SDK's tracer. */
    static MessageTracing of(OpenTelemetry openTelemetry) {
        return new OpenTelemetryMessageTracing(openTelemetry.getTracer("kr.c4i.gateway"));
    }

    /**
     * Sends a batch with a PRODUCER span per message ({@code send <type>}) around the send. A message without a
     * creation context leaves with its span's as one, so that every later hop, and the receiving application, links
     * to the trace that starts here.
     *
     * @param system the transport, {@code jms} or {@code dds} ({@code messaging.system})
     */
    void send(String system, List<Outbound> batch, Sender sender) throws TransportException;

    /**
     * Starts taking messages in: each message {@link Receiving#stored} then has a CONSUMER span
     * ({@code process <type>}) from now until it is stored.
     *
     * @param system the transport or link the messages came over ({@code messaging.system})
     */
    Receiving receiving(String system);

    /** What hands a batch to the transport. */
    @FunctionalInterface
    interface Sender {

        void send(List<Outbound> batch) throws TransportException;
    }

    /** Messages being taken in. */
    interface Receiving {

        /** The message is stored (newly: not a redelivery absorbed); a message stored twice has one span. */
        void stored(Envelope message);
    }

    /** No spans. */
    enum Off implements MessageTracing, Receiving {
        INSTANCE;

        @Override
        public void send(String system, List<Outbound> batch, Sender sender) throws TransportException {
            sender.send(batch);
        }

        @Override
        public Receiving receiving(String system) {
            return this;
        }

        @Override
        public void stored(Envelope message) {
        }
    }
}
