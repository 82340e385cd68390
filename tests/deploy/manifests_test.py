"""Checks the deployment files against each other and against the image.

No cluster runs here, so the Kubernetes manifests and the compose file are
parsed and their security, probe and resource fields checked, and the port,
user and health check compared with docker/Dockerfile, the single source of
truth for the image. The proxy's configuration (deploy/haproxy/haproxy.cfg)
is checked by HAProxy itself (haproxy -c) and against the manifests: its
limits, routing, server slots and the bytes of its gRPC health check.
The sidecar deployment (deploy/sidecar/: a pod, an Agones GameServer and a
Fleet of it) is checked the same way: one pod spec in all three, collide on
the pod's loopback with probes that reach it there, the game server pointed
at it. Run by ctest with /usr/bin/python3 (python3-yaml).
"""
import os
import pathlib
import re
import shutil
import subprocess
import unittest

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
SIDECAR = DEPLOY / "sidecar"
HAPROXY_CFG = DEPLOY / "haproxy" / "haproxy.cfg"


def load(path):
    with open(path) as f:
        return yaml.safe_load(f)


def load_all(path):
    """Every document of a multi-document YAML file, by kind."""
    with open(path) as f:
        return {doc["kind"]: doc for doc in yaml.safe_load_all(f)}


def dockerfile(name="Dockerfile"):
    text = (ROOT / "docker" / name).read_text()
    # Join continuation lines so each instruction is one line.
    return re.sub(r"\\\n\s*", " ", text)


def server_flags():
    """The names of collide-server's flags (ABSL_FLAG in server/)."""
    return set(server_flag_defaults())


def server_flag_defaults():
    """collide-server's flags and their default values, as written."""
    text = "".join(f.read_text() for f in sorted((ROOT / "server").rglob("*.cc")))
    return dict(re.findall(r"ABSL_FLAG\(\s*[^,]+,\s*(\w+)\s*,\s*([^,]+?)\s*,", text))


# The pair queries' measured peak resident set under 2x overload of maximal
# batches with the default flags (docs/operations.md, "Memory": "peak 404 MB").
PAIR_QUERY_PEAK_BYTES = 404 * 10**6

MEMORY_UNITS = {"Mi": 2**20, "Gi": 2**30, "M": 2**20, "G": 2**30}


def memory_bytes(text):
    """A container memory limit ("512Mi" in Kubernetes, "512M" in compose, both binary) in bytes."""
    number, unit = re.fullmatch(r"(\d+)([A-Za-z]*)", text).groups()
    return int(number) * MEMORY_UNITS[unit]


def assert_worlds_fit(test, env, limit):
    """The world budget is set and fits the limit beside the pair queries' peak."""
    budget = int(env["COLLIDE_WORLD_MEMORY_BUDGET_BYTES"])
    test.assertGreater(budget, 0)
    test.assertLessEqual(PAIR_QUERY_PEAK_BYTES + budget, memory_bytes(limit),
                         "the world budget and the pair queries' peak pass the container's limit")


def env_flag(name):
    """COLLIDE_WORKER_THREADS -> worker_threads (how the server reads its environment)."""
    return name[len("COLLIDE_"):].lower() if name.startswith("COLLIDE_") else None


class DockerfileFacts:
    def __init__(self):
        text = dockerfile()
        stages = re.split(r"^FROM ", text, flags=re.M)
        self.runtime = stages[-1]
        self.runtime_base = self.runtime.split()[0]
        self.port = int(re.search(r"^EXPOSE (\d+)", self.runtime, re.M).group(1))
        self.uid = int(re.search(r"^USER (\d+)", self.runtime, re.M).group(1))
        self.healthcheck = re.search(r"^HEALTHCHECK .*", self.runtime, re.M).group(0)
        self.entrypoint = re.search(r"^ENTRYPOINT (.*)", self.runtime, re.M).group(1)
        self.env_port = int(re.search(r"COLLIDE_PORT=(\d+)", self.runtime).group(1))
        self.env_host = re.search(r"^ENV .*COLLIDE_HOST=(\S+)", self.runtime, re.M).group(1)
        insecure = re.search(r"^ENV .*COLLIDE_INSECURE=(\S+)", self.runtime, re.M)
        self.env_insecure = insecure.group(1) if insecure else None
        self.env_names = re.findall(r"(COLLIDE_\w+)=", " ".join(re.findall(r"^ENV .*", self.runtime, re.M)))


class DockerfileTest(unittest.TestCase):
    def test_runtime_stage(self):
        d = DockerfileFacts()
        self.assertEqual(d.runtime_base, "debian:bookworm-slim")
        self.assertNotEqual(d.uid, 0, "must not run as root")
        self.assertIn("collide health", d.healthcheck)
        self.assertIn("tini", d.entrypoint, "tini must be PID 1 to reap and forward signals")
        self.assertEqual(d.port, d.env_port)
        self.assertNotIn("-dev", d.runtime, "runtime stage carries no -dev packages")

    def test_env_names_are_server_flags(self):
        flags = server_flags()
        self.assertIn("port", flags)  # the pattern finds the flags at all
        for name in DockerfileFacts().env_names:
            self.assertIn(env_flag(name), flags, name)

    def test_plaintext_beyond_loopback_is_explicit(self):
        # collide-server refuses plaintext on a non-loopback host without it.
        d = DockerfileFacts()
        if d.env_host not in ("127.0.0.1", "localhost", "::1"):
            self.assertEqual(d.env_insecure, "true")


class KubernetesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.docker = DockerfileFacts()
        cls.statefulset = load(K8S / "statefulset.yaml")
        cls.service = load(K8S / "service.yaml")
        cls.hpa = load(K8S / "hpa.yaml")
        cls.pdb = load(K8S / "pdb.yaml")
        cls.pod = cls.statefulset["spec"]["template"]["spec"]
        (cls.container,) = cls.pod["containers"]

    def test_kustomization_lists_every_manifest(self):
        kustomization = load(DEPLOY / "kustomization.yaml")
        listed = set(kustomization["resources"])
        present = {f"k8s/{p.name}" for p in K8S.glob("*.yaml")}
        self.assertEqual(listed, present)
        (generator,) = kustomization["configMapGenerator"]
        self.assertEqual(generator["files"], ["haproxy/haproxy.cfg"])
        self.assertTrue((DEPLOY / generator["files"][0]).is_file())

    def test_port_matches_image(self):
        ports = {p["name"]: p["containerPort"] for p in self.container["ports"]}
        self.assertEqual(ports["grpc"], self.docker.port)
        env = {e["name"]: e["value"] for e in self.container["env"]}
        flags = server_flags()
        for name in env:
            self.assertIn(env_flag(name), flags, name)
        self.assertEqual(int(env["COLLIDE_PORT"]), self.docker.port)
        self.assertEqual(env["COLLIDE_HOST"], "0.0.0.0", "pods must listen beyond loopback")
        self.assertEqual(env.get("COLLIDE_INSECURE"), "true",
                         "plaintext beyond loopback must be explicit (or set the TLS flags)")

    def test_metrics_are_scraped_where_the_server_serves_them(self):
        env = {e["name"]: e["value"] for e in self.container["env"]}
        ports = {p["name"]: p["containerPort"] for p in self.container["ports"]}
        annotations = self.statefulset["spec"]["template"]["metadata"]["annotations"]
        self.assertEqual(annotations["prometheus.io/scrape"], "true")
        self.assertEqual(int(annotations["prometheus.io/port"]), int(env["COLLIDE_METRICS_PORT"]))
        self.assertEqual(ports["metrics"], int(env["COLLIDE_METRICS_PORT"]))
        self.assertEqual(annotations["prometheus.io/path"], "/metrics")
        self.assertIn("metrics_port", server_flags())

    def test_native_grpc_probes(self):
        for probe in ("readinessProbe", "livenessProbe"):
            grpc = self.container[probe]["grpc"]
            self.assertEqual(grpc["port"], self.docker.port, probe)
        self.assertEqual(self.container["readinessProbe"]["grpc"]["service"], "collide.v1.CollisionService")

    def test_resources(self):
        res = self.container["resources"]
        for kind in ("requests", "limits"):
            self.assertIn("cpu", res[kind])
            self.assertIn("memory", res[kind])
        env = {e["name"]: e["value"] for e in self.container["env"]}
        assert_worlds_fit(self, env, res["limits"]["memory"])

    def test_security_context(self):
        pod_sc = self.pod["securityContext"]
        sc = self.container["securityContext"]
        self.assertTrue(pod_sc["runAsNonRoot"])
        self.assertTrue(sc["runAsNonRoot"])
        self.assertEqual(sc["runAsUser"], self.docker.uid)
        self.assertEqual(pod_sc["runAsUser"], self.docker.uid)
        self.assertTrue(sc["readOnlyRootFilesystem"])
        self.assertFalse(sc["allowPrivilegeEscalation"])
        self.assertEqual(sc["capabilities"]["drop"], ["ALL"])
        self.assertNotIn("add", sc["capabilities"])

    def test_grace_period_exceeds_drain_deadline(self):
        # The server drains in-flight calls for --drain_timeout (10 s by default).
        self.assertGreater(self.pod["terminationGracePeriodSeconds"], 10)

    def test_headless_service_for_client_side_balancing(self):
        spec = self.service["spec"]
        self.assertEqual(spec["clusterIP"], "None")
        # The StatefulSet's stable names (collide-<i>.<service>) come from it.
        self.assertEqual(self.statefulset["spec"]["serviceName"], self.service["metadata"]["name"])
        labels = self.statefulset["spec"]["template"]["metadata"]["labels"]
        self.assertEqual(spec["selector"], labels)
        (port,) = spec["ports"]
        self.assertEqual(port["port"], self.docker.port)
        self.assertEqual(port["targetPort"], "grpc")

    def test_autoscaler_and_disruption_budget_target_the_statefulset(self):
        ref = self.hpa["spec"]["scaleTargetRef"]
        self.assertEqual((ref["kind"], ref["name"]), ("StatefulSet", self.statefulset["metadata"]["name"]))
        self.assertLessEqual(self.hpa["spec"]["minReplicas"], self.hpa["spec"]["maxReplicas"])
        labels = self.statefulset["spec"]["selector"]["matchLabels"]
        self.assertEqual(self.pdb["spec"]["selector"]["matchLabels"], labels)
        self.assertLess(self.pdb["spec"]["minAvailable"], self.hpa["spec"]["minReplicas"],
                        "a budget >= the replica floor would block every node drain")


class SidecarTest(unittest.TestCase):
    """deploy/sidecar/: pod.yaml, gameserver.yaml (agones.dev/v1 GameServer)
    and fleet.yaml (a Fleet of that GameServer)."""

    @classmethod
    def setUpClass(cls):
        cls.docker = DockerfileFacts()
        cls.pod = load(SIDECAR / "pod.yaml")
        cls.gameserver = load(SIDECAR / "gameserver.yaml")
        cls.fleet = load(SIDECAR / "fleet.yaml")
        cls.specs = {"pod.yaml": cls.pod["spec"], "gameserver.yaml": cls.gameserver["spec"]["template"]["spec"],
                     "fleet.yaml": cls.fleet["spec"]["template"]["spec"]["template"]["spec"]}

    @staticmethod
    def containers(spec):
        return {c["name"]: c for c in spec["containers"]}

    def test_kinds(self):
        self.assertEqual((self.pod["apiVersion"], self.pod["kind"]), ("v1", "Pod"))
        self.assertEqual((self.gameserver["apiVersion"], self.gameserver["kind"]), ("agones.dev/v1", "GameServer"))
        self.assertEqual((self.fleet["apiVersion"], self.fleet["kind"]), ("agones.dev/v1", "Fleet"))
        self.assertNotIn("sidecar", " ".join(load(DEPLOY / "kustomization.yaml")["resources"]),
                         "the sidecar is another deployment than the shared pool kustomize applies")

    def test_one_pod_spec(self):
        # The Fleet runs the GameServer's spec; the GameServer's pod is the
        # sidecar pod but for the game port, which Agones adds from spec.ports.
        self.assertEqual(self.fleet["spec"]["template"]["spec"], self.gameserver["spec"])
        pod = yaml.safe_load(yaml.safe_dump(self.pod["spec"]))
        (game_port,) = self.containers(pod)["game"].pop("ports")
        self.assertEqual(self.specs["gameserver.yaml"], pod)
        (port,) = self.gameserver["spec"]["ports"]
        self.assertEqual((port["containerPort"], port["protocol"]), (game_port["containerPort"], game_port["protocol"]))
        self.assertEqual(port["container"], self.gameserver["spec"]["container"])

    def test_collide_on_the_pods_loopback(self):
        flags = server_flags()
        for name, spec in self.specs.items():
            collide = self.containers(spec)["collide"]
            env = {e["name"]: e["value"] for e in collide["env"]}
            for variable in env:
                self.assertIn(env_flag(variable), flags, f"{name}: {variable}")
            self.assertEqual(env["COLLIDE_HOST"], "127.0.0.1", f"{name}: only the pod reaches its sidecar")
            self.assertNotEqual(env.get("COLLIDE_INSECURE"), "true", f"{name}: loopback needs no plaintext permission")
            self.assertEqual(int(env["COLLIDE_PORT"]), self.docker.port, name)
            self.assertNotIn("ports", collide, f"{name}: nothing outside the pod calls it")
            self.assertEqual(collide["image"].split(":")[0], "collide-server", name)
            game = self.containers(spec)["game"]
            game_env = {e["name"]: e["value"] for e in game["env"]}
            self.assertEqual(game_env["COLLIDE_TARGET"], f"127.0.0.1:{env['COLLIDE_PORT']}", name)

    def test_probes_reach_the_loopback_server(self):
        # The kubelet's gRPC probe dials the pod IP, where a loopback server
        # does not listen: the probes run the image's CLI inside the container,
        # as the Dockerfile's HEALTHCHECK does.
        self.assertIn("collide health", self.docker.healthcheck)
        for name, spec in self.specs.items():
            collide = self.containers(spec)["collide"]
            for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
                command = collide[probe]["exec"]["command"]
                self.assertEqual(command[:2], ["collide", "health"], f"{name}: {probe}")
                self.assertIn(f"--target=127.0.0.1:{self.docker.port}", command, f"{name}: {probe}")
                # The CLI gives up before the kubelet does (an answer, not a kill).
                timeout = re.search(r"--timeout=(\d+)s", " ".join(command))
                self.assertLess(int(timeout.group(1)), collide[probe]["timeoutSeconds"], f"{name}: {probe}")

    def test_resources_security_and_drain(self):
        for name, spec in self.specs.items():
            collide = self.containers(spec)["collide"]
            res = collide["resources"]
            for kind in ("requests", "limits"):
                self.assertIn("cpu", res[kind], name)
                self.assertIn("memory", res[kind], name)
            assert_worlds_fit(self, {e["name"]: e["value"] for e in collide["env"]}, res["limits"]["memory"])
            sc = collide["securityContext"]
            self.assertTrue(spec["securityContext"]["runAsNonRoot"], name)
            self.assertEqual(sc["runAsUser"], self.docker.uid, name)
            self.assertTrue(sc["readOnlyRootFilesystem"], name)
            self.assertFalse(sc["allowPrivilegeEscalation"], name)
            self.assertEqual(sc["capabilities"]["drop"], ["ALL"], name)
            self.assertFalse(spec["automountServiceAccountToken"], name)
            self.assertGreater(spec["terminationGracePeriodSeconds"], 10, f"{name}: the 10 s drain must fit")

    def test_agones_health_is_on(self):
        health = self.gameserver["spec"]["health"]
        self.assertFalse(health["disabled"])
        self.assertGreater(health["periodSeconds"], 0)
        self.assertEqual(self.gameserver["spec"]["container"], "game")
        self.assertIn(self.gameserver["spec"]["container"], self.containers(self.specs["gameserver.yaml"]))
        self.assertGreaterEqual(self.fleet["spec"]["replicas"], 1)
        self.assertEqual(self.fleet["spec"]["template"]["metadata"]["labels"],
                         self.gameserver["spec"]["template"]["metadata"]["labels"])


def seconds(value):
    """An HAProxy time ("250ms", "5s", "1m") in seconds."""
    number, unit = re.fullmatch(r"(\d+)(ms|s|m)?", value).groups()
    return int(number) * {"ms": 0.001, "s": 1, "m": 60, None: 0.001}[unit]


class HaproxyConfig:
    """deploy/haproxy/haproxy.cfg as sections of directive lines."""

    def __init__(self):
        self.sections = {}
        current = None
        for raw in HAPROXY_CFG.read_text().splitlines():
            line = raw.split(" #")[0].rstrip()
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if not line[0].isspace():
                current = line.strip()
                self.sections[current] = []
            else:
                self.sections[current].append(line.strip())
        self.client_port = self.bind_port("frontend grpc")
        self.monitor_port = self.bind_port("frontend monitor")

    def lines(self, section, prefix):
        return [l for l in self.sections[section] if l == prefix or l.startswith(prefix + " ")]

    def value(self, section, key):
        (line,) = self.lines(section, key)
        return line[len(key):].strip()

    def bind_port(self, section):
        (bind,) = self.lines(section, "bind")
        return int(re.match(r"bind :(\d+)", bind).group(1))

    def timeouts(self):
        return {l.split()[1]: seconds(l.split()[2]) for l in self.lines("defaults", "timeout")}

    def slots(self, backend):
        """server lines of a backend: slot number -> (name, address, id, rest)."""
        slots = {}
        for line in self.lines(f"backend {backend}", "server"):
            m = re.fullmatch(r'server (collide-(\d+)) "([^"]+)" id (\d+)(.*)', line)
            slots[int(m.group(2))] = (m.group(1), m.group(3), int(m.group(4)), m.group(5).strip())
        return slots


def h2_frames(data):
    """(type, flags, stream id, payload) of each HTTP/2 frame (RFC 9113 4.1)."""
    frames = []
    while data:
        length = int.from_bytes(data[:3], "big")
        frames.append((data[3], data[4], int.from_bytes(data[5:9], "big") & 0x7FFFFFFF, data[9:9 + length]))
        data = data[9 + length:]
    return frames


def hpack_literals(block):
    """Headers of an HPACK block made of static-table indexes and literals
    without Huffman coding (RFC 7541 6.1, 6.2.2; 7-bit lengths only)."""
    static = {1: ":authority", 2: ":method GET", 3: ":method POST", 4: ":path", 6: ":scheme http",
              31: "content-type"}
    headers, i = [], 0

    def string():
        nonlocal i
        length = block[i]
        assert length < 0x7F, "Huffman or long strings are not used here"
        text = block[i + 1:i + 1 + length].decode()
        i += 1 + length
        return text

    while i < len(block):
        first = block[i]
        if first & 0x80:  # indexed field
            headers.append(tuple(static[first & 0x7F].split(" ")))
            i += 1
            continue
        assert first & 0xF0 == 0, "literal without indexing only"
        index = first & 0x0F
        i += 1
        if index == 0x0F:  # 4-bit prefix full: one more byte
            index += block[i]
            i += 1
        name = string() if index == 0 else static[index]
        headers.append((name, string()))
    return headers


class ProxyDockerfileFacts:
    def __init__(self):
        text = dockerfile("proxy.Dockerfile")
        self.base = re.search(r"^FROM (\S+)", text, re.M).group(1)
        self.user = re.search(r"^USER (\d+)", text, re.M).group(1)
        self.config_path = re.search(r"^COPY deploy/haproxy/haproxy.cfg (\S+)", text, re.M).group(1)
        self.entrypoint = re.search(r"^ENTRYPOINT (.*)", text, re.M).group(1)
        self.stop_signal = re.search(r"^STOPSIGNAL (\S+)", text, re.M).group(1)
        self.text = text


class HaproxyConfigTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cfg = HaproxyConfig()

    def test_haproxy_accepts_it(self):
        haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
        self.assertTrue(os.path.exists(haproxy), "haproxy not installed: run scripts/install-deps.sh")
        env = dict(os.environ, COLLIDE_REPLICA_DOMAIN="collide.test")
        run = subprocess.run([haproxy, "-c", "-f", str(HAPROXY_CFG)], env=env, capture_output=True, text=True)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertIn("Configuration file is valid", run.stdout + run.stderr)

    def test_shield_limits_gRPC_cannot_enforce(self):
        # Streams per connection: no more than the replicas' own limit.
        streams = int(self.cfg.value("global", "tune.h2.max-concurrent-streams"))
        self.assertGreater(streams, 0, "0 disables the limit")
        self.assertLessEqual(streams, int(server_flag_defaults()["max_concurrent_streams"]))
        # Headers: a request's header block must fit one buffer, and more than
        # the replicas' advertised 8 KiB list is refused.
        self.assertLessEqual(int(self.cfg.value("global", "tune.bufsize")), 65536)
        (deny,) = [l for l in self.cfg.lines("frontend grpc", "http-request deny") if "req.hdrs,length" in l]
        self.assertLessEqual(int(re.search(r"gt (\d+)", deny).group(1)), 8192)
        # Connections per client address, and a cap for the whole proxy.
        self.assertTrue(self.cfg.lines("frontend grpc", "tcp-request connection track-sc0 src"))
        self.assertTrue([l for l in self.cfg.lines("frontend grpc", "tcp-request connection reject")
                         if "sc0_conn_cur gt" in l])
        self.assertGreater(int(self.cfg.value("global", "maxconn")), 0)
        # Request and idle timeouts, all finite.
        timeouts = self.cfg.timeouts()
        for name in ("http-request", "client", "http-keep-alive", "connect", "server", "queue", "check"):
            self.assertIn(name, timeouts)
        self.assertLessEqual(timeouts["http-request"], 10, "slow headers must not hold a connection long")

    def test_routing(self):
        grpc = self.cfg.sections["frontend grpc"]
        self.assertIn("use_backend worlds if { req.hdr(collide-world) -m found }", grpc)
        self.assertIn("default_backend replicas", grpc)
        self.assertEqual(self.cfg.value("backend worlds", "balance"), "hdr(collide-world)")
        self.assertEqual(self.cfg.value("backend worlds", "hash-type"), "consistent")
        self.assertEqual(self.cfg.value("backend worlds", "retries"), "0", "a world call is never sent elsewhere")
        self.assertFalse(self.cfg.lines("backend worlds", "option redispatch"))
        self.assertEqual(self.cfg.value("backend replicas", "balance"), "roundrobin")
        self.assertTrue(self.cfg.lines("backend replicas", "option redispatch"))
        for backend in ("replicas", "worlds"):
            default = self.cfg.value(f"backend {backend}", "default-server").split()
            self.assertEqual(default[default.index("proto") + 1], "h2", "h2c to the replicas")

    def test_server_slots_agree_between_backends_and_with_kubernetes(self):
        replicas, worlds = self.cfg.slots("replicas"), self.cfg.slots("worlds")
        self.assertEqual(sorted(replicas), list(range(len(replicas))))
        self.assertEqual(sorted(worlds), sorted(replicas))
        port = DockerfileFacts().port
        for slot, (name, address, server_id, rest) in replicas.items():
            self.assertEqual(address, f"{name}.${{COLLIDE_REPLICA_DOMAIN}}:{port}")
            self.assertEqual(server_id, slot + 1, "ids fix the ring: the same on every proxy")
            self.assertEqual(worlds[slot][:3], (name, address, server_id))
            self.assertEqual(worlds[slot][3], f"track replicas/{name}", "one health check per replica")
        self.assertIn("check", self.cfg.value("backend replicas", "default-server").split())
        hpa = load(K8S / "hpa.yaml")
        statefulset = load(K8S / "statefulset.yaml")
        self.assertLessEqual(hpa["spec"]["maxReplicas"], len(replicas), "a replica without a slot gets no world")
        self.assertLessEqual(statefulset["spec"]["replicas"], len(replicas))
        self.assertEqual(statefulset["metadata"]["name"], "collide", "slot names are collide-<i>")

    def test_grpc_health_check_bytes(self):
        section = "backend replicas"
        sent = bytes.fromhex(self.cfg.value(section, "tcp-check send-binary"))
        preface = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
        self.assertTrue(sent.startswith(preface))
        frames = h2_frames(sent[len(preface):])
        self.assertEqual([(t, f, s) for t, f, s, _ in frames], [(4, 0, 0), (1, 4, 1), (0, 1, 1)],
                         "SETTINGS, HEADERS (END_HEADERS) and DATA (END_STREAM) on stream 1")
        headers = dict(hpack_literals(frames[1][3]))
        self.assertEqual(headers[":method"], "POST")
        self.assertEqual(headers[":path"], "/grpc.health.v1.Health/Check")
        self.assertEqual(headers["content-type"], "application/grpc")
        self.assertEqual(headers["te"], "trailers")
        self.assertEqual(frames[2][3], bytes(5), "an uncompressed, empty HealthCheckRequest")
        # The answer: an uncompressed 2-byte message, field 1 (status) varint
        # SERVING, the value proto/grpc/health/v1/health.proto gives it.
        serving = int(re.search(r"SERVING = (\d+);", (ROOT / "proto/grpc/health/v1/health.proto").read_text()).group(1))
        expected = bytes([0, 0, 0, 0, 2, 0x08, serving])
        self.assertEqual(bytes.fromhex(self.cfg.value(section, "tcp-check expect binary")), expected)


class ProxyManifestTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cfg = HaproxyConfig()
        cls.docker = ProxyDockerfileFacts()
        docs = load_all(K8S / "proxy.yaml")
        cls.deployment, cls.service = docs["Deployment"], docs["Service"]
        cls.pod = cls.deployment["spec"]["template"]["spec"]
        (cls.container,) = cls.pod["containers"]

    def test_image(self):
        self.assertEqual(self.docker.base, "debian:bookworm-slim")
        self.assertIn("apt-get install -y --no-install-recommends haproxy", self.docker.text)
        self.assertNotEqual(int(self.docker.user), 0)
        self.assertIn(self.docker.config_path, self.docker.entrypoint)
        self.assertIn("haproxy", (ROOT / "scripts" / "install-deps.sh").read_text().split())

    def test_ports_config_and_domain(self):
        ports = {p["name"]: p["containerPort"] for p in self.container["ports"]}
        self.assertEqual(ports, {"grpc": self.cfg.client_port, "monitor": self.cfg.monitor_port})
        (mount,) = self.container["volumeMounts"]
        self.assertEqual(f"{mount['mountPath']}/haproxy.cfg", self.docker.config_path)
        (volume,) = self.pod["volumes"]
        self.assertEqual(volume["name"], mount["name"])
        generator = load(DEPLOY / "kustomization.yaml")["configMapGenerator"][0]
        self.assertEqual(volume["configMap"]["name"], generator["name"])
        env = {e["name"]: e for e in self.container["env"]}
        service = load(K8S / "service.yaml")["metadata"]["name"]
        self.assertEqual(env["COLLIDE_REPLICA_DOMAIN"]["value"], f"{service}.$(POD_NAMESPACE).svc.cluster.local")
        self.assertEqual(env["POD_NAMESPACE"]["valueFrom"]["fieldRef"]["fieldPath"], "metadata.namespace")
        (port,) = self.service["spec"]["ports"]
        self.assertEqual(port["targetPort"], "grpc")
        self.assertEqual(self.service["spec"]["selector"], self.deployment["spec"]["template"]["metadata"]["labels"])

    def test_probes_scrape_and_security(self):
        for probe in ("readinessProbe", "livenessProbe"):
            self.assertEqual(self.container[probe]["httpGet"]["path"], self.cfg.value("frontend monitor", "monitor-uri"))
        annotations = self.deployment["spec"]["template"]["metadata"]["annotations"]
        self.assertEqual(int(annotations["prometheus.io/port"]), self.cfg.monitor_port)
        self.assertIn(f"if {{ path {annotations['prometheus.io/path']} }}",
                      self.cfg.value("frontend monitor", "http-request use-service prometheus-exporter"))
        self.assertGreater(self.pod["terminationGracePeriodSeconds"], self.cfg.timeouts()["server"])
        sc = self.container["securityContext"]
        self.assertTrue(sc["readOnlyRootFilesystem"])
        self.assertFalse(sc["allowPrivilegeEscalation"])
        self.assertEqual(sc["capabilities"]["drop"], ["ALL"])
        self.assertEqual(sc["runAsUser"], int(self.docker.user))
        for kind in ("requests", "limits"):
            self.assertIn("memory", self.container["resources"][kind])


class ComposeTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.services = load(ROOT / "docker" / "compose.yaml")["services"]
        cls.replicas = {n: s for n, s in cls.services.items() if re.fullmatch(r"collide-\d+", n)}

    def test_replicas(self):
        docker = DockerfileFacts()
        self.assertEqual(sorted(self.replicas), [f"collide-{i}" for i in range(len(self.replicas))])
        self.assertGreaterEqual(len(self.replicas), 3)
        self.assertEqual(sum("build" in svc for svc in self.replicas.values()), 1, "one replica builds the image")
        flags = server_flags()
        for name, svc in self.replicas.items():
            if "build" in svc:
                self.assertEqual(svc["build"]["dockerfile"], "docker/Dockerfile")
            self.assertNotIn("ports", svc, f"{name}: clients go through the proxy")
            self.assertTrue(svc["read_only"])
            self.assertEqual(svc["cap_drop"], ["ALL"])
            self.assertIn("no-new-privileges:true", svc["security_opt"])
            health = " ".join(svc["healthcheck"]["test"])
            self.assertIn("collide health", health)
            self.assertIn(f"127.0.0.1:{docker.port}", health)
            for env in svc["environment"]:
                self.assertIn(env_flag(env), flags, env)
            # docker stop waits this long before SIGKILL: more than the 10 s drain.
            self.assertGreater(int(svc["stop_grace_period"].rstrip("s")), 10)
            limits = svc["deploy"]["resources"]["limits"]
            self.assertIn("cpus", limits)
            self.assertEqual(limits["memory"], "512M")
            assert_worlds_fit(self, svc["environment"], limits["memory"])

    def test_proxy_reaches_every_replica_by_its_slot_name(self):
        proxy = self.services["proxy"]
        self.assertEqual(proxy["build"]["dockerfile"], "docker/proxy.Dockerfile")
        domain = proxy["environment"]["COLLIDE_REPLICA_DOMAIN"]
        for name, svc in self.replicas.items():
            self.assertIn(f"{name}.{domain}", svc["networks"]["default"]["aliases"])
        self.assertLessEqual(len(self.replicas), len(HaproxyConfig().slots("replicas")))
        cfg = HaproxyConfig()
        published = {int(p.rsplit(":", 1)[1]) for p in proxy["ports"]}
        self.assertEqual(published, {cfg.client_port, cfg.monitor_port})
        self.assertTrue(all(p.startswith("127.0.0.1:") for p in proxy["ports"]))
        self.assertTrue(proxy["read_only"])
        self.assertEqual(proxy["cap_drop"], ["ALL"])
        self.assertEqual(proxy["stop_signal"], ProxyDockerfileFacts().stop_signal)
        self.assertGreater(int(proxy["stop_grace_period"].rstrip("s")), cfg.timeouts()["server"])


if __name__ == "__main__":
    unittest.main()
