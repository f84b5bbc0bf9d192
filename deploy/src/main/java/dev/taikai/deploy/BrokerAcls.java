package dev.taikai.deploy;

import java.io.FileInputStream;
import java.io.InputStream;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Creates {@link KafkaAcls#all} on a broker. It runs as its own process on the broker's jars ({@link
 * KafkaBroker} starts it), so that the command line needs no Kafka client.
 *
 * <p>Usage: BrokerAcls CLIENT-PROPERTIES (a super user's client configuration, bootstrap servers included)
 */
public final class BrokerAcls {
    private BrokerAcls() {}

    public static void main(String[] args) throws Exception {
        Properties client = new Properties();
        try (InputStream in = new FileInputStream(args[0])) {
            client.load(in);
        }
        try (Admin admin = Admin.create(client)) {
            admin.createAcls(bindings()).all().get(60, TimeUnit.SECONDS);
        }
        System.out.println("taikai: " + KafkaAcls.all().size() + " ACLs in place");
    }

    static List<AclBinding> bindings() {
        return KafkaAcls.all().stream()
                .map(acl -> new AclBinding(
                        new ResourcePattern(
                                ResourceType.fromString(acl.resourceType()), acl.name(), PatternType.LITERAL),
                        new AccessControlEntry(
                                acl.principal(),
                                "*",
                                AclOperation.fromString(acl.operation()),
                                AclPermissionType.ALLOW)))
                .toList();
    }
}
