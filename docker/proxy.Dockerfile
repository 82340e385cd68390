# The shared pool's proxy: Debian bookworm's HAProxy 2.6 running
# deploy/haproxy/haproxy.cfg (README: "Shared pool behind a proxy").
#   docker build -f docker/proxy.Dockerfile -t collide-proxy .
# Clients (h2c, gRPC) on 50051; /healthz, /metrics (Prometheus) and /stats on
# 8404. COLLIDE_REPLICA_DOMAIN names the replicas' domain: slot i is
# collide-<i>.$COLLIDE_REPLICA_DOMAIN:50051.
FROM debian:bookworm-slim
ENV DEBIAN_FRONTEND=noninteractive
RUN apt-get update \
 && apt-get install -y --no-install-recommends haproxy \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/* /var/log/*
COPY deploy/haproxy/haproxy.cfg /usr/local/etc/haproxy/haproxy.cfg
# HAProxy needs no privileges here: ports above 1024, logs to stdout, no
# chroot, no pid file (-db: foreground).
USER 10001:10001
EXPOSE 50051 8404
# SIGUSR1 is HAProxy's graceful stop: listeners close, calls in flight finish.
STOPSIGNAL SIGUSR1
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8404 && printf 'GET /healthz HTTP/1.0\\r\\n\\r\\n' >&3 && grep -q ' 200 ' <&3"]
ENTRYPOINT ["/usr/sbin/haproxy", "-db", "-f", "/usr/local/etc/haproxy/haproxy.cfg"]
