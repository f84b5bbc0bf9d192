# The engine-worker service: the Quarkus fast-jar from engine-worker/target/quarkus-app on a Debian JRE.
# Build from the repository root after 'mvn -DskipTests package':
#   docker build -f deploy/docker/engine-worker.Dockerfile -t taikai/engine-worker:0.1.0 .
# The worker image carries the engines of the built-in catalog: Debian's fairy-stockfish (USI), crazywa and
# sjaakii (XBoard), all in /usr/games, and util-linux for setsid, setpriv and prlimit, which start every
# engine in its own limits. tini is the container's first process: it reaps what an engine left behind
# and was killed (the JVM as first process would leave each a zombie for good), and passes the JVM the
# SIGTERM that starts the worker's drain.
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends openjdk-17-jre-headless fairy-stockfish crazywa sjaakii util-linux tini \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --uid 1001 --create-home taikai
COPY --chown=1001:1001 engine-worker/target/quarkus-app/ /app/
USER 1001
EXPOSE 8091 9091
ENTRYPOINT ["/usr/bin/tini", "--", "java", "-XX:MaxRAMPercentage=70", "-XX:+ExitOnOutOfMemoryError", "-jar", "/app/quarkus-run.jar"]
