package kr.c4i.gateway.dds.link;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.core.link.FrameHandler;
import kr.c4i.gateway.core.link.LinkLifecycle;
import kr.c4i.gateway.core.link.LinkPeer;
import kr.c4i.gateway.core.link.LinkState;
import kr.c4i.gateway.core.link.ReceivedFrame;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.link.WanLink;
import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.core.transport.TransportUnavailableException;
import kr.c4i.gateway.dds.DataReader;
import kr.c4i.gateway.dds.DataWriter;
import kr.c4i.gateway.dds.DdsException;
import kr.c4i.gateway.dds.DomainParticipant;
import kr.c4i.gateway.dds.Qos;
import kr.c4i.gateway.dds.Topic;
import kr.c4i.gateway.dds.WaitSet;
import kr.c4i.gateway.dds.WriterStatus;
import kr.c4i.gateway.dds.link.WanTypes.AckSample;
import kr.c4i.gateway.dds.link.WanTypes.FrameSample;

/**
 * The {@code dds} WAN link: frames travel as samples of one RELIABLE, KEEP_ALL topic on a WAN domain of their own,
 * which DDS repairs while both ends live; discovery goes by unicast to the peer gateways' addresses. See
 * {@link kr.c4i.gateway.dds.link} for the wire types and partitions.
 *
 * <p>One participant, one frame reader and one ack reader (both in this site's partition), and per peer one frame
 * writer and one ack writer (in the peer's partition), so a peer's state can be read off its frame writer's matched
 * readers. One platform thread takes frames and acknowledgements from a wait set, hands frames to the
 * {@link FrameHandler} in order per sender, acknowledges them, and re-evaluates every peer's state at least every
 * {@value #POLL_MILLIS} ms.
 *
 * <p>Peer states: CONNECTING until the peer's frame reader matched, then UP; DOWN when it unmatched (the peer's
 * participant left, or the DDS lease it announced, {@link DdsLinkSettings#lease()} on its side, expired), when a new
 * reader replaced it, or when frames handed over stayed unacknowledged for {@link DdsLinkSettings#peerTimeout()}. On
 * DOWN the frames not acknowledged count as lost: its {@link #unacknowledgedBytes} drops to zero and the gateway
 * resends their messages from its store. A DOWN peer is UP again when its reader matches again, or, after a timeout,
 * when it acknowledges more.
 */
public final class DdsWanLink implements WanLink {

    private static final Logger log = LoggerFactory.getLogger(DdsWanLink.class);
    static final long POLL_MILLIS = 100;
    private static final Duration POLL = Duration.ofMillis(POLL_MILLIS);
    /** Frames taken at once: each is handed to the handler before the next take. */
    private static final int TAKE_FRAMES = 32;
    private static final int TAKE_ACKS = 256;
    /** Acks the reader holds: cumulative, so only the last one per peer matters; several peers may ack at once. */
    private static final int ACK_BACKLOG = 1024;

    private final DdsLinkSettings settings;
    private final SiteId site;
    private final long incarnation = new SecureRandom().nextLong();
    private final Map<SiteId, Peer> peers;
    private final LongAdder framesIgnored = new LongAdder();
    private final LinkLifecycle<Open> lifecycle;

    public DdsWanLink(DdsLinkSettings settings) {
        this.settings = settings;
        this.site = settings.site();
        this.lifecycle = new LinkLifecycle<>(kind(), this.site);
        Map<SiteId, Peer> byPeer = new LinkedHashMap<>();
        settings.peers().forEach((peer, address) -> byPeer.put(peer, new Peer(peer, address)));
        this.peers = Collections.unmodifiableMap(byPeer);
    }

    @Override
    public String kind() {
        return "dds";
    }

    @Override
    public Set<SiteId> peers() {
        return this.peers.keySet();
    }

    @Override
    public int maxFrameBytes() {
        return this.settings.maxFrameBytes();
    }

    public DdsLinkSettings settings() {
        return this.settings;
    }

    @Override
    public void open(FrameHandler handler) throws TransportException {
        this.lifecycle.open(() -> {
            DomainParticipant participant;
            try {
                participant = DomainParticipant.create(this.settings.participant());
            }
            catch (IllegalStateException | DdsException ex) {
                throw new TransportUnavailableException("Unable to open the dds WAN link of site " + this.site
                        + " on domain " + this.settings.domainId() + ": " + ex.getMessage(), ex);
            }
            Open opened;
            try {
                opened = new Open(participant, handler);
            }
            catch (RuntimeException ex) {
                participant.close();
                throw new TransportUnavailableException("Unable to open the dds WAN link of site " + this.site
                        + " on domain " + this.settings.domainId() + ": " + ex.getMessage(), ex);
            }
            opened.thread.start();
            log.info("dds WAN link of site {} open on domain {}: peers {}, datagrams up to {} bytes, frames up to {}, "
                    + "lease {}", this.site, this.settings.domainId(), this.settings.peers(),
                    this.settings.maxDatagramSize(), this.settings.maxFrameBytes(), this.settings.lease());
            return opened;
        });
    }

    @Override
    public void send(SiteId peer, byte[] frame) throws TransportException {
        Peer target = peer(peer);
        this.lifecycle.checkFrame(frame.length, this.settings.maxFrameBytes());
        this.lifecycle.require();
        target.send(frame);
    }

    @Override
    public long unacknowledgedBytes(SiteId peer) {
        return peer(peer).ledger.unacknowledgedBytes();
    }

    @Override
    public LinkState state(SiteId peer) {
        return peer(peer).ledger.state();
    }

    @Override
    public Map<String, Object> details() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("kind", kind());
        details.put("site", this.site.value());
        details.put("domainId", this.settings.domainId());
        details.put("maxDatagramSize", this.settings.maxDatagramSize());
        details.put("maxFrameBytes", this.settings.maxFrameBytes());
        details.put("peerTimeout", this.settings.peerTimeout().toString());
        details.put("lease", this.settings.lease().toString());
        details.put("open", this.lifecycle.isOpen());
        details.put("framesIgnored", this.framesIgnored.sum());
        Map<String, Object> byPeer = new LinkedHashMap<>();
        this.peers.forEach((id, peer) -> byPeer.put(id.value(), peer.details()));
        details.put("peers", byPeer);
        return details;
    }

    @Override
    public void close() {
        if (this.lifecycle.close(Open::close)) {
            log.info("dds WAN link of site {} closed", this.site);
        }
    }

    private Peer peer(SiteId peer) {
        return this.lifecycle.peer(this.peers, peer);
    }

    private static Qos frameWriterQos(DdsLinkSettings settings, SiteId receiver) {
        return Qos.reliable().withMaxBlockingTime(settings.writeTimeout()).withMaxSamples(settings.maxQueuedFrames())
                .withPartitions(List.of(receiver.value()));
    }

    private static Qos frameReaderQos(DdsLinkSettings settings) {
        return Qos.reliable().withMaxSamples(settings.maxQueuedFrames())
                .withPartitions(List.of(settings.site().value()));
    }

    /** The last ack is kept for a reader that matches after it was written. */
    private static Qos ackWriterQos(DdsLinkSettings settings, SiteId frameSender) {
        return Qos.reliable().withHistory(Qos.History.keepLast(1)).withMaxBlockingTime(settings.writeTimeout())
                .withDurability(Qos.Durability.TRANSIENT_LOCAL, Qos.History.keepLast(1))
                .withPartitions(List.of(frameSender.value()));
    }

    private static Qos ackReaderQos(DdsLinkSettings settings) {
        return Qos.reliable().withDurability(Qos.Durability.TRANSIENT_LOCAL, Qos.History.keepLast(1))
                .withMaxSamples(ACK_BACKLOG).withPartitions(List.of(settings.site().value()));
    }

    /** What exists while the link is open; the participant owns every DDS entity and deletes them with itself. */
    private final class Open {

        final DomainParticipant participant;
        final FrameHandler handler;
        final DataReader<FrameSample> frameReader;
        final DataReader<AckSample> ackReader;
        final WaitSet waitSet;
        final Thread thread;
        volatile boolean running = true;

        Open(DomainParticipant participant, FrameHandler handler) {
            this.participant = participant;
            this.handler = handler;
            Topic<FrameSample> frames = participant.createTopic(WanTypes.FRAME_TOPIC, WanTypes.FRAME);
            Topic<AckSample> acks = participant.createTopic(WanTypes.ACK_TOPIC, WanTypes.ACK);
            this.frameReader = participant.createReader(frames, frameReaderQos(settings));
            this.ackReader = participant.createReader(acks, ackReaderQos(settings));
            this.waitSet = participant.createWaitSet();
            this.waitSet.attach(this.frameReader);
            this.waitSet.attach(this.ackReader);
            peers.values().forEach(peer -> peer.attach(
                    participant.createWriter(frames, frameWriterQos(settings, peer.site)),
                    participant.createWriter(acks, ackWriterQos(settings, peer.site))));
            this.thread = Thread.ofPlatform().name("dds-wan-link-" + site).daemon(true).unstarted(this::run);
        }

        void run() {
            while (this.running) {
                try {
                    for (DataReader<?> ready : this.waitSet.await(POLL)) {
                        if (ready == this.frameReader) {
                            takeFrames();
                        }
                        else {
                            takeAcks();
                        }
                    }
                    checkPeers();
                }
                catch (IllegalStateException ex) {
                    if (this.running) {
                        log.error("dds WAN link of site {} stopped receiving: {}", site, ex.getMessage(), ex);
                    }
                    return;
                }
                catch (RuntimeException ex) {
                    log.error("dds WAN link of site {}: receive loop failed; going on", site, ex);
                    pause();
                }
            }
        }

        /**
         * Hands the frames taken together to the handler in one call, which stores them in one transaction: one
         * durable commit per take, not one per frame, so a burst of small frames does not queue behind commits.
         */
        private void takeFrames() {
            Map<Peer, Long> toAck = new LinkedHashMap<>();
            List<ReceivedFrame> received = new ArrayList<>();
            for (FrameSample sample : this.frameReader.take(TAKE_FRAMES)) {
                Peer sender = senderOf(sample);
                if (sender == null) {
                    continue;
                }
                toAck.put(sender, sender.received(sample));
                received.add(new ReceivedFrame(sender.site, sample.frame()));
            }
            if (!received.isEmpty()) {
                try {
                    this.handler.received(received);
                }
                catch (RuntimeException ex) {
                    // The link delivered them; the sender's gateway resends what its peer never receipts.
                    received.forEach(frame -> peers.get(frame.from()).ledger.handlerFailed());
                    log.warn("Frame handler failed on {} frames from {}", received.size(),
                            toAck.keySet().stream().map(p -> p.site).toList(), ex);
                }
            }
            toAck.forEach((sender, counter) -> sender.acknowledgeReceived(counter));
        }

        private @Nullable Peer senderOf(FrameSample sample) {
            Peer sender = null;
            if (site.value().equals(sample.receiver()) && !site.value().equals(sample.sender())) {
                try {
                    sender = peers.get(SiteId.of(sample.sender()));
                }
                catch (IllegalArgumentException ex) {
                    sender = null;
                }
            }
            if (sender == null) {
                framesIgnored.increment();
                if (Long.bitCount(framesIgnored.sum()) == 1) {
                    log.warn("dds WAN link of site {} ignored a frame from '{}' to '{}': not a configured peer's "
                            + "frame for this site", site, sample.sender(), sample.receiver());
                }
            }
            return sender;
        }

        private void takeAcks() {
            for (AckSample ack : this.ackReader.take(TAKE_ACKS)) {
                if (!site.value().equals(ack.receiver()) || ack.incarnation() != incarnation) {
                    continue;
                }
                Peer peer = peers.values().stream().filter(p -> p.site.value().equals(ack.sender())).findFirst()
                        .orElse(null);
                if (peer != null) {
                    peer.acknowledged(ack.counter());
                }
            }
        }

        private void checkPeers() {
            long now = System.nanoTime();
            for (Peer peer : peers.values()) {
                for (LinkState state : peer.check(now)) {
                    log.info("dds WAN link of site {}: peer {} is {}", site, peer.site, state.label());
                    try {
                        this.handler.stateChanged(peer.site, state);
                    }
                    catch (RuntimeException ex) {
                        log.warn("Frame handler failed on the state change of peer {} to {}", peer.site, state, ex);
                    }
                }
            }
        }

        private void pause() {
            try {
                Thread.sleep(POLL);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                this.running = false;
            }
        }

        void close() {
            this.running = false;
            this.waitSet.wakeup();
            if (!LinkLifecycle.awaitReceiveThread(this.thread)) {
                log.warn("dds WAN link of site {}: the frame handler did not return within {}; closing under it", site,
                        LinkLifecycle.CLOSE_WAIT);
            }
            this.participant.close();
        }
    }

    /** One peer site: its writers, how its frame reader matched, and the link's bookkeeping of it. */
    private final class Peer {

        final SiteId site;
        final String address;
        final LinkPeer ledger;
        private @Nullable DataWriter<FrameSample> frameWriter;
        private @Nullable DataWriter<AckSample> ackWriter;
        // Guarded by ledger.
        private int lastMatched;
        private int lastGone;
        // Link thread only: receiving.
        private long receivedIncarnation;
        private long receivedUpTo;

        Peer(SiteId site, String address) {
            this.site = site;
            this.address = address;
            this.ledger = new LinkPeer(site);
        }

        void attach(DataWriter<FrameSample> frames, DataWriter<AckSample> acks) {
            this.frameWriter = frames;
            this.ackWriter = acks;
        }

        void send(byte[] frame) throws TransportException {
            synchronized (this.ledger) {
                DataWriter<FrameSample> writer = this.frameWriter;
                this.ledger.requireUp(kind());
                if (writer == null) {
                    throw this.ledger.refused("The dds WAN link to peer site " + this.site + " is not open", null);
                }
                try {
                    writer.write(new FrameSample(DdsWanLink.this.site.value(), this.site.value(), incarnation,
                            this.ledger.nextCounter(), frame));
                }
                catch (DdsException.Timeout ex) {
                    throw this.ledger.refused("Peer site " + this.site + " does not keep up: the dds frame writer's "
                            + "history stayed full for " + settings.writeTimeout(), ex);
                }
                catch (DdsException | IllegalStateException ex) {
                    throw this.ledger.refused("Unable to send a frame to peer site " + this.site + ": "
                            + ex.getMessage(), ex);
                }
                this.ledger.sent(frame.length);
            }
        }

        /** The peer received our frames up to {@code upTo}. */
        void acknowledged(long upTo) {
            this.ledger.acknowledged(upTo);
        }

        /** Notes a frame from this peer; returns the counter to acknowledge. */
        long received(FrameSample sample) {
            if (sample.incarnation() != this.receivedIncarnation) {
                // The peer's link (re)started: its counters start over.
                this.receivedIncarnation = sample.incarnation();
                this.receivedUpTo = sample.counter();
            }
            else {
                this.receivedUpTo = Math.max(this.receivedUpTo, sample.counter());
            }
            this.ledger.received(sample.frame().length);
            return this.receivedUpTo;
        }

        void acknowledgeReceived(long upTo) {
            DataWriter<AckSample> writer = this.ackWriter;
            if (writer == null) {
                return;
            }
            try {
                writer.write(new AckSample(DdsWanLink.this.site.value(), this.site.value(), this.receivedIncarnation,
                        upTo));
            }
            catch (DdsException ex) {
                // Acks are cumulative: the next one covers this; a sender that hears none times out and resends.
                log.warn("Unable to acknowledge frames up to {} to peer site {}: {}", upTo, this.site,
                        ex.getMessage());
            }
        }

        /** Re-evaluates the state; returns the transitions, in order, for the handler. */
        List<LinkState> check(long now) {
            DataWriter<FrameSample> writer = this.frameWriter;
            if (writer == null) {
                return List.of();
            }
            WriterStatus status = writer.status();
            List<LinkState> transitions = new ArrayList<>(2);
            synchronized (this.ledger) {
                LinkState state = this.ledger.state();
                int gone = status.totalMatchedReaders() - status.matchedReaders();
                boolean replaced = gone > this.lastGone && status.matchedReaders() > 0 && this.lastMatched > 0;
                this.lastGone = gone;
                this.lastMatched = status.matchedReaders();
                if (status.matchedReaders() == 0) {
                    // Whatever stalled went with the reader; a reader that matches again makes the peer UP.
                    this.ledger.clearStall();
                    if (state == LinkState.UP) {
                        down("its frame reader is gone", false, transitions);
                    }
                    return transitions;
                }
                if (replaced && state == LinkState.UP) {
                    // The reader that had our frames left and another took its place between two looks.
                    down("its frame reader was replaced", false, transitions);
                    up(transitions);
                    return transitions;
                }
                if (this.ledger.overdue(now, settings.peerTimeout())) {
                    down("nothing acknowledged for " + settings.peerTimeout(), true, transitions);
                    return transitions;
                }
                if (state != LinkState.UP && (!this.ledger.stalled() || replaced)) {
                    up(transitions);
                }
            }
            return transitions;
        }

        private void down(String why, boolean stalled, List<LinkState> transitions) {
            long bytes = this.ledger.unacknowledgedBytes();
            int frames = this.ledger.down(stalled);
            log.warn("dds WAN link of site {}: peer {} lost ({}); {} frames ({} bytes) not acknowledged count as "
                    + "lost", DdsWanLink.this.site, this.site, why, frames, bytes);
            transitions.add(LinkState.DOWN);
        }

        private void up(List<LinkState> transitions) {
            this.ledger.up();
            transitions.add(LinkState.UP);
        }

        Map<String, Object> details() {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("address", this.address);
            details.putAll(this.ledger.details());
            return details;
        }
    }
}
