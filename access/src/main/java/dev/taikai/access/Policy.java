package dev.taikai.access;

import dev.taikai.access.tls.ServiceRole;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which roles may call which operation. An operation is a gRPC method ({@code service/Method}) or an HTTP
 * route ({@code VERB /path}, ids written {@code *}). What is not listed is refused to everyone; the health
 * checks are open to everyone, so that probes need no secret.
 */
public final class Policy {
    private static final Set<Role> READERS = EnumSet.of(Role.ADMIN, Role.VIEWER, Role.REFEREE);
    private static final Set<Role> ADMIN = EnumSet.of(Role.ADMIN);

    private static final Map<String, Set<Role>> RULES = Map.ofEntries(
            Map.entry("taikai.scheduler.v1.Scheduler/CreateTournament", ADMIN),
            Map.entry("taikai.scheduler.v1.Scheduler/CancelTournament", ADMIN),
            Map.entry("taikai.scheduler.v1.Scheduler/JoinLeague", ADMIN),
            Map.entry("taikai.scheduler.v1.Scheduler/LeaveLeague", ADMIN),
            Map.entry("taikai.scheduler.v1.Scheduler/ListTournaments", READERS),
            Map.entry("taikai.scheduler.v1.Scheduler/GetTournament", READERS),
            Map.entry("taikai.scheduler.v1.Scheduler/WatchTournament", READERS),
            Map.entry("taikai.scheduler.v1.Scheduler/GetStandings", READERS),
            Map.entry("taikai.scheduler.v1.Scheduler/GetGameRecords", READERS),
            Map.entry("taikai.referee.v1.Referee/ListGames", READERS),
            Map.entry("taikai.referee.v1.Referee/WatchGame", READERS),
            Map.entry("taikai.referee.v1.Referee/GetGame", READERS),
            Map.entry("taikai.worker.v1.EngineWorker/Session", EnumSet.of(Role.REFEREE)),
            Map.entry("taikai.worker.v1.EngineWorker/GetCapacity", READERS),
            Map.entry("taikai.worker.v1.EngineWorker/GetCatalog", READERS),
            Map.entry("POST /api/tournaments", ADMIN),
            Map.entry("DELETE /api/tournaments/*", ADMIN),
            Map.entry("POST /api/tournaments/*/entrants", ADMIN),
            Map.entry("DELETE /api/tournaments/*/entrants/*", ADMIN),
            Map.entry("GET /api/tournaments", READERS),
            Map.entry("GET /api/tournaments/*", READERS),
            Map.entry("GET /api/tournaments/*/standings", READERS),
            Map.entry("GET /api/tournaments/*/games", READERS),
            Map.entry("GET /api/tournaments/*/games/*/log", READERS),
            Map.entry("GET /api/tournaments/*/games/*/kif", READERS),
            Map.entry("GET /api/live", READERS),
            Map.entry("GET /api/cluster", READERS),
            Map.entry("GET /q/metrics", EnumSet.of(Role.ADMIN, Role.VIEWER)));

    /**
     * Operations that, over TLS, also need a client certificate of a given role: a stolen referee token
     * alone opens no engine session; only a process holding a referee's key does.
     */
    private static final Map<String, ServiceRole> PEERS =
            Map.of("taikai.worker.v1.EngineWorker/Session", ServiceRole.REFEREE);

    private Policy() {}

    /** The role whose client certificate {@code operation} needs when the service runs TLS. */
    public static Optional<ServiceRole> requiredPeer(String operation) {
        return Optional.ofNullable(PEERS.get(operation));
    }

    /**
     * True for operations anyone may call without a token: gRPC and HTTP health checks, the dashboard's
     * static files (pages, scripts and styles hold no data; the data behind them needs a token or a
     * session), and logging in and out.
     */
    public static boolean open(String operation) {
        return operation.startsWith("grpc.health.v1.Health/")
                || operation.equals("GET /q/health")
                || operation.startsWith("GET /q/health/")
                || operation.equals("GET /")
                || operation.startsWith("GET /ui/")
                || operation.startsWith("GET /webjars/")
                || operation.equals("POST /api/login")
                || operation.equals("POST /api/logout");
    }

    /**
     * True for the reads a public dashboard opens to everyone (a league that wants Floodgate-style public
     * pages): what a viewer may read over HTTP, but the metrics and the engine logs.
     */
    public static boolean publicRead(String operation) {
        return operation.startsWith("GET /api/")
                && !operation.endsWith("/log")
                && allowed(operation).contains(Role.VIEWER);
    }

    /** The roles that may call {@code operation}; empty when nobody may. */
    public static Set<Role> allowed(String operation) {
        return RULES.getOrDefault(operation, Set.of());
    }

    /** True when some HTTP operation of the policy is on {@code path} (as {@link #http} writes it). */
    public static boolean knowsPath(String path) {
        return RULES.keySet().stream()
                .anyMatch(op ->
                        op.indexOf(' ') > 0 && op.substring(op.indexOf(' ') + 1).equals(path));
    }

    /**
     * The HTTP operation for a request: {@code VERB /path} with each tournament id, entrant name and game
     * id written {@code *}.
     */
    public static String http(String method, String path) {
        String[] parts = path.split("/", -1);
        StringBuilder route = new StringBuilder(method).append(' ');
        for (int i = 1; i < parts.length; i++) {
            route.append('/');
            boolean tournaments = parts[1].equals("api") && parts.length > 2 && parts[2].equals("tournaments");
            boolean id =
                    tournaments && (i == 3 || (i == 5 && (parts[4].equals("entrants") || parts[4].equals("games"))));
            route.append(id ? "*" : parts[i]);
        }
        return route.length() == method.length() + 1 ? route.append('/').toString() : route.toString();
    }
}
