package dev.taikai.refereeservice.remote;

import dev.taikai.enginehost.session.EngineFailure;
import dev.taikai.proto.worker.v1.Capacity;
import dev.taikai.proto.worker.v1.EngineWorkerGrpc;
import dev.taikai.proto.worker.v1.GetCapacityRequest;
import dev.taikai.referee.game.Pairing;
import dev.taikai.rules.Variant;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * The engine workers a referee can use. Targets are {@code host:port}; a host name that resolves to
 * several addresses (a Kubernetes headless service) counts as that many workers, resolved again at most
 * every few seconds. Sessions go to the worker with the most free slots that accepts them.
 */
public final class WorkerPool implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(WorkerPool.class.getName());
    private static final long RESOLVE_EVERY_NANOS = 5_000_000_000L;
    private static final long CAPACITY_DEADLINE_MILLIS = 2_000;

    private final List<String> targets;
    private final Function<String, ManagedChannel> channels;
    private final Map<String, ManagedChannel> endpoints = new LinkedHashMap<>();
    private long resolvedAt = Long.MIN_VALUE;

    /**
     * @param targets {@code host:port} of each worker (or headless service)
     * @param channels opens a channel to one {@code address:port}
     */
    public WorkerPool(List<String> targets, Function<String, ManagedChannel> channels) {
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("a referee needs at least one engine worker address");
        }
        for (String target : targets) {
            int colon = target.lastIndexOf(':');
            if (colon <= 0 || !target.substring(colon + 1).matches("[0-9]{1,5}")) {
                throw new IllegalArgumentException("worker address '" + target + "' is not host:port");
            }
        }
        this.targets = List.copyOf(targets);
        this.channels = channels;
    }

    /**
     * Every worker that answers has all its slots in use: a new session can start once a game ends.
     * {@code slots} counts the slots of the workers that answered, so that a caller can tell a busy cluster
     * from one that can never host a game.
     */
    public static final class Full extends RuntimeException {
        private final int slots;

        Full(String message, int slots) {
            super(message);
            this.slots = slots;
        }

        /** The engine slots of all workers that answered. */
        public int slots() {
            return slots;
        }
    }

    /**
     * Opens a session for {@code engine} on the worker with the most free slots, trying the others when it
     * refuses; with {@code logPipes} the session keeps its engine's log (returned at each game's end).
     *
     * @return the session, or the engine's failure to start: its own (it crashed, say), or when every worker
     *     refused it for good (INVALID_ARGUMENT: no worker has it in its catalog)
     * @throws Full when every worker that answers has no free slot (or refused for lack of one)
     * @throws WorkerLost when no worker can be reached, or every one refuses for another reason
     */
    public RemoteSession.Opened open(Pairing.Engine engine, Variant variant, boolean logPipes) {
        List<Map.Entry<String, Capacity>> ranked = new ArrayList<>();
        for (Map.Entry<String, ManagedChannel> endpoint : endpoints().entrySet()) {
            ranked.add(Map.entry(endpoint.getKey(), capacity(endpoint.getValue())));
        }
        ranked.sort(Comparator.comparing(
                (Map.Entry<String, Capacity> e) -> -e.getValue().getFree()));
        List<String> refusals = new ArrayList<>();
        int slots = 0;
        boolean full = false;
        List<String> refusedForGood = new ArrayList<>();
        for (Map.Entry<String, Capacity> candidate : ranked) {
            Capacity capacity = candidate.getValue();
            if (capacity == UNREACHABLE) {
                refusals.add(candidate.getKey() + ": unreachable");
                continue;
            }
            slots += capacity.getSlots();
            if (capacity.getFree() <= 0) {
                full |= !capacity.getDraining();
                refusals.add(candidate.getKey() + ": "
                        + (capacity.getDraining() ? "shutting down" : "all " + capacity.getSlots() + " slots in use"));
                continue;
            }
            try {
                return RemoteSession.open(
                        channelFor(candidate.getKey()), candidate.getKey(), engine, variant, logPipes);
            } catch (WorkerLost e) {
                Status status = e.getCause() == null ? null : Status.fromThrowable(e.getCause());
                full |= status != null && status.getCode() == Status.Code.RESOURCE_EXHAUSTED;
                if (status != null && status.getCode() == Status.Code.INVALID_ARGUMENT) {
                    refusedForGood.add(candidate.getKey() + ": " + status.getDescription());
                }
                refusals.add(candidate.getKey() + ": " + e.getMessage());
            }
        }
        String why = "no worker could start " + engine.engineId() + " (" + String.join("; ", refusals) + ")";
        if (full) {
            throw new Full(why, slots);
        }
        if (!refusedForGood.isEmpty() && refusedForGood.size() == ranked.size()) {
            // every worker answered that it never will (no such engine in its catalog): playing the game again
            // would hold a game slot for ever, so the engine fails to start, as an engine program that is not
            // there does on one machine
            return new RemoteSession.Opened(
                    null,
                    new EngineFailure(
                            EngineFailure.Kind.START_FAILED,
                            "no worker can start " + engine.engineId() + " (" + String.join("; ", refusedForGood) + ")",
                            List.of()));
        }
        throw new WorkerLost(why);
    }

    private static final Capacity UNREACHABLE =
            Capacity.newBuilder().setFree(-1).build();

    /** A worker's capacity, or {@link #UNREACHABLE}. */
    private static Capacity capacity(ManagedChannel channel) {
        try {
            Capacity capacity = EngineWorkerGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(CAPACITY_DEADLINE_MILLIS, TimeUnit.MILLISECONDS)
                    .getCapacity(GetCapacityRequest.getDefaultInstance());
            return capacity.getDraining() ? capacity.toBuilder().setFree(0).build() : capacity;
        } catch (StatusRuntimeException e) {
            return UNREACHABLE;
        }
    }

    private synchronized ManagedChannel channelFor(String endpoint) {
        return endpoints.get(endpoint);
    }

    /** The workers' addresses now, resolving host names again when the last look is old. */
    private synchronized Map<String, ManagedChannel> endpoints() {
        long now = System.nanoTime();
        if (resolvedAt != Long.MIN_VALUE && now - resolvedAt < RESOLVE_EVERY_NANOS) {
            return new LinkedHashMap<>(endpoints);
        }
        resolvedAt = now;
        List<String> current = new ArrayList<>();
        for (String target : targets) {
            int colon = target.lastIndexOf(':');
            String host = target.substring(0, colon);
            String port = target.substring(colon + 1);
            try {
                for (InetAddress address : InetAddress.getAllByName(host)) {
                    current.add(address.getHostAddress() + ":" + port);
                }
            } catch (UnknownHostException e) {
                LOG.warning("worker host '" + host + "' does not resolve now: " + e.getMessage());
            }
        }
        endpoints.keySet().removeIf(endpoint -> {
            boolean gone = !current.contains(endpoint);
            if (gone) {
                endpoints.get(endpoint).shutdown();
            }
            return gone;
        });
        for (String endpoint : current) {
            endpoints.computeIfAbsent(endpoint, channels);
        }
        return new LinkedHashMap<>(endpoints);
    }

    /**
     * Each worker's capacity now, by address ({@code free} is −1 for a worker that did not answer): what
     * the referee's live status tells the dashboard. Asks every worker, each within two seconds.
     */
    public Map<String, Capacity> capacities() {
        Map<String, Capacity> answers = new LinkedHashMap<>();
        for (Map.Entry<String, ManagedChannel> endpoint : endpoints().entrySet()) {
            answers.put(endpoint.getKey(), capacity(endpoint.getValue()));
        }
        return answers;
    }

    /** How many worker addresses are known now. */
    public int size() {
        return endpoints().size();
    }

    @Override
    public synchronized void close() {
        for (ManagedChannel channel : endpoints.values()) {
            channel.shutdownNow();
        }
        endpoints.clear();
    }
}
