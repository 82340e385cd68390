"""Checks the deployment files against each other and against the image.

No cluster runs here, so the Kubernetes manifests and the compose file are
parsed and their security, probe and resource fields checked, and the port,
user and health check compared with docker/Dockerfile, the single source of
truth for the image. Run by ctest with /usr/bin/python3 (python3-yaml).
"""
import pathlib
import re
import unittest

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "k8s"


def load(path):
    with open(path) as f:
        return yaml.safe_load(f)


def dockerfile():
    text = (ROOT / "docker" / "Dockerfile").read_text()
    # Join continuation lines so each instruction is one line.
    return re.sub(r"\\\n\s*", " ", text)


def server_flags():
    """The names of collide-server's flags (ABSL_FLAG in server/)."""
    text = "".join(f.read_text() for f in sorted((ROOT / "server").rglob("*.cc")))
    return set(re.findall(r"ABSL_FLAG\(\s*[^,]+,\s*(\w+)\s*,", text))


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
        cls.deployment = load(K8S / "deployment.yaml")
        cls.service = load(K8S / "service.yaml")
        cls.hpa = load(K8S / "hpa.yaml")
        cls.pdb = load(K8S / "pdb.yaml")
        cls.pod = cls.deployment["spec"]["template"]["spec"]
        (cls.container,) = cls.pod["containers"]

    def test_kustomization_lists_every_manifest(self):
        listed = set(load(K8S / "kustomization.yaml")["resources"])
        present = {p.name for p in K8S.glob("*.yaml")} - {"kustomization.yaml"}
        self.assertEqual(listed, present)

    def test_port_matches_image(self):
        (port,) = self.container["ports"]
        self.assertEqual(port["containerPort"], self.docker.port)
        env = {e["name"]: e["value"] for e in self.container["env"]}
        flags = server_flags()
        for name in env:
            self.assertIn(env_flag(name), flags, name)
        self.assertEqual(int(env["COLLIDE_PORT"]), self.docker.port)
        self.assertEqual(env["COLLIDE_HOST"], "0.0.0.0", "pods must listen beyond loopback")
        self.assertEqual(env.get("COLLIDE_INSECURE"), "true",
                         "plaintext beyond loopback must be explicit (or set the TLS flags)")

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
        labels = self.deployment["spec"]["template"]["metadata"]["labels"]
        self.assertEqual(spec["selector"], labels)
        (port,) = spec["ports"]
        self.assertEqual(port["port"], self.docker.port)
        self.assertEqual(port["targetPort"], "grpc")

    def test_autoscaler_and_disruption_budget_target_the_deployment(self):
        ref = self.hpa["spec"]["scaleTargetRef"]
        self.assertEqual((ref["kind"], ref["name"]), ("Deployment", self.deployment["metadata"]["name"]))
        self.assertLessEqual(self.hpa["spec"]["minReplicas"], self.hpa["spec"]["maxReplicas"])
        labels = self.deployment["spec"]["selector"]["matchLabels"]
        self.assertEqual(self.pdb["spec"]["selector"]["matchLabels"], labels)
        self.assertLess(self.pdb["spec"]["minAvailable"], self.hpa["spec"]["minReplicas"],
                        "a budget >= the replica floor would block every node drain")


class ComposeTest(unittest.TestCase):
    def test_compose_service(self):
        docker = DockerfileFacts()
        svc = load(ROOT / "docker" / "compose.yaml")["services"]["collide"]
        self.assertEqual(svc["build"]["dockerfile"], "docker/Dockerfile")
        self.assertTrue(any(p.endswith(f":{docker.port}") for p in svc["ports"]))
        self.assertTrue(svc["read_only"])
        self.assertEqual(svc["cap_drop"], ["ALL"])
        self.assertIn("no-new-privileges:true", svc["security_opt"])
        health = " ".join(svc["healthcheck"]["test"])
        self.assertIn("collide health", health)
        self.assertIn(f"127.0.0.1:{docker.port}", health)
        flags = server_flags()
        for name in svc["environment"]:
            self.assertIn(env_flag(name), flags, name)
        # docker stop waits this long before SIGKILL: more than the 10 s drain.
        self.assertGreater(int(svc["stop_grace_period"].rstrip("s")), 10)
        limits = svc["deploy"]["resources"]["limits"]
        self.assertIn("cpus", limits)
        self.assertIn("memory", limits)


if __name__ == "__main__":
    unittest.main()
