package dev.taikai.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.taikai.testkit.Await;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Renders every overlay of deploy/k8s with 'kubectl kustomize' and checks the result: every object is a
 * known Kubernetes type with no unknown field, and the objects fit together (selectors, ports, probes,
 * referenced ConfigMaps and Secrets, resource requests); the ports, environment variables and
 * configuration keys are the ones the services actually read; the dashboard uses documented metrics.
 */
class KubernetesManifestsTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path K8S = ROOT.resolve("deploy/k8s");
    /** The Prometheus adapter's Helm values, relative to {@link #K8S}. */
    private static final String ADAPTER_VALUES = "prometheus-adapter/values.yaml";
    /** Container name -> the module whose service runs in it. */
    private static final Map<String, String> SERVICES =
            Map.of("scheduler", "scheduler", "referee", "referee-service", "engine-worker", "engine-worker");
    /** Custom resources the manifests may use (their operators validate them). */
    private static final Set<String> CUSTOM_KINDS = Set.of(
            "monitoring.coreos.com/v1/ServiceMonitor", "cert-manager.io/v1/Issuer", "cert-manager.io/v1/Certificate");
    /** Container name -> the role (subject OU) of the one certificate Secret it mounts. */
    private static final Map<String, String> ROLES = Map.of(
            "scheduler", "scheduler",
            "referee", "referee",
            "engine-worker", "worker",
            "kafka", "kafka",
            "certificate-reload", "kafka",
            "topics", "admin",
            "create", "admin");
    /** The files of a cert-manager certificate's Secret. */
    private static final Set<String> TLS_KEYS = Set.of("tls.crt", "tls.key", "ca.crt");

    @TempDir
    Path work;

    @Test
    void everyOverlayRendersToValidObjectsThatFitTogether() throws Exception {
        Path copy = work.resolve("k8s");
        copyTree(K8S, copy);
        List<String> overlays;
        try (Stream<Path> dirs = Files.list(copy.resolve("overlays"))) {
            overlays = dirs.map(d -> d.getFileName().toString()).sorted().toList();
        }
        assertEquals(List.of("dev", "production"), overlays);
        for (String overlay : overlays) {
            Path dir = copy.resolve("overlays").resolve(overlay);
            run(List.of("sh", copy.resolve("make-secrets.sh").toString(), dir.toString()));
            String rendered = run(List.of("kubectl", "kustomize", dir.toString()));
            List<HasMetadata> objects = parse(rendered, overlay);
            check(objects, overlay);
        }
    }

    @Test
    void theGuaranteedQosOptionHoldsInProduction() throws Exception {
        Path copy = work.resolve("k8s");
        copyTree(K8S, copy);
        Path dir = copy.resolve("overlays/production");
        run(List.of("sh", copy.resolve("make-secrets.sh").toString(), dir.toString()));
        for (HasMetadata object : parse(run(List.of("kubectl", "kustomize", dir.toString())), "production")) {
            if (object instanceof Deployment d && d.getMetadata().getName().equals("engine-worker")) {
                for (Container c : d.getSpec().getTemplate().getSpec().getContainers()) {
                    assertEquals(
                            c.getResources().getRequests(), c.getResources().getLimits(), "requests == limits");
                    assertTrue(c.getResources().getLimits().containsKey("cpu"), "a CPU limit");
                }
                return;
            }
        }
        fail("no engine-worker Deployment in production");
    }

    private static List<HasMetadata> parse(String rendered, String overlay) {
        List<HasMetadata> objects = new ArrayList<>();
        for (String document : rendered.split("(?m)^---\\s*$")) {
            if (document.isBlank()) {
                continue;
            }
            Object parsed = Serialization.unmarshal(document);
            if (!(parsed instanceof HasMetadata object)) {
                fail(overlay + ": not a Kubernetes object: " + document.substring(0, Math.min(200, document.length())));
                return objects;
            }
            String kind = object.getApiVersion() + "/" + object.getKind();
            if (object instanceof GenericKubernetesResource) {
                assertTrue(CUSTOM_KINDS.contains(kind), overlay + ": unknown kind " + kind);
            } else {
                List<String> unknown = new ArrayList<>();
                unknownFields(object, kind + " " + object.getMetadata().getName(), unknown, 0);
                assertEquals(List.of(), unknown, overlay + ": fields the Kubernetes API does not have");
            }
            objects.add(object);
        }
        assertTrue(objects.size() > 10, overlay + ": " + objects.size() + " objects");
        return objects;
    }

    /** Every Ingress backend names a Service of the overlay and a port that Service has, by name. */
    private static void checkIngressesReachAService(List<HasMetadata> objects, String overlay) {
        int backends = 0;
        for (HasMetadata object : objects) {
            if (!(object instanceof io.fabric8.kubernetes.api.model.networking.v1.Ingress ingress)) {
                continue;
            }
            for (var rule : ingress.getSpec().getRules()) {
                for (var path : rule.getHttp().getPaths()) {
                    var backend = path.getBackend().getService();
                    var service = objects.stream()
                            .filter(o -> o instanceof io.fabric8.kubernetes.api.model.Service
                                    && o.getMetadata().getName().equals(backend.getName()))
                            .map(o -> (io.fabric8.kubernetes.api.model.Service) o)
                            .findFirst()
                            .orElseThrow(() -> new AssertionError(overlay + ": Ingress "
                                    + ingress.getMetadata().getName() + " names no Service " + backend.getName()));
                    assertTrue(
                            service.getSpec().getPorts().stream()
                                    .anyMatch(p ->
                                            p.getName().equals(backend.getPort().getName())),
                            overlay + ": Service " + backend.getName() + " has no port "
                                    + backend.getPort().getName());
                    backends++;
                }
            }
        }
        assertTrue(backends > 0, overlay + ": the dashboard's Ingress");
        for (HasMetadata object : objects) {
            if (object instanceof io.fabric8.kubernetes.api.model.networking.v1.Ingress ingress) {
                assertEquals(
                        "HTTPS",
                        ingress.getMetadata().getAnnotations().get("nginx.ingress.kubernetes.io/backend-protocol"),
                        overlay + ": the Ingress reaches the scheduler over HTTPS");
            }
        }
    }

    /** Walks a model object and reports every field that landed in additionalProperties (an unknown field). */
    private static void unknownFields(Object value, String path, List<String> unknown, int depth) {
        if (value == null || depth > 30) {
            return;
        }
        if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                unknownFields(list.get(i), path + "[" + i + "]", unknown, depth + 1);
            }
            return;
        }
        if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                unknownFields(e.getValue(), path + "." + e.getKey(), unknown, depth + 1);
            }
            return;
        }
        if (!(value instanceof KubernetesResource)
                && !value.getClass().getName().startsWith("io.fabric8")) {
            return;
        }
        for (Method getter : value.getClass().getMethods()) {
            if (getter.getParameterCount() != 0
                    || !getter.getName().startsWith("get")
                    || getter.getName().equals("getClass")) {
                continue;
            }
            Object field;
            try {
                field = getter.invoke(value);
            } catch (ReflectiveOperationException e) {
                continue;
            }
            if (getter.getName().equals("getAdditionalProperties")) {
                if (field instanceof Map<?, ?> extra && !extra.isEmpty()) {
                    unknown.add(path + ": " + extra.keySet());
                }
            } else if (!(field instanceof IntOrString) && !(field instanceof String)) {
                unknownFields(field, path + "." + getter.getName().substring(3), unknown, depth + 1);
            }
        }
    }

    private static void check(List<HasMetadata> objects, String overlay) throws IOException {
        checkWorkersHostAGame(objects, overlay);
        checkIngressesReachAService(objects, overlay);
        Set<String> configMaps = names(objects, "ConfigMap");
        Set<String> secrets = names(objects, "Secret");
        secrets.addAll(certificates(objects).keySet());
        Map<String, PodTemplateSpec> workloads = new LinkedHashMap<>();
        for (HasMetadata object : objects) {
            if (object instanceof Deployment d) {
                assertEquals(
                        d.getSpec().getSelector().getMatchLabels(),
                        subset(
                                d.getSpec().getTemplate().getMetadata().getLabels(),
                                d.getSpec().getSelector().getMatchLabels()),
                        overlay + ": Deployment " + d.getMetadata().getName() + " selects its own pods");
                workloads.put(
                        "Deployment/" + d.getMetadata().getName(), d.getSpec().getTemplate());
            } else if (object instanceof StatefulSet s) {
                assertEquals(
                        s.getSpec().getSelector().getMatchLabels(),
                        subset(
                                s.getSpec().getTemplate().getMetadata().getLabels(),
                                s.getSpec().getSelector().getMatchLabels()));
                assertTrue(
                        names(objects, "Service").contains(s.getSpec().getServiceName()), "the StatefulSet's service");
                workloads.put(
                        "StatefulSet/" + s.getMetadata().getName(), s.getSpec().getTemplate());
            } else if (object instanceof Job j) {
                workloads.put("Job/" + j.getMetadata().getName(), j.getSpec().getTemplate());
            }
        }
        for (Map.Entry<String, PodTemplateSpec> workload : workloads.entrySet()) {
            String where = overlay + ": " + workload.getKey();
            var pod = workload.getValue().getSpec();
            for (Volume volume : pod.getVolumes()) {
                if (volume.getConfigMap() != null) {
                    assertTrue(
                            configMaps.contains(volume.getConfigMap().getName()),
                            where + " mounts ConfigMap " + volume.getConfigMap().getName());
                }
                if (volume.getSecret() != null) {
                    assertTrue(
                            secrets.contains(volume.getSecret().getSecretName()),
                            where + " mounts Secret " + volume.getSecret().getSecretName());
                    assertTrue(
                            secretKeys(objects, volume.getSecret().getSecretName())
                                    .containsAll(volume.getSecret().getItems().stream()
                                            .map(i -> i.getKey())
                                            .toList()),
                            where + " mounts keys its Secret has");
                }
            }
            for (Container container : pod.getContainers()) {
                var requests = container.getResources() == null
                        ? null
                        : container.getResources().getRequests();
                assertTrue(
                        requests != null && requests.containsKey("cpu") && requests.containsKey("memory"),
                        where + ": container " + container.getName() + " requests CPU and memory");
                for (Probe probe : Stream.of(container.getReadinessProbe(), container.getLivenessProbe())
                        .filter(p -> p != null)
                        .toList()) {
                    IntOrString port = probe.getHttpGet() != null
                            ? probe.getHttpGet().getPort()
                            : probe.getTcpSocket().getPort();
                    if (probe.getHttpGet() != null) {
                        assertEquals("HTTPS", probe.getHttpGet().getScheme(), where + ": probes speak HTTPS");
                    }
                    assertTrue(hasPort(container, port), where + ": a probe on port " + port + " the container has");
                }
                checkUnprivileged(pod, container, where + ": container " + container.getName());
                if (SERVICES.containsKey(container.getName())) {
                    checkAgainstService(container, SERVICES.get(container.getName()), where);
                    checkLockedDown(pod, container, where);
                    if (overlay.equals("production")) {
                        assertEquals("true", env(container).get("TAIKAI_TLS_REQUIRED"), where + ": refuses plaintext");
                    }
                }
            }
        }
        for (HasMetadata object : objects) {
            if (object instanceof Service service) {
                List<PodTemplateSpec> selected = workloads.values().stream()
                        .filter(t -> t.getMetadata()
                                .getLabels()
                                .entrySet()
                                .containsAll(service.getSpec().getSelector().entrySet()))
                        .toList();
                assertTrue(
                        !selected.isEmpty(),
                        overlay + ": Service " + service.getMetadata().getName() + " selects pods");
                for (ServicePort port : service.getSpec().getPorts()) {
                    IntOrString target =
                            port.getTargetPort() != null ? port.getTargetPort() : new IntOrString(port.getPort());
                    for (PodTemplateSpec t : selected) {
                        assertTrue(
                                t.getSpec().getContainers().stream().anyMatch(c -> hasPort(c, target)),
                                overlay + ": Service " + service.getMetadata().getName() + " port " + target);
                    }
                }
            } else if (object instanceof PodDisruptionBudget pdb) {
                assertTrue(
                        workloads.values().stream()
                                .anyMatch(t -> t.getMetadata()
                                        .getLabels()
                                        .entrySet()
                                        .containsAll(pdb.getSpec()
                                                .getSelector()
                                                .getMatchLabels()
                                                .entrySet())),
                        overlay + ": PDB " + pdb.getMetadata().getName() + " selects pods");
            } else if (object instanceof HorizontalPodAutoscaler hpa) {
                var target = hpa.getSpec().getScaleTargetRef();
                assertTrue(workloads.containsKey(target.getKind() + "/" + target.getName()), overlay + ": HPA target");
                Set<String> served = adapterMetrics();
                for (var metric : hpa.getSpec().getMetrics()) {
                    if (metric.getExternal() != null) {
                        String name = metric.getExternal().getMetric().getName();
                        assertTrue(
                                served.contains(name),
                                overlay + ": the HPA's external metric " + name + " is served by " + ADAPTER_VALUES);
                    }
                }
            }
        }
        checkServiceMonitors(objects, workloads, secrets, overlay);
        checkCertificates(objects, workloads, overlay);
        checkNetworkPolicies(objects, workloads, overlay);
        checkKafkaTopicsJob(objects, overlay);
    }

    /**
     * One ServiceMonitor per Taikai service scrapes its metrics port over HTTPS, trusting the CA of a
     * certificate Secret and expecting a host name the service's certificate has, with a token that exists.
     */
    private static void checkServiceMonitors(
            List<HasMetadata> objects, Map<String, PodTemplateSpec> workloads, Set<String> secrets, String overlay) {
        Set<String> scraped = new HashSet<>();
        for (HasMetadata object : objects) {
            if (!(object instanceof GenericKubernetesResource monitor
                    && monitor.getKind().equals("ServiceMonitor"))) {
                continue;
            }
            String where = overlay + ": ServiceMonitor " + monitor.getMetadata().getName();
            Map<String, Object> spec = spec(monitor);
            Map<String, String> matchLabels = strings(map(spec, "selector", "matchLabels"));
            List<Service> services = services(objects).stream()
                    .filter(s -> s.getMetadata().getLabels() != null
                            && s.getMetadata().getLabels().entrySet().containsAll(matchLabels.entrySet()))
                    .toList();
            assertEquals(1, services.size(), where + " scrapes one service");
            Service service = services.get(0);
            assertTrue(scraped.add(service.getMetadata().getName()), where + ": scraped once");
            @SuppressWarnings("unchecked")
            var endpoints = (List<Map<String, Object>>) spec.get("endpoints");
            for (Map<String, Object> endpoint : endpoints) {
                String port = (String) endpoint.get("port");
                assertTrue(
                        service.getSpec().getPorts().stream().anyMatch(p -> port.equals(p.getName())),
                        where + ": port " + port + " on Service "
                                + service.getMetadata().getName());
                assertEquals("https", endpoint.get("scheme"), where + ": scrapes over HTTPS");
                Map<String, Object> ca = map(endpoint, "tlsConfig", "ca", "secret");
                assertTrue(certificates(objects).containsKey((String) ca.get("name")), where + ": the CA's Secret");
                assertEquals("ca.crt", ca.get("key"), where + ": the CA's key");
                String serverName = (String) map(endpoint, "tlsConfig").get("serverName");
                assertTrue(
                        covers(serverCertificate(objects, workloads, service, overlay), serverName),
                        where + ": " + serverName + " is a name of the service's certificate");
                Map<String, Object> credentials = map(endpoint, "authorization", "credentials");
                assertTrue(secrets.contains((String) credentials.get("name")), where + ": the scrape token's Secret");
                assertTrue(secretKeys(objects, (String) credentials.get("name"))
                        .contains((String) credentials.get("key")));
            }
        }
        Set<String> withMetrics = new HashSet<>();
        services(objects).stream()
                .filter(s -> s.getMetadata().getLabels() != null
                        && "true".equals(s.getMetadata().getLabels().get("taikai.dev/metrics")))
                .forEach(s -> withMetrics.add(s.getMetadata().getName()));
        assertEquals(3, withMetrics.size(), overlay + ": the three services have metrics");
        assertEquals(withMetrics, scraped, overlay + ": the ServiceMonitors scrape the three services");
    }

    /**
     * cert-manager: every Certificate comes from an Issuer of the render as an ECDSA key in PKCS#8; the CA's
     * is the dev overlay's own, the others carry a Taikai identity (CN=name,OU=role,O=Taikai). Every container
     * mounts exactly the one certificate of its role, a Taikai service whole (so that renewals reach it) where
     * TAIKAI_TLS_DIR says; every host name a client dials is one its server's certificate has.
     */
    private static void checkCertificates(
            List<HasMetadata> objects, Map<String, PodTemplateSpec> workloads, String overlay) {
        Map<String, Map<String, Object>> certificates = certificates(objects);
        Map<String, Map<String, Object>> issuers = new HashMap<>();
        for (HasMetadata object : objects) {
            if (object instanceof GenericKubernetesResource issuer
                    && issuer.getKind().equals("Issuer")) {
                issuers.put(issuer.getMetadata().getName(), spec(issuer));
            }
        }
        Set<String> caSecrets = new HashSet<>();
        issuers.values().stream()
                .filter(i -> i.containsKey("ca"))
                .forEach(i -> caSecrets.add((String) map(i, "ca").get("secretName")));
        assertEquals(Set.of("taikai-ca"), caSecrets, overlay + ": one CA Issuer, with the Secret taikai-ca");
        Set<String> mounted = new HashSet<>();
        for (Map.Entry<String, PodTemplateSpec> workload : workloads.entrySet()) {
            var pod = workload.getValue().getSpec();
            for (Container container : pod.getContainers()) {
                String where = overlay + ": " + workload.getKey() + " " + container.getName();
                List<io.fabric8.kubernetes.api.model.VolumeMount> tls = container.getVolumeMounts().stream()
                        .filter(m -> certificateSecret(pod, m.getName(), certificates.keySet()) != null)
                        .toList();
                assertEquals(1, tls.size(), where + " mounts one certificate");
                var mount = tls.get(0);
                String secret = certificateSecret(pod, mount.getName(), certificates.keySet());
                mounted.add(secret);
                assertEquals(
                        List.of(ROLES.get(container.getName())),
                        map(certificates.get(secret), "subject").get("organizationalUnits"),
                        where + ": the certificate of its role");
                assertEquals(null, mount.getSubPath(), where + ": the Secret mounted whole, not by subPath");
                if (SERVICES.containsKey(container.getName())) {
                    assertEquals(
                            mount.getMountPath(), env(container).get("TAIKAI_TLS_DIR"), where + ": TAIKAI_TLS_DIR");
                    Volume volume = pod.getVolumes().stream()
                            .filter(v -> v.getName().equals(mount.getName()))
                            .findFirst()
                            .orElseThrow();
                    assertTrue(
                            volume.getSecret().getItems() == null
                                    || volume.getSecret().getItems().isEmpty(),
                            where + ": every file of the Secret");
                }
                if (container.getName().equals("kafka")) {
                    checkKafkaBroker(container, mount.getMountPath(), where);
                    checkCertificateReload(pod.getContainers(), container, where);
                }
            }
        }
        for (Map.Entry<String, Map<String, Object>> certificate : certificates.entrySet()) {
            Map<String, Object> spec = certificate.getValue();
            String where = overlay + ": Certificate of " + certificate.getKey();
            Map<String, Object> issuerRef = map(spec, "issuerRef");
            assertEquals("Issuer", issuerRef.get("kind"), where);
            assertTrue(issuers.containsKey((String) issuerRef.get("name")), where + ": its Issuer is in the render");
            assertEquals(
                    Map.of("algorithm", "ECDSA", "size", 256, "encoding", "PKCS8"),
                    map(spec, "privateKey"),
                    where + ": an ECDSA key in PKCS#8, as the services read it");
            if (Boolean.TRUE.equals(spec.get("isCA"))) {
                assertTrue(caSecrets.contains(certificate.getKey()), where + ": the CA Issuer's");
                assertTrue(issuers.get((String) issuerRef.get("name")).containsKey("selfSigned"), where);
                continue;
            }
            assertEquals("taikai", issuerRef.get("name"), where + ": signed by the Taikai CA");
            assertTrue(mounted.contains(certificate.getKey()), where + ": mounted by the pods it is for");
            String name = (String) spec.get("commonName");
            assertTrue(name != null && name.matches("[a-z0-9-]+"), where + ": a common name");
            assertEquals(List.of("Taikai"), map(spec, "subject").get("organizations"), where);
            assertEquals(
                    Set.of("organizations", "organizationalUnits"),
                    map(spec, "subject").keySet(),
                    where + ": nothing else in the subject, which must read CN=<name>,OU=<role>,O=Taikai");
        }
        boolean ownCa = certificates.values().stream().anyMatch(c -> Boolean.TRUE.equals(c.get("isCA")));
        assertEquals(overlay.equals("dev"), ownCa, overlay + ": a CA of its own only in dev");
        // every name the pods are addressed by
        for (Service service : services(objects)) {
            String name = service.getMetadata().getName();
            String namespace = service.getMetadata().getNamespace();
            List<String> hosts = new ArrayList<>();
            for (String suffix : List.of("", "." + namespace + ".svc", "." + namespace + ".svc.cluster.local")) {
                hosts.add(name + suffix);
                if ("None".equals(service.getSpec().getClusterIP())) {
                    hosts.add("a-b-c-d." + name + suffix); // a pod of a headless service
                }
            }
            for (String host : hosts) {
                assertTrue(
                        covers(serverCertificate(objects, workloads, service, overlay), host),
                        overlay + ": the certificate behind Service " + name + " names " + host);
            }
        }
        List<String> dialed = new ArrayList<>();
        Pattern flags = Pattern.compile("(?:--bootstrap-server |https://)([a-z0-9.-]+):\\d+");
        for (Map.Entry<String, PodTemplateSpec> workload : workloads.entrySet()) {
            for (Container container : workload.getValue().getSpec().getContainers()) {
                Map<String, String> env = env(container);
                for (String variable : List.of(
                        "TAIKAI_KAFKA_BOOTSTRAP_SERVERS", "TAIKAI_REFEREE_WORKERS", "KAFKA_CONTROLLER_QUORUM_VOTERS")) {
                    for (String server : env.getOrDefault(variable, "").split(",")) {
                        if (!server.isBlank()) {
                            dialed.add(server.replaceAll("^\\d+@", "").replaceAll(":\\d+$", ""));
                        }
                    }
                }
                Matcher m = flags.matcher(String.join(" ", list(container.getCommand())));
                while (m.find()) {
                    dialed.add(m.group(1));
                }
            }
        }
        for (HasMetadata object : objects) {
            if (object instanceof StatefulSet s && s.getMetadata().getName().equals("kafka")) {
                String command = String.join(
                        " ",
                        s.getSpec()
                                .getTemplate()
                                .getSpec()
                                .getContainers()
                                .get(0)
                                .getCommand());
                assertTrue(
                        command.contains("BROKER://${HOSTNAME}." + s.getSpec().getServiceName() + ":9092"),
                        overlay + ": Kafka advertises its pod's name");
                for (int i = 0; i < s.getSpec().getReplicas(); i++) {
                    dialed.add("kafka-" + i + "." + s.getSpec().getServiceName());
                }
            }
        }
        assertTrue(
                dialed.containsAll(List.of("kafka", "engine-worker-headless", "scheduler")), overlay + ": " + dialed);
        for (String host : dialed) {
            Service service = services(objects).stream()
                    .filter(s -> s.getMetadata().getName().equals(host.split("\\.")[0])
                            || (host.contains(".") && s.getMetadata().getName().equals(host.split("\\.")[1])))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(overlay + ": no Service behind " + host));
            assertTrue(
                    covers(serverCertificate(objects, workloads, service, overlay), host),
                    overlay + ": a client dials " + host + ", which its server's certificate must name");
        }
    }

    /**
     * The broker speaks only TLS on both listeners (none named SSL, which the image's run script takes for
     * JKS), requires a client certificate, maps it to its role and enforces the ACLs of {@link KafkaAcls}.
     */
    private static void checkKafkaBroker(Container kafka, String certificates, String where) {
        Map<String, String> env = env(kafka);
        Set<String> listeners = new HashSet<>();
        for (String listener : env.get("KAFKA_LISTENERS").split(",")) {
            listeners.add(listener.substring(0, listener.indexOf("://")));
        }
        assertTrue(!listeners.contains("SSL") && !listeners.contains("PLAINTEXT"), where + ": listeners " + listeners);
        Map<String, String> protocols = new HashMap<>();
        for (String entry : env.get("KAFKA_LISTENER_SECURITY_PROTOCOL_MAP").split(",")) {
            protocols.put(entry.split(":")[0], entry.split(":")[1]);
        }
        for (String listener : listeners) {
            assertEquals("SSL", protocols.get(listener), where + ": listener " + listener + " speaks TLS");
        }
        assertTrue(listeners.contains(env.get("KAFKA_INTER_BROKER_LISTENER_NAME")), where + ": inter-broker listener");
        assertEquals("required", env.get("KAFKA_SSL_CLIENT_AUTH"), where);
        assertEquals("PEM", env.get("KAFKA_SSL_KEYSTORE_TYPE"), where);
        assertEquals("PEM", env.get("KAFKA_SSL_TRUSTSTORE_TYPE"), where);
        assertEquals(certificates + "/ca.crt", env.get("KAFKA_SSL_TRUSTSTORE_LOCATION"), where);
        String command = String.join(" ", kafka.getCommand());
        assertTrue(
                command.contains("cat " + certificates + "/tls.key " + certificates + "/tls.crt > "
                        + env.get("KAFKA_SSL_KEYSTORE_LOCATION")),
                where + ": the key store is the key, then the certificate");
        assertEquals("org.apache.kafka.metadata.authorizer.StandardAuthorizer", env.get("KAFKA_AUTHORIZER_CLASS_NAME"));
        assertEquals("false", env.get("KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND"), where);
        assertEquals(KafkaAcls.PRINCIPAL_RULES, env.get("KAFKA_SSL_PRINCIPAL_MAPPING_RULES"), where);
        assertEquals(KafkaAcls.SUPER_USERS, env.get("KAFKA_SUPER_USERS"), where);
    }

    /**
     * Beside the broker, a container of the same image watches the same certificate folder and writes the
     * same key store, and has the broker reload the settings {@link ReloadingBroker} has the local one reload.
     */
    private static void checkCertificateReload(List<Container> containers, Container kafka, String where) {
        Container reload = containers.stream()
                .filter(c -> c.getName().equals("certificate-reload"))
                .findFirst()
                .orElseThrow(() -> new AssertionError(where + ": no certificate-reload container beside the broker"));
        assertEquals(kafka.getImage(), reload.getImage(), where + ": the broker's image (its kafka-configs.sh)");
        Map<String, String> env = env(kafka);
        String keyStore = env.get("KAFKA_SSL_KEYSTORE_LOCATION");
        String certificates = env.get("KAFKA_SSL_TRUSTSTORE_LOCATION").replaceFirst("/ca\\.crt$", "");
        String script = reload.getCommand().get(2);
        assertEquals(List.of("tls=" + certificates), assignments(script, "tls"), where);
        assertEquals(List.of("store=" + keyStore), assignments(script, "store"), where);
        Map<String, String> mounts = new HashMap<>();
        for (Container container : List.of(kafka, reload)) {
            for (var mount : container.getVolumeMounts()) {
                String other = mounts.putIfAbsent(mount.getMountPath(), mount.getName());
                assertTrue(other == null || other.equals(mount.getName()), where + ": " + mount.getMountPath());
            }
        }
        for (String path : List.of(certificates, keyStore.substring(0, keyStore.lastIndexOf('/')))) {
            assertTrue(
                    reload.getVolumeMounts().stream()
                            .anyMatch(m -> m.getMountPath().equals(path)),
                    where + ": certificate-reload mounts " + path + " as the broker does");
        }
        for (String setting : ReloadingBroker.STORE_SETTINGS) {
            assertTrue(script.contains(setting + "="), where + ": certificate-reload sets " + setting);
        }
    }

    /** The lines of {@code script} that set the shell variable {@code name}. */
    private static List<String> assignments(String script, String name) {
        return script.lines().filter(l -> l.startsWith(name + "=")).toList();
    }

    /**
     * The certificate-reload container's script, run as written but on folders of this test and a stand-in
     * for kafka-configs.sh that records its arguments: it leaves an unchanged certificate alone; after a
     * renewal it writes the key store (the key, then the certificate; its owner's only) and asks the broker
     * once, saying what the broker answered; a refused change is not asked again until the files change.
     */
    @Test
    void theBrokersCertificateReloadRunsOnceAChange() throws Exception {
        Path copy = work.resolve("k8s");
        copyTree(K8S, copy);
        Container reload = null;
        for (HasMetadata object :
                parse(run(List.of("kubectl", "kustomize", copy.resolve("base").toString())), "base")) {
            if (object instanceof StatefulSet set && set.getMetadata().getName().equals("kafka")) {
                reload = set.getSpec().getTemplate().getSpec().getContainers().stream()
                        .filter(c -> c.getName().equals("certificate-reload"))
                        .findFirst()
                        .orElseThrow();
            }
        }
        assertNotNull(reload, "the base has the kafka StatefulSet");
        Path tls = Files.createDirectories(work.resolve("tls"));
        Path stores = Files.createDirectories(work.resolve("keystore"));
        Path store = stores.resolve("keystore.pem");
        Path calls = work.resolve("calls");
        Path answer = work.resolve("answer");
        Path configs = work.resolve("kafka-configs.sh");
        Files.writeString(configs, "#!/bin/sh\necho \"$*\" >> " + calls + "\nexit $(cat " + answer + ")\n");
        configs.toFile().setExecutable(true);
        Files.writeString(answer, "0");
        Files.writeString(tls.resolve("ca.crt"), "ca\n");
        renew(tls, "1");
        Files.writeString(store, "key 1\ncertificate 1\n"); // as the broker's container writes it at start
        String script = reload.getCommand().get(2);
        for (String[] setting : new String[][] {
            {"tls", tls.toString()},
            {"store", store.toString()},
            {"configs", configs.toString()},
            {"every", "0.1"},
            {"within", "1"}
        }) {
            assertEquals(1, assignments(script, setting[0]).size(), setting[0]);
            script = script.replaceFirst("(?m)^" + setting[0] + "=.*$", setting[0] + "=" + setting[1]);
        }
        // the loop's sleep, counted: a round of the loop is a line in ticks
        Path bin = Files.createDirectories(work.resolve("bin"));
        Path ticks = work.resolve("ticks");
        Files.writeString(bin.resolve("sleep"), "#!/bin/sh\necho >> " + ticks + "\nexec /bin/sleep \"$@\"\n");
        bin.resolve("sleep").toFile().setExecutable(true);
        // keytool as it reads serial numbers: of a file (its first line here), and of what the broker serves
        // (the folder's certificate, unless the broker refuses it)
        Path refuse = work.resolve("refuse");
        Files.writeString(
                bin.resolve("keytool"),
                "#!/bin/sh\ncase \"$*\" in\n*-sslserver*) if [ -e " + refuse
                        + " ]; then echo 'Serial number: the one in use'; else echo \"Serial number: $(head -n 1 "
                        + tls.resolve("tls.crt") + ")\"; fi ;;\n*) echo \"Serial number: $(head -n 1 $3)\" ;;\nesac\n");
        bin.resolve("keytool").toFile().setExecutable(true);
        ProcessBuilder builder = new ProcessBuilder("sh", "-c", script)
                .redirectErrorStream(true)
                .redirectOutput(work.resolve("out").toFile());
        builder.environment().put("HOSTNAME", "kafka-2");
        builder.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        Process process = builder.start();
        try {
            awaitRounds(ticks, 3);
            assertEquals(List.of(), lines(calls), "nothing changed, nothing asked");
            String expected = "--bootstrap-server kafka-2.kafka-headless:9092 --command-config "
                    + stores.resolve("reload.properties")
                    + " --entity-type brokers --entity-name 3 --alter --add-config "
                    + ReloadingBroker.STORE_SETTINGS.get(0) + "=" + store + ","
                    + ReloadingBroker.STORE_SETTINGS.get(1) + "=" + tls.resolve("ca.crt");

            renew(tls, "2");
            awaitLines(calls, 1, "the broker asked once");
            assertEquals(List.of(expected), lines(calls));
            assertEquals("key 2\ncertificate 2\n", Files.readString(store));
            assertEquals(
                    "rw-------",
                    java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(store)));
            awaitLines(work.resolve("out"), 1, "said so");
            assertTrue(
                    lines(work.resolve("out")).get(0).endsWith("changed; the listeners use them for new connections"));
            awaitRounds(ticks, 3);
            assertEquals(1, lines(calls).size(), "asked once for one change");

            Files.writeString(answer, "1");
            renew(tls, "3");
            awaitLines(calls, 2, "the broker asked again");
            awaitLines(work.resolve("out"), 2, "said so");
            assertTrue(lines(work.resolve("out")).get(1).contains("the broker kept the ones in use"));
            awaitRounds(ticks, 3);
            assertEquals(2, lines(calls).size(), "a refused change is not asked again");
            Files.writeString(answer, "0");
            renew(tls, "4");
            Await.until(
                    Duration.ofSeconds(30),
                    "asked for the next change",
                    () -> lines(calls).size() >= 3);
            assertEquals(List.of(expected, expected, expected), lines(calls));
            assertEquals("key 4\ncertificate 4\n", Files.readString(store));

            // a new CA alone (the first step of a CA rotation: trust the old and the new), once too
            Files.writeString(tls.resolve("ca.crt"), "ca\nnext ca\n");
            awaitLines(calls, 4, "the broker asked for the new CA");
            awaitRounds(ticks, 3);
            assertEquals(4, lines(calls).size(), "asked once for the new CA");
            assertEquals("key 4\ncertificate 4\n", Files.readString(store));

            // Kafka answers the request, then refuses the store (a subject that changed): not said to be taken
            Files.writeString(refuse, "");
            renew(tls, "5");
            awaitLines(calls, 5, "the broker asked for the next certificate");
            awaitLines(work.resolve("out"), 5, "said so");
            assertTrue(
                    lines(work.resolve("out")).get(4).contains("and Kafka did not take them"),
                    lines(work.resolve("out")).get(4));
            assertTrue(
                    Files.readString(stores.resolve("reload.properties")).contains("ssl.keystore.location=" + store));
        } finally {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** Waits until {@code file} has exactly {@code count} lines. */
    private static void awaitLines(Path file, int count, String what) {
        Await.until(Duration.ofSeconds(30), what, () -> lines(file).size() == count);
    }

    /** Waits until the loop has gone round {@code rounds} more times. */
    private static void awaitRounds(Path ticks, int rounds) {
        int from = lines(ticks).size();
        Await.until(
                Duration.ofSeconds(30),
                rounds + " more rounds of the loop",
                () -> lines(ticks).size() >= from + rounds);
    }

    /** cert-manager's renewal of the folder's certificate, as a mounted Secret changes: both files at once. */
    private static void renew(Path tls, String generation) throws IOException {
        Path next = Files.createDirectories(tls.resolveSibling("next"));
        Files.writeString(next.resolve("tls.key"), "key " + generation + "\n");
        Files.writeString(next.resolve("tls.crt"), "certificate " + generation + "\n");
        Files.move(next.resolve("tls.key"), tls.resolve("tls.key"), StandardCopyOption.REPLACE_EXISTING);
        Files.move(next.resolve("tls.crt"), tls.resolve("tls.crt"), StandardCopyOption.REPLACE_EXISTING);
    }

    private static List<String> lines(Path file) {
        try {
            return Files.exists(file) ? Files.readAllLines(file) : List.of();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** The kafka-topics Job connects as the operator over TLS and creates exactly the ACLs of {@link KafkaAcls}. */
    private static void checkKafkaTopicsJob(List<HasMetadata> objects, String overlay) {
        Job job = objects.stream()
                .filter(o -> o instanceof Job j && j.getMetadata().getName().equals("kafka-topics"))
                .map(o -> (Job) o)
                .findFirst()
                .orElseThrow(() -> new AssertionError(overlay + ": no kafka-topics Job"));
        String script = job.getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0)
                .getCommand()
                .get(2);
        for (String setting :
                List.of("security.protocol=SSL", "ssl.keystore.type=PEM", "ssl.truststore.type=PEM", "$tls/ca.crt")) {
            assertTrue(script.contains(setting), overlay + ": the Job's client has " + setting);
        }
        Matcher definition = Pattern.compile("(?m)^acl=\"(.*)\"$").matcher(script);
        assertTrue(definition.find(), overlay + ": the Job defines $acl");
        assertTrue(
                definition.group(1).matches(".*/kafka-acls\\.sh --bootstrap-server kafka:9092 --command-config \\S+"),
                overlay + ": " + definition.group(1));
        List<String> lines = script.lines()
                .filter(l -> l.startsWith("$acl "))
                .map(l -> l.substring("$acl ".length()))
                .toList();
        assertEquals(KafkaAcls.commandLines(), lines, overlay + ": the Job's ACLs are KafkaAcls'");
    }

    /**
     * NetworkPolicies deny everything the design does not need: every pod is under a policy of each
     * direction, the flows of the design pass at both ends, the engine workers open no connection at all.
     */
    private static void checkNetworkPolicies(
            List<HasMetadata> objects, Map<String, PodTemplateSpec> workloads, String overlay) {
        List<io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy> policies = objects.stream()
                .filter(o -> o instanceof io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy)
                .map(o -> (io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy) o)
                .toList();
        String namespace = services(objects).get(0).getMetadata().getNamespace();
        Map<String, Peer> pods = new HashMap<>();
        for (PodTemplateSpec template : workloads.values()) {
            String name = template.getMetadata().getLabels().get("app.kubernetes.io/name");
            pods.put(
                    name,
                    new Peer(
                            namespace,
                            template.getMetadata().getLabels(),
                            template.getSpec().getContainers()));
            for (String type : List.of("Ingress", "Egress")) {
                assertTrue(
                        policies.stream().anyMatch(p -> types(p).contains(type) && selects(p, pods.get(name))),
                        overlay + ": pod " + name + " is under a policy of type " + type);
            }
        }
        Peer prometheus = new Peer("monitoring", Map.of("app.kubernetes.io/name", "prometheus"), List.of());
        Peer user = new Peer("ingress-nginx", Map.of("app.kubernetes.io/name", "ingress-nginx"), List.of());
        Peer dns = new Peer("kube-system", Map.of("k8s-app", "kube-dns"), List.of());
        record Flow(Peer from, Peer to, int port, String protocol) {}
        List<Flow> allowed = new ArrayList<>(List.of(
                new Flow(pods.get("referee"), pods.get("engine-worker"), 9091, "TCP"),
                new Flow(pods.get("scheduler"), pods.get("kafka"), 9092, "TCP"),
                new Flow(pods.get("referee"), pods.get("kafka"), 9092, "TCP"),
                new Flow(pods.get("kafka-topics"), pods.get("kafka"), 9092, "TCP"),
                new Flow(pods.get("kafka"), pods.get("kafka"), 9092, "TCP"),
                new Flow(pods.get("kafka"), pods.get("kafka"), 9093, "TCP"),
                new Flow(pods.get("create-tournaments"), pods.get("scheduler"), 8090, "TCP"),
                new Flow(user, pods.get("scheduler"), 8090, "TCP"),
                new Flow(user, pods.get("scheduler"), 9090, "TCP"),
                new Flow(prometheus, pods.get("scheduler"), 8090, "TCP"),
                new Flow(prometheus, pods.get("referee"), 8092, "TCP"),
                new Flow(prometheus, pods.get("engine-worker"), 8091, "TCP")));
        for (String pod : List.of("scheduler", "referee", "kafka", "kafka-topics", "create-tournaments")) {
            allowed.add(new Flow(pods.get(pod), dns, 53, "UDP"));
        }
        List<Flow> denied = List.of(
                new Flow(pods.get("engine-worker"), pods.get("kafka"), 9092, "TCP"),
                new Flow(pods.get("engine-worker"), pods.get("referee"), 9093, "TCP"),
                new Flow(pods.get("engine-worker"), dns, 53, "UDP"),
                new Flow(pods.get("scheduler"), pods.get("engine-worker"), 9091, "TCP"),
                new Flow(pods.get("referee"), pods.get("kafka"), 9093, "TCP"),
                new Flow(user, pods.get("engine-worker"), 9091, "TCP"),
                new Flow(user, pods.get("kafka"), 9092, "TCP"),
                new Flow(user, pods.get("referee"), 8092, "TCP"),
                new Flow(prometheus, pods.get("kafka"), 9092, "TCP"));
        for (Flow flow : allowed) {
            assertTrue(
                    allows(policies, flow.from(), flow.to(), flow.port(), flow.protocol()),
                    overlay + ": the policies let " + flow + " pass");
        }
        for (Flow flow : denied) {
            assertTrue(
                    !allows(policies, flow.from(), flow.to(), flow.port(), flow.protocol()),
                    overlay + ": the policies stop " + flow);
        }
        List<?> workerEgress = policies.stream()
                .filter(p -> selects(p, pods.get("engine-worker")))
                .flatMap(p -> list(p.getSpec().getEgress()).stream())
                .toList();
        assertEquals(List.of(), workerEgress, overlay + ": engine workers may open no connection (engines run there)");
    }

    /** A pod for the NetworkPolicy check: its namespace, labels and containers (for named ports). */
    private record Peer(String namespace, Map<String, String> labels, List<Container> containers) {
        @Override
        public String toString() {
            return namespace + "/" + labels.getOrDefault("app.kubernetes.io/name", labels.toString());
        }
    }

    /** Whether {@code from} may open a connection to {@code to}: its egress and the other's ingress allow it. */
    private static boolean allows(
            List<io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy> policies,
            Peer from,
            Peer to,
            int port,
            String protocol) {
        boolean egress = policies.stream()
                .filter(p -> types(p).contains("Egress") && selects(p, from))
                .map(p -> list(p.getSpec().getEgress()).stream()
                        .anyMatch(r -> admits(p, list(r.getTo()), to) && opens(list(r.getPorts()), to, port, protocol)))
                .reduce(Boolean::logicalOr)
                .orElse(true); // under no egress policy: anything goes
        boolean ingress = policies.stream()
                .filter(p -> types(p).contains("Ingress") && selects(p, to))
                .map(p -> list(p.getSpec().getIngress()).stream()
                        .anyMatch(r ->
                                admits(p, list(r.getFrom()), from) && opens(list(r.getPorts()), to, port, protocol)))
                .reduce(Boolean::logicalOr)
                .orElse(true);
        return egress && ingress;
    }

    private static Set<String> types(io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy policy) {
        return new HashSet<>(list(policy.getSpec().getPolicyTypes()));
    }

    private static boolean selects(io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy policy, Peer pod) {
        return pod.namespace().equals(policy.getMetadata().getNamespace())
                && matches(policy.getSpec().getPodSelector(), pod.labels());
    }

    /** Whether the peers of a rule (none: everyone) include {@code pod}. */
    private static boolean admits(
            io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy policy,
            List<io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer> peers,
            Peer pod) {
        if (peers.isEmpty()) {
            return true;
        }
        for (var peer : peers) {
            if (peer.getIpBlock() != null) {
                continue; // addresses, not pods
            }
            boolean namespace = peer.getNamespaceSelector() == null
                    ? pod.namespace().equals(policy.getMetadata().getNamespace())
                    : matches(peer.getNamespaceSelector(), Map.of("kubernetes.io/metadata.name", pod.namespace()));
            if (namespace && (peer.getPodSelector() == null || matches(peer.getPodSelector(), pod.labels()))) {
                return true;
            }
        }
        return false;
    }

    /** Whether the ports of a rule (none: all) include {@code port}, by number or by a container port's name. */
    private static boolean opens(
            List<io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort> ports,
            Peer to,
            int port,
            String protocol) {
        if (ports.isEmpty()) {
            return true;
        }
        for (var p : ports) {
            if (!protocol.equals(p.getProtocol() == null ? "TCP" : p.getProtocol())) {
                continue;
            }
            IntOrString number = p.getPort();
            if (number == null
                    || (number.getIntVal() != null && number.getIntVal() == port)
                    || (number.getStrVal() != null
                            && to.containers().stream()
                                    .flatMap(c -> c.getPorts().stream())
                                    .anyMatch(c ->
                                            number.getStrVal().equals(c.getName()) && c.getContainerPort() == port))) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(io.fabric8.kubernetes.api.model.LabelSelector selector, Map<String, String> labels) {
        if (selector.getMatchLabels() != null
                && !labels.entrySet().containsAll(selector.getMatchLabels().entrySet())) {
            return false;
        }
        for (var e : list(selector.getMatchExpressions())) {
            boolean has = labels.containsKey(e.getKey());
            boolean ok = switch (e.getOperator()) {
                case "In" -> has && e.getValues().contains(labels.get(e.getKey()));
                case "NotIn" -> !has || !e.getValues().contains(labels.get(e.getKey()));
                case "Exists" -> has;
                case "DoesNotExist" -> !has;
                default -> throw new AssertionError("operator " + e.getOperator());
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** The Certificates of the render: secretName -> spec. */
    private static Map<String, Map<String, Object>> certificates(List<HasMetadata> objects) {
        Map<String, Map<String, Object>> certificates = new HashMap<>();
        for (HasMetadata object : objects) {
            if (object instanceof GenericKubernetesResource c && c.getKind().equals("Certificate")) {
                Map<String, Object> spec = spec(c);
                certificates.put((String) spec.get("secretName"), spec);
            }
        }
        return certificates;
    }

    /** The host names of the certificate the pods behind {@code service} serve with. */
    private static List<String> serverCertificate(
            List<HasMetadata> objects, Map<String, PodTemplateSpec> workloads, Service service, String overlay) {
        Map<String, Map<String, Object>> certificates = certificates(objects);
        Set<String> secrets = new HashSet<>();
        for (PodTemplateSpec t : workloads.values()) {
            if (t.getMetadata()
                    .getLabels()
                    .entrySet()
                    .containsAll(service.getSpec().getSelector().entrySet())) {
                for (Volume v : t.getSpec().getVolumes()) {
                    if (certificateSecret(t.getSpec(), v.getName(), certificates.keySet()) != null) {
                        secrets.add(v.getSecret().getSecretName());
                    }
                }
            }
        }
        assertEquals(
                1,
                secrets.size(),
                overlay + ": one certificate behind Service "
                        + service.getMetadata().getName());
        @SuppressWarnings("unchecked")
        var names = (List<String>) certificates.get(secrets.iterator().next()).get("dnsNames");
        return names == null ? List.of() : names;
    }

    /** Whether a certificate's names cover {@code host} (a wildcard stands for one label). */
    private static boolean covers(List<String> names, String host) {
        return names.stream()
                .anyMatch(n -> n.equals(host)
                        || (n.startsWith("*.")
                                && host.indexOf('.') > 0
                                && host.substring(host.indexOf('.')).equals(n.substring(1))));
    }

    /** The Secret of a Certificate that a pod's volume holds, or null. */
    private static String certificateSecret(
            io.fabric8.kubernetes.api.model.PodSpec pod, String volume, Set<String> certificates) {
        return pod.getVolumes().stream()
                .filter(v -> v.getName().equals(volume) && v.getSecret() != null)
                .map(v -> v.getSecret().getSecretName())
                .filter(certificates::contains)
                .findFirst()
                .orElse(null);
    }

    private static List<Service> services(List<HasMetadata> objects) {
        return objects.stream()
                .filter(o -> o instanceof Service)
                .map(o -> (Service) o)
                .toList();
    }

    private static <T> List<T> list(List<T> list) {
        return list == null ? List.of() : list;
    }

    private static Map<String, String> env(Container container) {
        Map<String, String> env = new HashMap<>();
        container.getEnv().forEach(e -> env.put(e.getName(), e.getValue()));
        return env;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource resource) {
        return (Map<String, Object>) resource.getAdditionalProperties().get("spec");
    }

    /** The map at {@code path} under {@code map}; fails naming the path when it is missing. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Map<String, Object> map, String... path) {
        Map<String, Object> at = map;
        for (String key : path) {
            assertTrue(at != null && at.get(key) instanceof Map, "no " + String.join(".", path));
            at = (Map<String, Object>) at.get(key);
        }
        return at;
    }

    private static Map<String, String> strings(Map<String, Object> map) {
        Map<String, String> strings = new HashMap<>();
        map.forEach((k, v) -> strings.put(k, String.valueOf(v)));
        return strings;
    }

    /**
     * A game needs two engine slots: the engine workers at their smallest (the autoscaler's minimum, or the
     * replicas when nothing scales them) have at least two, so that every overlay plays at once.
     */
    private static void checkWorkersHostAGame(List<HasMetadata> objects, String overlay) {
        Deployment workers = objects.stream()
                .filter(o ->
                        o instanceof Deployment d && d.getMetadata().getName().equals("engine-worker"))
                .map(o -> (Deployment) o)
                .findFirst()
                .orElseThrow(() -> new AssertionError(overlay + ": no engine-worker Deployment"));
        int slots = workers.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                .filter(e -> e.getName().equals("TAIKAI_WORKER_SLOTS"))
                .map(e -> Integer.parseInt(e.getValue()))
                .findFirst()
                .orElseThrow(() -> new AssertionError(overlay + ": the workers' TAIKAI_WORKER_SLOTS"));
        int smallest = objects.stream()
                .filter(o -> o instanceof HorizontalPodAutoscaler h
                        && h.getSpec().getScaleTargetRef().getName().equals("engine-worker"))
                .map(o -> ((HorizontalPodAutoscaler) o).getSpec().getMinReplicas())
                .findFirst()
                .orElse(workers.getSpec().getReplicas());
        assertTrue(
                smallest * slots >= 2,
                overlay + ": " + smallest + " engine worker(s) of " + slots + " slot(s) at the smallest cannot host a"
                        + " game (it needs two engine slots)");
    }

    /**
     * The container's ports are the service's HTTP and gRPC ports, and every TAIKAI_* variable it sets is a
     * configuration key the service reads (its application.properties, its @ConfigProperty names, and the
     * access module's).
     */
    private static void checkAgainstService(Container container, String module, String where) throws IOException {
        Map<String, String> properties =
                properties(ROOT.resolve(module).resolve("src/main/resources/application.properties"));
        Set<Integer> ports = new HashSet<>();
        for (ContainerPort port : container.getPorts()) {
            ports.add(port.getContainerPort());
        }
        assertEquals(
                Set.of(
                        Integer.parseInt(properties.get("quarkus.http.port")),
                        Integer.parseInt(properties.get("quarkus.grpc.server.port"))),
                ports,
                where + ": the ports " + module + " listens on");
        Set<String> keys = new HashSet<>(properties.keySet());
        keys.addAll(configPropertyNames(ROOT.resolve(module).resolve("src/main/java")));
        keys.addAll(configPropertyNames(ROOT.resolve("access/src/main/java")));
        Map<String, String> byVariable = new HashMap<>();
        for (String key : keys) {
            byVariable.put(key.toUpperCase(java.util.Locale.ROOT).replaceAll("[^A-Z0-9]", "_"), key);
        }
        for (var env : container.getEnv()) {
            if (env.getName().startsWith("TAIKAI_")) {
                assertTrue(
                        byVariable.containsKey(env.getName()),
                        where + ": " + env.getName() + " is no key " + module + " reads");
            }
        }
    }

    /**
     * Every container, Taikai's or not (the broker, the Jobs that hold the operator's certificate and the
     * admin token), runs as a user that is not root, under the runtime's seccomp profile, with no privilege
     * to gain and no capability.
     */
    private static void checkUnprivileged(
            io.fabric8.kubernetes.api.model.PodSpec pod, Container container, String where) {
        var podSecurity = pod.getSecurityContext();
        assertTrue(podSecurity != null && Boolean.TRUE.equals(podSecurity.getRunAsNonRoot()), where + ": runAsNonRoot");
        assertTrue(
                podSecurity.getRunAsUser() != null && podSecurity.getRunAsUser() != 0L,
                where + ": a numeric user that is not root (runAsNonRoot cannot check a user name)");
        assertTrue(
                podSecurity.getSeccompProfile() != null
                        && "RuntimeDefault"
                                .equals(podSecurity.getSeccompProfile().getType()),
                where + ": the runtime's seccomp profile");
        var security = container.getSecurityContext();
        assertTrue(security != null, where + ": a container securityContext");
        assertEquals(Boolean.FALSE, security.getAllowPrivilegeEscalation(), where + ": no privilege escalation");
        assertEquals(List.of("ALL"), security.getCapabilities().getDrop(), where + ": every capability dropped");
    }

    /**
     * A Taikai container runs as the image's non-root user, can gain no privilege, has no capability, and
     * writes nowhere but /tmp, an emptyDir of bounded size (where engines get their scratch directories).
     */
    private static void checkLockedDown(io.fabric8.kubernetes.api.model.PodSpec pod, Container container, String where)
            throws IOException {
        var podSecurity = pod.getSecurityContext();
        assertTrue(podSecurity != null && Boolean.TRUE.equals(podSecurity.getRunAsNonRoot()), where + ": runAsNonRoot");
        String dockerfile =
                Files.readString(ROOT.resolve("deploy/docker/" + SERVICES.get(container.getName()) + ".Dockerfile"));
        assertTrue(
                dockerfile.contains("\nUSER " + podSecurity.getRunAsUser() + "\n"),
                where + ": runs as the image's user " + podSecurity.getRunAsUser());
        assertNotEquals(0L, podSecurity.getRunAsUser(), where + ": not root");
        var security = container.getSecurityContext();
        assertTrue(security != null, where + ": a container securityContext");
        assertEquals(Boolean.TRUE, security.getReadOnlyRootFilesystem(), where + ": read-only root filesystem");
        assertEquals(Boolean.FALSE, security.getAllowPrivilegeEscalation(), where + ": no privilege escalation");
        assertEquals(List.of("ALL"), security.getCapabilities().getDrop(), where + ": every capability dropped");
        var tmp = container.getVolumeMounts().stream()
                .filter(m -> m.getMountPath().equals("/tmp"))
                .findFirst()
                .orElseThrow(() -> new AssertionError(where + ": /tmp is mounted"));
        Volume volume = pod.getVolumes().stream()
                .filter(v -> v.getName().equals(tmp.getName()))
                .findFirst()
                .orElseThrow();
        assertTrue(
                volume.getEmptyDir() != null && volume.getEmptyDir().getSizeLimit() != null,
                where + ": /tmp is an emptyDir with a size limit");
    }

    private static Set<String> configPropertyNames(Path sources) throws IOException {
        Set<String> names = new HashSet<>();
        Pattern property = Pattern.compile("@ConfigProperty\\(\\s*name\\s*=\\s*\"([^\"]+)\"");
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                Matcher m = property.matcher(Files.readString(file));
                while (m.find()) {
                    names.add(m.group(1));
                }
            }
        }
        return names;
    }

    private static Map<String, String> properties(Path file) throws IOException {
        Map<String, String> properties = new HashMap<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            int eq = line.indexOf('=');
            if (!line.startsWith("#") && eq > 0) {
                properties.put(
                        line.substring(0, eq).strip(), line.substring(eq + 1).strip());
            }
        }
        return properties;
    }

    @Test
    void everyImageTheManifestsNameHasADockerfileForThatService() throws IOException {
        String manifests;
        try (Stream<Path> files = Files.list(K8S.resolve("base"))) {
            StringBuilder all = new StringBuilder();
            for (Path f : files.filter(f -> f.toString().endsWith(".yaml")).toList()) {
                all.append(Files.readString(f));
            }
            manifests = all.toString();
        }
        Matcher images = Pattern.compile("image: taikai/([a-z-]+):").matcher(manifests);
        Set<String> modules = new HashSet<>();
        while (images.find()) {
            modules.add(images.group(1));
        }
        assertEquals(Set.copyOf(SERVICES.values()), modules, "one image per service");
        for (String module : modules) {
            String dockerfile = Files.readString(ROOT.resolve("deploy/docker/" + module + ".Dockerfile"));
            Map<String, String> properties =
                    properties(ROOT.resolve(module).resolve("src/main/resources/application.properties"));
            assertTrue(
                    dockerfile.contains("EXPOSE " + properties.get("quarkus.http.port") + " "
                            + properties.get("quarkus.grpc.server.port")),
                    module + ": the image exposes the service's ports");
            assertTrue(dockerfile.contains("COPY --chown=1001:1001 " + module + "/target/quarkus-app/ /app/"), module);
            assertTrue(dockerfile.contains("openjdk-17-jre-headless"), module + ": a Java 17 runtime");
        }
        String worker = Files.readString(ROOT.resolve("deploy/docker/engine-worker.Dockerfile"));
        String installed = worker.lines()
                .filter(line -> line.contains("apt-get install"))
                .findFirst()
                .orElseThrow();
        for (var engine : dev.taikai.enginehost.catalog.Catalog.builtIn().engines()) {
            assertTrue(
                    installed.contains(" " + engine.command().get(0) + " "),
                    "the worker image carries the built-in engine " + engine.id() + ": " + installed);
        }
        assertTrue(installed.contains(" util-linux"), "and the tools engines start with: " + installed);
        // an engine's orphans are adopted by the container's first process, which must reap them
        assertTrue(installed.contains(" tini "), "and an init that reaps: " + installed);
        assertTrue(
                worker.contains("\nENTRYPOINT [\"/usr/bin/tini\", \"--\", \"java\","),
                "the worker's JVM runs under tini, not as the container's first process");
    }

    @Test
    void theTournamentsTheManifestsCreateAreValidAndNameCatalogEngines() throws Exception {
        var catalog = dev.taikai.enginehost.catalog.BuiltinCatalog.get()
                .with(dev.taikai.enginehost.catalog.Catalog.read(K8S.resolve("base/catalog.yaml")));
        Set<String> engines = new HashSet<>();
        catalog.engines().forEach(e -> engines.add(e.id()));
        List<Path> specs;
        try (Stream<Path> files = Files.list(K8S.resolve("base/tournaments"))) {
            specs = files.filter(f -> f.toString().endsWith(".json")).sorted().toList();
        }
        assertTrue(!specs.isEmpty(), "a tournament to create");
        for (Path file : specs) {
            var spec = dev.taikai.proto.tournament.v1.TournamentSpec.newBuilder();
            com.google.protobuf.util.JsonFormat.parser().merge(Files.readString(file), spec);
            dev.taikai.tournament.messages.TournamentMessages.spec(spec.build(), 16); // throws naming the field
            for (var entrant : spec.getEntrantsList()) {
                assertTrue(
                        engines.contains(entrant.getEngineId()),
                        file + ": " + entrant.getEngineId() + " in the catalog");
            }
        }
    }

    @Test
    void graceOutlastsTheDrain() throws Exception {
        for (String file : List.of("referee.yaml", "engine-worker.yaml")) {
            String yaml = Files.readString(K8S.resolve("base/" + file));
            Matcher grace =
                    Pattern.compile("terminationGracePeriodSeconds: (\\d+)").matcher(yaml);
            Matcher drain =
                    Pattern.compile("_DRAIN_SECONDS\\s+value: \"(\\d+)\"").matcher(yaml);
            assertTrue(grace.find() && drain.find(), file);
            assertTrue(
                    Integer.parseInt(grace.group(1)) >= Integer.parseInt(drain.group(1)) + 10,
                    file + ": the pod's grace period leaves its drain time to finish");
        }
    }

    @Test
    void theDashboardShowsOnlyDocumentedMetrics() throws IOException {
        JsonNode dashboard = new ObjectMapper()
                .readTree(K8S.resolve("base/taikai-dashboard.json").toFile());
        String documented = Files.readString(ROOT.resolve("docs/distributed.md"));
        Set<String> used = new HashSet<>();
        Set<String> titles = new HashSet<>();
        for (JsonNode panel : dashboard.get("panels")) {
            titles.add(panel.get("title").asText());
            for (JsonNode target : panel.get("targets")) {
                Matcher m = Pattern.compile("taikai_[a-z_]+")
                        .matcher(target.get("expr").asText());
                while (m.find()) {
                    used.add(m.group().replaceAll("_(total|bucket|count|sum)$", ""));
                }
            }
        }
        for (String metric : used) {
            assertTrue(documented.contains("`" + metric), metric + " is documented in docs/distributed.md");
        }
        for (String wanted :
                List.of("Games per minute", "Terminations", "Move latency", "Transport overhead", "Queue", "Engines")) {
            assertTrue(titles.stream().anyMatch(t -> t.startsWith(wanted)), "a panel: " + wanted);
        }
    }

    @Test
    void thePrometheusAdapterServesDocumentedMetricsUnderTheirOwnNames() throws IOException {
        String documented = Files.readString(ROOT.resolve("docs/distributed.md"));
        JsonNode rules = adapterRules();
        assertTrue(rules.size() > 0, "external rules in " + ADAPTER_VALUES);
        for (JsonNode rule : rules) {
            String name = rule.path("name").path("as").asText();
            assertTrue(documented.contains("`" + name + "`"), name + " is documented in docs/distributed.md");
            assertTrue(rule.path("seriesQuery").asText().startsWith(name + "{"), "the rule reads " + name + " itself");
            assertTrue(
                    rule.path("metricsQuery").asText().contains("<<.Series>>"), "the metrics query reads the series");
        }
    }

    /** The external metrics the Prometheus adapter's values give a name. */
    private static Set<String> adapterMetrics() throws IOException {
        Set<String> names = new HashSet<>();
        for (JsonNode rule : adapterRules()) {
            names.add(rule.path("name").path("as").asText());
        }
        return names;
    }

    /** The external-metric rules of the Prometheus adapter's values. */
    private static JsonNode adapterRules() throws IOException {
        return new YAMLMapper()
                .readTree(K8S.resolve(ADAPTER_VALUES).toFile())
                .path("rules")
                .path("external");
    }

    private static Map<String, String> subset(Map<String, String> labels, Map<String, String> wanted) {
        Map<String, String> found = new HashMap<>();
        wanted.keySet().forEach(k -> {
            if (labels.containsKey(k)) {
                found.put(k, labels.get(k));
            }
        });
        return found;
    }

    private static boolean hasPort(Container container, IntOrString port) {
        return container.getPorts().stream()
                .anyMatch(p -> port.getIntVal() != null
                        ? p.getContainerPort().equals(port.getIntVal())
                        : port.getStrVal().equals(p.getName()));
    }

    private static Set<String> names(List<HasMetadata> objects, String kind) {
        Set<String> names = new HashSet<>();
        objects.stream()
                .filter(o -> o.getKind().equals(kind))
                .forEach(o -> names.add(o.getMetadata().getName()));
        return names;
    }

    private static Set<String> secretKeys(List<HasMetadata> objects, String name) {
        if (certificates(objects).containsKey(name)) {
            return TLS_KEYS; // cert-manager's
        }
        for (HasMetadata o : objects) {
            if (o instanceof io.fabric8.kubernetes.api.model.Secret s
                    && s.getMetadata().getName().equals(name)) {
                return s.getData().keySet();
            }
        }
        return Set.of();
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
            fail(String.join(" ", command) + " failed:\n" + new String(output, StandardCharsets.UTF_8));
        }
        return new String(output, StandardCharsets.UTF_8);
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (file.toString().contains("/secrets")) {
                    continue; // each test makes its own
                }
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
