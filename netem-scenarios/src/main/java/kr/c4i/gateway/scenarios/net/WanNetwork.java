package kr.c4i.gateway.scenarios.net;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * The {@code wan} experiment's network, built on {@link #create} and removed on {@link #close} (also from a
 * shutdown hook): two site networks ({@link EmulatedNetwork}s, which kill their own processes on close) and the
 * WAN switch between their gateway hosts, with the WAN's delay helper while a delay is set.
 */
public final class WanNetwork implements AutoCloseable {

    private final WanTopology topology;
    private final Shell shell;
    private final ImpairmentBackend backend;
    private final EmulatedNetwork site1;
    private final EmulatedNetwork site2;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Thread shutdownHook;
    private final Consumer<String> log;
    private @Nullable LinkDelay delay;

    private WanNetwork(WanTopology topology, Shell shell, ImpairmentBackend backend, EmulatedNetwork site1,
            EmulatedNetwork site2, Consumer<String> log) {
        this.topology = topology;
        this.log = log;
        this.shell = shell;
        this.backend = backend;
        this.site1 = site1;
        this.site2 = site2;
        this.shutdownHook = Thread.ofPlatform().name("wan-network-teardown").unstarted(this::teardown);
    }

    /**
     * Builds both sites, then the WAN link; whatever was built is removed if a step fails.
     *
     * @param backend the impairment backend the run chose
     */
    public static WanNetwork create(WanTopology topology, Shell shell, ImpairmentBackend backend, HostTuning tuning,
            Consumer<String> log) {
        EmulatedNetwork site1 = EmulatedNetwork.create(topology.site1(), shell, backend, tuning, log);
        EmulatedNetwork site2;
        try {
            site2 = EmulatedNetwork.create(topology.site2(), shell, backend, tuning, log);
        }
        catch (RuntimeException ex) {
            site1.close();
            throw ex;
        }
        WanNetwork network = new WanNetwork(topology, shell, backend, site1, site2, log);
        Runtime.getRuntime().addShutdownHook(network.shutdownHook);
        try {
            shell.runAll(WanPlans.destroy(topology));
            shell.runAll(WanPlans.create(topology));
        }
        catch (RuntimeException ex) {
            network.close();
            throw ex;
        }
        return network;
    }

    public WanTopology topology() {
        return topology;
    }

    /** Site 1 or 2's network. */
    public EmulatedNetwork site(int site) {
        return switch (site) {
            case 1 -> site1;
            case 2 -> site2;
            default -> throw new IllegalArgumentException("site must be 1 or 2, was " + site);
        };
    }

    /** Impairs the WAN link (the LANs stay as they are). */
    public void shapeWan(LinkShape shape) {
        shell.runAll(WanPlans.shape(topology, backend, shape));
    }

    public void unshapeWan() {
        shell.runAll(WanPlans.unshape(topology));
    }

    /** Cuts the WAN link both ways, until {@link #restoreWan}. */
    public void cutWan() {
        shell.run(WanPlans.cut(topology));
    }

    public void restoreWan() {
        shell.run(WanPlans.uncut(topology));
    }

    /**
     * Sets the WAN link's one-way delay (both directions), starting or replacing the delay helper; zero removes it.
     * Nothing happens when the delay is already this one and its helper runs.
     */
    public synchronized void delayWan(Duration oneWay, LinkDelay.Launcher launcher) {
        if (oneWay.equals(wanDelay()) && (delay == null || delay.alive())) {
            return;
        }
        stopDelay();
        if (!oneWay.isZero()) {
            delay = LinkDelay.start(topology, oneWay, launcher, shell, log);
        }
    }

    /** The WAN link's one-way delay now (zero: none). */
    public synchronized Duration wanDelay() {
        return delay == null ? Duration.ZERO : delay.delay();
    }

    /**
     * The delay's counters, zero without a delay.
     *
     * @throws IllegalStateException if the delay helper has exited
     */
    public synchronized DelayCounters delayCounters() {
        return delay == null ? DelayCounters.ZERO : delay.counters();
    }

    private synchronized void stopDelay() {
        LinkDelay running = delay;
        delay = null;
        if (running != null) {
            running.close();
        }
    }

    /** What a site's gateway has put on the WAN (its WAN switch port's counters). */
    public PortCounters wanPort(int site) {
        Map<String, PortCounters> all = PortCounters.parse(shell.run(NetworkPlans.switchCounters(topology.wan()))
                .stdout());
        return all.getOrDefault(topology.wanPort(site), PortCounters.ZERO);
    }

    /**
     * What a site's gateway host answers to an HTTP GET of {@code path} at {@code 127.0.0.1:port} (its management
     * endpoints), with basic authentication.
     *
     * @throws ShellException if it does not answer, or answers with an HTTP error
     */
    public String gatewayHttpGet(int site, int port, String path, String user, String password) {
        return shell.run(WanPlans.gatewayHttpGet(topology, site, port, path, user, password)).stdout();
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        }
        catch (IllegalStateException shuttingDown) {
            // the hook runs anyway; teardown is idempotent
        }
        teardown();
    }

    private void teardown() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            try {
                stopDelay();
            }
            catch (RuntimeException ex) {
                log.accept("Unable to stop the WAN delay: " + ex.getMessage());
            }
            site2.close();
        }
        finally {
            try {
                site1.close();
            }
            finally {
                for (ShellCommand command : WanPlans.destroy(topology)) {
                    shell.run(command);
                }
            }
        }
    }
}
