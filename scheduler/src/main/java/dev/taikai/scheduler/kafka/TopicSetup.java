package dev.taikai.scheduler.kafka;

import dev.taikai.events.Topics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;

/**
 * Creates Taikai's topics when they are missing (docs/distributed.md explains each choice): tournaments
 * compacted, pairings kept a week, game records kept forever (standings are rebuilt from them), engine
 * logs kept a week, dead letters kept a month. Existing topics are left as they are.
 */
public final class TopicSetup {
    private TopicSetup() {}

    public static void ensure(Properties kafka, int pairingPartitions, short replication)
            throws InterruptedException, ExecutionException, TimeoutException {
        try (Admin admin = Admin.create(kafka)) {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> wanted = new ArrayList<>();
            wanted.add(new NewTopic(Topics.TOURNAMENTS, 1, replication)
                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)));
            wanted.add(new NewTopic(Topics.PAIRINGS, pairingPartitions, replication)
                    .configs(Map.of(TopicConfig.RETENTION_MS_CONFIG, String.valueOf(7L * 24 * 3600 * 1000))));
            wanted.add(new NewTopic(Topics.GAMES, 3, replication)
                    .configs(Map.of(TopicConfig.RETENTION_MS_CONFIG, "-1", TopicConfig.RETENTION_BYTES_CONFIG, "-1")));
            // a game's log is one message of at most about 800 KiB (the referee caps it), read by offset
            wanted.add(new NewTopic(Topics.ENGINE_LOGS, 3, replication)
                    .configs(Map.of(
                            TopicConfig.RETENTION_MS_CONFIG,
                            String.valueOf(7L * 24 * 3600 * 1000),
                            TopicConfig.MAX_MESSAGE_BYTES_CONFIG,
                            String.valueOf(1024 * 1024 + 1024))));
            // what referees play now, for the dashboard's live view: an hour is more than any game in play
            wanted.add(new NewTopic(Topics.LIVE, 1, replication)
                    .configs(Map.of(TopicConfig.RETENTION_MS_CONFIG, String.valueOf(3600L * 1000))));
            wanted.add(new NewTopic(Topics.DEAD_LETTERS, 1, replication)
                    .configs(Map.of(
                            TopicConfig.CLEANUP_POLICY_CONFIG,
                            TopicConfig.CLEANUP_POLICY_COMPACT + "," + TopicConfig.CLEANUP_POLICY_DELETE,
                            TopicConfig.RETENTION_MS_CONFIG,
                            String.valueOf(30L * 24 * 3600 * 1000))));
            wanted.removeIf(topic -> existing.contains(topic.name()));
            if (!wanted.isEmpty()) {
                try {
                    admin.createTopics(wanted).all().get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof org.apache.kafka.common.errors.TopicExistsException)) {
                        throw e;
                    }
                }
            }
        }
    }
}
