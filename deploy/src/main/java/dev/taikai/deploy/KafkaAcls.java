package dev.taikai.deploy;

import java.util.ArrayList;
import java.util.List;

/**
 * Who may do what on a Taikai broker (docs/security.md): only referees write game records, engine logs and
 * live events; only the scheduler writes tournaments and pairings; both may set a message aside as a dead
 * letter; nobody else may write anything. Principals are the roles in the services' certificates: {@link
 * #PRINCIPAL_RULES} maps {@code CN=<name>,OU=<role>,O=Taikai} to {@code User:<role>}. The broker's own
 * identity and the operator's are its {@link #SUPER_USERS}. Plain data, so that the command line can hold
 * it without a Kafka client: {@link BrokerAcls} creates them on a broker, the Kubernetes Job from the
 * same lines ({@link #commandLines}).
 */
public final class KafkaAcls {
    /** One allowed operation of a principal on a topic or a consumer group (literal names). */
    public record Acl(String principal, String operation, String resourceType, String name) {}

    public static final String SCHEDULER = "User:scheduler";
    public static final String REFEREE = "User:referee";
    /** The broker's rule from a certificate's subject to its principal: the role. */
    public static final String PRINCIPAL_RULES = "RULE:^CN=[^,]*,OU=([a-z]+),O=Taikai$/$1/,DEFAULT";
    /** The broker's super users: itself (broker and controller) and the operator's tools. */
    public static final String SUPER_USERS = "User:kafka;User:admin";

    /** The topics of events.Topics (ClusterTlsTest checks that the two agree). */
    static final String TOURNAMENTS = "taikai.tournaments";

    static final String PAIRINGS = "taikai.pairings";
    static final String GAMES = "taikai.games";
    static final String ENGINE_LOGS = "taikai.engine-logs";
    static final String LIVE = "taikai.live";
    static final String DEAD_LETTERS = "taikai.dead-letters";
    static final List<String> TOPICS = List.of(TOURNAMENTS, PAIRINGS, GAMES, ENGINE_LOGS, LIVE, DEAD_LETTERS);
    /** The referees' consumer group for the pairings. */
    public static final String REFEREE_GROUP = "taikai-referees";

    private KafkaAcls() {}

    /** The topics the ACLs are about (ClusterTlsTest checks them against events.Topics). */
    public static List<String> topics() {
        return TOPICS;
    }

    /** Every ACL of a Taikai broker. */
    public static List<Acl> all() {
        List<Acl> acls = new ArrayList<>();
        for (String topic : TOPICS) {
            // the scheduler makes any topic that is missing, with the settings of docs/distributed.md
            acls.add(topic(SCHEDULER, "CREATE", topic));
            acls.add(topic(SCHEDULER, "DESCRIBE", topic));
            acls.add(topic(REFEREE, "DESCRIBE", topic));
        }
        for (String topic : List.of(TOURNAMENTS, PAIRINGS, DEAD_LETTERS)) {
            acls.add(topic(SCHEDULER, "WRITE", topic));
        }
        for (String topic : List.of(TOURNAMENTS, GAMES, ENGINE_LOGS, LIVE)) {
            acls.add(topic(SCHEDULER, "READ", topic));
        }
        for (String topic : List.of(GAMES, ENGINE_LOGS, LIVE, DEAD_LETTERS)) {
            acls.add(topic(REFEREE, "WRITE", topic));
        }
        for (String topic : List.of(PAIRINGS, TOURNAMENTS)) {
            acls.add(topic(REFEREE, "READ", topic));
        }
        acls.add(new Acl(REFEREE, "READ", "GROUP", REFEREE_GROUP));
        return acls;
    }

    private static Acl topic(String principal, String operation, String topic) {
        return new Acl(principal, operation, "TOPIC", topic);
    }

    /** The ACLs as arguments of Kafka's {@code kafka-acls.sh}, one line each (the Kubernetes Job runs them). */
    public static List<String> commandLines() {
        List<String> lines = new ArrayList<>();
        for (Acl acl : all()) {
            lines.add("--add --allow-principal " + acl.principal() + " --operation " + acl.operation() + " --"
                    + acl.resourceType().toLowerCase(java.util.Locale.ROOT) + " " + acl.name());
        }
        return lines;
    }
}
