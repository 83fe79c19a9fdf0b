# syntax=docker/dockerfile:1
# netpulse: one image for every netpulse service (processor, dashboard, collector, launcher).
# Build:  docker build -t netpulse .     Run:  docker run --rm netpulse --help

# --- build: the shaded jar, tests skipped (CI runs them) ---
FROM maven:3.9.11-eclipse-temurin-17 AS build
WORKDIR /src
COPY pom.xml ./
COPY common common
COPY tools tools
COPY testbed testbed
COPY collector collector
COPY processor processor
COPY dashboard dashboard
COPY holder holder
COPY launcher launcher
COPY cli-options cli-options
COPY cli cli
COPY bench bench
# The cache mount keeps ~/.m2 between builds, so a code change does not download every dependency again.
RUN --mount=type=cache,target=/root/.m2 \
    mvn -B -ntp -q -DskipTests -pl cli -am package

# --- runtime: a JRE on glibc (the jar keeps only glibc builds of RocksDB's native library) ---
FROM eclipse-temurin:17.0.16_8-jre-noble
# sysstat (sar) and iproute2 (ss): the collector agent's samplers; curl: the health checks.
RUN apt-get update \
    && apt-get install -y --no-install-recommends sysstat iproute2 curl \
    && rm -rf /var/lib/apt/lists/*
# A fixed uid so that mounted files (SSH keys, token files) can be given to it.
RUN groupadd --system --gid 10001 netpulse \
    && useradd --system --uid 10001 --gid netpulse --home-dir /var/lib/netpulse --create-home \
       --shell /usr/sbin/nologin netpulse
COPY --from=build /src/cli/target/netpulse.jar /opt/netpulse/netpulse.jar
COPY bin/netpulse /opt/netpulse/bin/netpulse
# bin/netpulse finds the jar through NETPULSE_JAR; the heap follows the container's memory limit.
ENV NETPULSE_JAR=/opt/netpulse/netpulse.jar \
    NETPULSE_JAVA_OPTS="-XX:MaxRAMPercentage=75" \
    NETPULSE_CDS=0 \
    NETPULSE_DATA_DIR=/var/lib/netpulse
USER netpulse
WORKDIR /var/lib/netpulse
ENTRYPOINT ["/opt/netpulse/bin/netpulse"]
CMD ["--help"]
