package kr.c4i.gateway.scenarios.net;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.scenarios.net.PortCounters.LossCount;

/**
 * The emulated network, built on {@link #create} and removed on {@link #close} (also from a shutdown hook, so
 * Ctrl-C or a failure leaves nothing behind). Only ever kills processes that live in its own namespaces, by the
 * namespaces' pid lists.
 */
public final class EmulatedNetwork implements AutoCloseable {

    private static final Duration KILL_TIMEOUT = Duration.ofSeconds(20);

    private final Topology topology;
    private final Shell shell;
    private final ImpairmentBackend backend;
    private final Consumer<String> log;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final List<Runnable> afterClose = new CopyOnWriteArrayList<>();
    private final Thread shutdownHook;
    private volatile boolean detached;

    private EmulatedNetwork(Topology topology, Shell shell, ImpairmentBackend backend, Consumer<String> log) {
        this.topology = topology;
        this.shell = shell;
        this.backend = backend;
        this.log = log;
        this.shutdownHook = Thread.ofPlatform().name("emulated-network-teardown").unstarted(this::teardown);
    }

    /**
     * Builds the network. Refuses when namespaces of the same names exist (another run, or one that died: remove
     * it with {@code scenarios network down}).
     *
     * @param backend the impairment backend to use, or null to use netem when the kernel has it
     * @param tuning kernel settings for every host
     * @throws ShellException if a command fails; whatever was built by then is removed
     */
    public static EmulatedNetwork create(Topology topology, Shell shell, @Nullable ImpairmentBackend backend,
            HostTuning tuning, Consumer<String> log) {
        List<String> existing = existingNamespaces(shell, topology);
        if (!existing.isEmpty()) {
            throw new IllegalStateException("Namespaces " + existing + " already exist: another run is active, or one "
                    + "died; remove them with 'scenarios network down --prefix " + topology.prefix() + "'");
        }
        ImpairmentBackend chosen = backend != null ? backend : probeBackend(topology, shell);
        EmulatedNetwork network = new EmulatedNetwork(topology, shell, chosen, log);
        Runtime.getRuntime().addShutdownHook(network.shutdownHook);
        try {
            shell.runAll(NetworkPlans.create(topology, tuning));
        }
        catch (RuntimeException ex) {
            network.close();
            throw ex;
        }
        return network;
    }

    /** netem when this kernel has sch_netem, else TBF and nftables. */
    public static ImpairmentBackend probeBackend(Topology topology, Shell shell) {
        try {
            for (ShellCommand command : NetworkPlans.netemProbe(topology)) {
                if (!shell.run(command.tolerant()).ok() && !command.mayFail()) {
                    return ImpairmentBackend.TBF_NFTABLES;
                }
            }
            return ImpairmentBackend.NETEM;
        }
        catch (ShellException ex) {
            return ImpairmentBackend.TBF_NFTABLES;
        }
        finally {
            shell.run(NetworkPlans.netemProbeCleanup(topology));
        }
    }

    /** Names of this topology's namespaces that exist now. */
    public static List<String> existingNamespaces(Shell shell, Topology topology) {
        List<String> present = shell.run(ShellCommand.of("ip", "netns", "list")).stdout().lines()
                .map(l -> l.split("\\s+")[0]).toList();
        List<String> ours = new ArrayList<>(topology.namespaces());
        ours.add(NetworkPlans.probeNamespace(topology));
        return ours.stream().filter(present::contains).toList();
    }

    /**
     * Removes whatever exists of a topology's namespaces, killing the processes in them first: for
     * {@code scenarios network down} after a run that could not clean up.
     *
     * @return the namespaces removed
     */
    public static List<String> removeExisting(Topology topology, Shell shell) {
        List<String> existing = existingNamespaces(shell, topology);
        for (String ns : existing) {
            killNamespace(shell, ns);
        }
        for (String ns : existing) {
            shell.run(ShellCommand.of("ip", "netns", "del", ns).tolerant());
        }
        return existing;
    }

    public Topology topology() {
        return topology;
    }

    public ImpairmentBackend backend() {
        return backend;
    }

    /** The TCP congestion control host 1 uses (every host has the same). */
    public String congestionControl() {
        return shell.run(NetworkPlans.congestionControl(topology, 1)).stdout().strip();
    }

    /** How long host 1 waits before it repeats an unanswered ARP request, in ms (every host has the same). */
    public int arpRetryMillis() {
        return Integer.parseInt(shell.run(NetworkPlans.arpRetry(topology, 1)).stdout().strip());
    }

    public void shape(Collection<Integer> hosts, LinkShape shape) {
        shell.runAll(NetworkPlans.unshape(topology, hosts));
        shell.runAll(NetworkPlans.shape(topology, backend, hosts, shape));
    }

    public void unshape(Collection<Integer> hosts) {
        shell.runAll(NetworkPlans.unshape(topology, hosts));
    }

    /** Drops the TCP connections between two hosts, both sides, and their cached TCP metrics. */
    public void resetTcp(int host, int peer) {
        shell.runAll(NetworkPlans.resetTcp(topology, host, peer));
        shell.runAll(NetworkPlans.resetTcp(topology, peer, host));
    }

    public void cut(int host) {
        shell.run(NetworkPlans.cut(topology, host));
    }

    public void uncut(int host) {
        shell.run(NetworkPlans.uncut(topology, host));
    }

    /**
     * Emergency stop: cut the host off, kill -9 every process in its namespace, then drop its sockets and its
     * neighbour cache. The host stays cut until {@link #uncut}.
     */
    public void emergencyStop(int host) {
        cut(host);
        killNamespace(shell, topology.hostNamespace(host));
        shell.runAll(NetworkPlans.forget(topology, host));
    }

    /** SIGKILL to every process in the host's namespace, until none is left. */
    public void killAll(int host) {
        killNamespace(shell, topology.hostNamespace(host));
    }

    public List<Long> pids(int host) {
        return pids(shell, topology.hostNamespace(host));
    }

    /** Every switch port's counters, by port name ({@code p1}...). */
    public Map<String, PortCounters> switchCounters() {
        Map<String, PortCounters> all = PortCounters.parse(shell.run(NetworkPlans.switchCounters(topology)).stdout());
        Map<String, PortCounters> ports = new LinkedHashMap<>();
        for (int host : topology.hostIndexes()) {
            ports.put(topology.switchPort(host), all.getOrDefault(topology.switchPort(host), PortCounters.ZERO));
        }
        return ports;
    }

    public PortCounters port(int host) {
        return switchCounters().get(topology.switchPort(host));
    }

    /**
     * What a host's node answers at {@code 127.0.0.1:port} of its namespace (see {@link NetworkPlans#hostHttpGet}).
     *
     * @throws ShellException if it does not answer, or answers with an HTTP error
     */
    public String hostHttpGet(int host, int port, String path, String user, String password) {
        return shell.run(NetworkPlans.hostHttpGet(topology, host, port, path, user, password)).stdout();
    }

    /** What the loss rules saw and dropped, by port; empty with netem or without loss. */
    public Map<String, LossCount> lossCounters() {
        Shell.Result result = shell.run(NetworkPlans.lossCounters(topology));
        return result.ok() ? PortCounters.parseLossCounters(result.stdout()) : Map.of();
    }

    /** Runs after the namespaces are gone, also from the shutdown hook (e.g. to delete the nodes' work dirs). */
    public void afterClose(Runnable action) {
        afterClose.add(action);
    }

    /** Leaves the network in place on {@link #close} (for {@code scenarios network up}). */
    public void detach() {
        detached = true;
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        }
        catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
    }

    @Override
    public void close() {
        if (detached) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        }
        catch (IllegalStateException shuttingDown) {
            // we are the shutdown, or it is under way: teardown below is idempotent
        }
        teardown();
    }

    private void teardown() {
        if (detached || !closed.compareAndSet(false, true)) {
            return;
        }
        Instant start = Instant.now();
        for (int host : topology.hostIndexes()) {
            try {
                killNamespace(shell, topology.hostNamespace(host));
            }
            catch (RuntimeException ex) {
                log.accept("Unable to kill the processes of " + topology.hostNamespace(host) + ": " + ex.getMessage());
            }
        }
        for (ShellCommand command : NetworkPlans.destroy(topology)) {
            try {
                shell.run(command);
            }
            catch (RuntimeException ex) {
                log.accept("Unable to remove the emulated network: " + ex.getMessage());
            }
        }
        for (Runnable action : afterClose) {
            try {
                action.run();
            }
            catch (RuntimeException ex) {
                log.accept("Cleanup after the network failed: " + ex.getMessage());
            }
        }
        log.accept("Emulated network " + topology.prefix() + "* removed in "
                + Duration.between(start, Instant.now()).toMillis() + " ms");
    }

    /**
     * SIGKILL to every process of the namespace until none is left, then until none of them is a zombie any more:
     * a zombie postmaster still "owns" its postmaster.pid, and a node restarted before its parent (possibly
     * init, which may reap late) collected it would find its database locked.
     */
    private static void killNamespace(Shell shell, String namespace) {
        Instant deadline = Instant.now().plus(KILL_TIMEOUT);
        java.util.Set<Long> killed = new java.util.HashSet<>();
        List<Long> pids = pids(shell, namespace);
        while (!pids.isEmpty()) {
            for (long pid : pids) {
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
                killed.add(pid);
            }
            if (Instant.now().isAfter(deadline)) {
                throw new ShellException("Processes " + pids + " in " + namespace + " survived SIGKILL for "
                        + KILL_TIMEOUT.toSeconds() + " s", null);
            }
            pause();
            pids = pids(shell, namespace);
        }
        List<Long> zombies = killed.stream().filter(EmulatedNetwork::zombie).toList();
        while (!zombies.isEmpty()) {
            if (Instant.now().isAfter(deadline)) {
                throw new ShellException("Processes " + zombies + " of " + namespace + " are still zombies after "
                        + KILL_TIMEOUT.toSeconds() + " s: their parent does not reap them", null);
            }
            pause();
            zombies = zombies.stream().filter(EmulatedNetwork::zombie).toList();
        }
    }

    /** Whether the process is dead but not yet collected by its parent. */
    static boolean zombie(long pid) {
        try {
            String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc", Long.toString(pid), "stat"));
            int close = stat.lastIndexOf(')');
            return close > 0 && close + 2 < stat.length() && stat.charAt(close + 2) == 'Z';
        }
        catch (java.io.IOException ex) {
            return false;
        }
    }

    private static void pause() {
        try {
            Thread.sleep(50);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new ShellException("Interrupted while killing processes", ex);
        }
    }

    private static List<Long> pids(Shell shell, String namespace) {
        return shell.run(NetworkPlans.pids(namespace)).stdout().lines().map(String::strip).filter(s -> !s.isEmpty())
                .map(Long::parseLong).toList();
    }
}
