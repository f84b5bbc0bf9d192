# The referee-service service: the Quarkus fast-jar from referee-service/target/quarkus-app on a Debian JRE.
# Build from the repository root after 'mvn -DskipTests package':
#   docker build -f deploy/docker/referee-service.Dockerfile -t taikai/referee-service:0.1.0 .
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends openjdk-17-jre-headless \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --uid 1001 --create-home taikai
COPY --chown=1001:1001 referee-service/target/quarkus-app/ /app/
USER 1001
EXPOSE 8092 9093
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=70", "-XX:+ExitOnOutOfMemoryError", "-jar", "/app/quarkus-run.jar"]
