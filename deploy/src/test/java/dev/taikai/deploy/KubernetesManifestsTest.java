package dev.taikai.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
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
    private static final Set<String> CUSTOM_KINDS = Set.of("monitoring.coreos.com/v1/ServiceMonitor");

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
                    assertTrue(hasPort(container, port), where + ": a probe on port " + port + " the container has");
                }
                if (SERVICES.containsKey(container.getName())) {
                    checkAgainstService(container, SERVICES.get(container.getName()), where);
                    checkLockedDown(pod, container, where);
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
            } else if (object instanceof GenericKubernetesResource monitor
                    && monitor.getKind().equals("ServiceMonitor")) {
                @SuppressWarnings("unchecked")
                var endpoints = (List<Map<String, Object>>)
                        ((Map<String, Object>) monitor.getAdditionalProperties().get("spec")).get("endpoints");
                @SuppressWarnings("unchecked")
                var matchLabels = (Map<String, String>) ((Map<String, Object>) ((Map<String, Object>)
                                        monitor.getAdditionalProperties().get("spec"))
                                .get("selector"))
                        .get("matchLabels");
                List<Service> scraped = objects.stream()
                        .filter(o -> o instanceof Service)
                        .map(o -> (Service) o)
                        .filter(s -> s.getMetadata().getLabels() != null
                                && s.getMetadata().getLabels().entrySet().containsAll(matchLabels.entrySet()))
                        .toList();
                assertEquals(3, scraped.size(), overlay + ": the ServiceMonitor scrapes the three services");
                for (Map<String, Object> endpoint : endpoints) {
                    String port = (String) endpoint.get("port");
                    for (Service s : scraped) {
                        assertTrue(
                                s.getSpec().getPorts().stream().anyMatch(p -> port.equals(p.getName())),
                                overlay + ": ServiceMonitor port " + port + " on Service "
                                        + s.getMetadata().getName());
                    }
                    @SuppressWarnings("unchecked")
                    var credentials = (Map<String, Object>)
                            ((Map<String, Object>) endpoint.get("authorization")).get("credentials");
                    assertTrue(
                            secrets.contains((String) credentials.get("name")),
                            overlay + ": the scrape token's Secret");
                    assertTrue(secretKeys(objects, (String) credentials.get("name"))
                            .contains((String) credentials.get("key")));
                }
            }
        }
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
