"""Smoke test of the patched moto emulator: checks every field moto_patches.py fills, with boto3.

    python smoke_test.py                   # starts its own launcher.py and stops it after
    python smoke_test.py --endpoint URL    # uses a running emulator (resets it before and after)

Run it with the virtualenv python that setup.sh prints. Prints one line per check and closes with
"N passed, M failed"; exits non-zero when a check fails.
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import re
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request
from pathlib import Path
from typing import Any, Callable

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

HERE = Path(__file__).resolve().parent
LOOPBACK = ipaddress.IPv4Network("127.0.0.0/8")
IPV4 = re.compile(r"(?<![\d.])(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})(/\d{1,2})?(?![\d.])")
# The "anywhere" block of security-group and network-ACL rules: a rule, not an address anyone is sent to.
ANY_BLOCK = ("0.0.0.0", "/0")
MANAGED_INSTANCE = "mi-0123456789abcdef0"


class CheckFailed(AssertionError):
    pass


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


class Emulator:
    """A launcher.py child process, or an emulator someone else runs."""

    def __init__(self, endpoint: str | None) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        self.workdir: tempfile.TemporaryDirectory[str] | None = None
        if endpoint is None:
            self.workdir = tempfile.TemporaryDirectory(prefix="moto-smoke-")
            env_file = Path(self.workdir.name) / "moto.env"
            self.process = subprocess.Popen(
                [sys.executable, str(HERE / "launcher.py"), "--workdir", self.workdir.name, "--exit-on-stdin-eof"],
                stdin=subprocess.PIPE,
            )
            deadline = time.monotonic() + 60
            while not env_file.exists():
                expect(self.process.poll() is None, "launcher.py exited before it was ready")
                expect(time.monotonic() < deadline, "launcher.py not ready after 60 s")
                time.sleep(0.1)
            values = dict(line.split("=", 1) for line in env_file.read_text().splitlines() if "=" in line)
            endpoint = values["AWS_ENDPOINT_URL"]
        self.endpoint = endpoint
        self.control("POST", "/_proxy/reset", {})

    def control(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.endpoint + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    def close(self) -> None:
        if self.process is None:
            self.control("POST", "/_proxy/reset", {})
            return
        assert self.process.stdin is not None
        self.process.stdin.close()  # --exit-on-stdin-eof: the launcher stops itself
        self.process.wait(timeout=30)
        if self.workdir is not None:
            self.workdir.cleanup()


class Scenario:
    def __init__(self, emulator: Emulator) -> None:
        self.emulator = emulator
        self.bodies: list[str] = []
        # One attempt: a fault must reach the check, not be retried away by boto3.
        config = Config(retries={"mode": "standard", "total_max_attempts": 1})
        session = boto3.Session(
            aws_access_key_id="AKIAPROXYTESTFAKE000",
            aws_secret_access_key="proxy-test-fake-secret",
            region_name="us-east-1",
        )
        self.ecs = session.client("ecs", endpoint_url=emulator.endpoint, config=config)
        self.ec2 = session.client("ec2", endpoint_url=emulator.endpoint, config=config)
        self.ssm = session.client("ssm", endpoint_url=emulator.endpoint, config=config)
        for client in (self.ecs, self.ec2, self.ssm):
            client.meta.events.register("after-call", self._keep_body)
        self.subnet = self.ec2.describe_subnets(Filters=[{"Name": "default-for-az", "Values": ["true"]}])["Subnets"][0]
        # moto requires securityGroups in an awsvpcConfiguration (ECS does not)
        self.security_group = self.ec2.describe_security_groups(GroupNames=["default"])["SecurityGroups"][0]

    def _keep_body(self, http_response: Any, **_: Any) -> None:
        self.bodies.append(http_response.text)

    def task_definition(self, family: str, containers: list[dict[str, Any]], **extra: Any) -> str:
        for container in containers:
            container.setdefault("image", "nginx")
            container.setdefault("memory", 64)
        return self.ecs.register_task_definition(family=family, containerDefinitions=containers, **extra)[
            "taskDefinition"
        ]["taskDefinitionArn"]

    def fargate_task(self, cluster: str, definition: str, count: int = 1) -> list[dict[str, Any]]:
        return self.ecs.run_task(
            cluster=cluster,
            taskDefinition=definition,
            launchType="FARGATE",
            count=count,
            networkConfiguration={
                "awsvpcConfiguration": {
                    "subnets": [self.subnet["SubnetId"]],
                    "securityGroups": [self.security_group["GroupId"]],
                }
            },
        )["tasks"]

    def describe(self, cluster: str, task_arn: str) -> dict[str, Any]:
        return self.ecs.describe_tasks(cluster=cluster, tasks=[task_arn])["tasks"][0]

    def container_instance(self, cluster: str, instance_id: str) -> str:
        document = json.dumps({"instanceId": instance_id})
        return self.ecs.register_container_instance(cluster=cluster, instanceIdentityDocument=document)[
            "containerInstance"
        ]["containerInstanceArn"]


def is_loopback(address: str) -> bool:
    return ipaddress.IPv4Address(address) in LOOPBACK


def check_fargate_awsvpc(s: Scenario) -> None:
    s.ecs.create_cluster(clusterName="fargate")
    definition = s.task_definition(
        "web",
        [{"name": "app", "portMappings": [{"containerPort": 8080}]}],
        networkMode="awsvpc",
        requiresCompatibilities=["FARGATE"],
        cpu="256",
        memory="512",
    )
    task = s.describe("fargate", s.fargate_task("fargate", definition)[0]["taskArn"])
    interface = task["containers"][0]["networkInterfaces"][0]
    expect(is_loopback(interface["privateIpv4Address"]), f"ENI address {interface} is not loopback")
    details = {d["name"]: d["value"] for d in task["attachments"][0]["details"]}
    expect(details["privateIPv4Address"] == interface["privateIpv4Address"], f"attachment {details} disagrees")
    expect(task["containers"][0].get("networkBindings", []) == [], "awsvpc task has network bindings")

    s.emulator.control("POST", "/_proxy/task-ip", {"task": task["taskArn"], "ip": "127.0.0.42"})
    moved = s.describe("fargate", task["taskArn"])
    expect(moved["containers"][0]["networkInterfaces"][0]["privateIpv4Address"] == "127.0.0.42", "task-ip ignored")


def check_stays_running(s: Scenario) -> None:
    task_arn = s.ecs.list_tasks(cluster="fargate")["taskArns"][0]
    statuses = [s.describe("fargate", task_arn)["lastStatus"] for _ in range(6)]
    expect(statuses == ["RUNNING"] * 6, f"lastStatus drifted: {statuses}")
    s.ecs.stop_task(cluster="fargate", task=task_arn)
    expect(s.ecs.list_tasks(cluster="fargate", desiredStatus="RUNNING")["taskArns"] == [], "stopped task listed")


def check_bridge_on_ec2(s: Scenario) -> None:
    s.ecs.create_cluster(clusterName="ec2")
    instance = s.ec2.run_instances(ImageId="ami-12345678", MinCount=1, MaxCount=1)["Instances"][0]
    expect(is_loopback(instance["PrivateIpAddress"]), f"EC2 address {instance['PrivateIpAddress']} not loopback")
    container_instance = s.container_instance("ec2", instance["InstanceId"])
    definition = s.task_definition(
        "api",
        [
            {"name": "app", "portMappings": [{"containerPort": 80, "hostPort": 0}]},
            {"name": "metrics", "portMappings": [{"containerPort": 9100, "hostPort": 9100, "protocol": "tcp"}]},
        ],
        networkMode="bridge",
    )
    task_arn = s.ecs.start_task(cluster="ec2", taskDefinition=definition, containerInstances=[container_instance])[
        "tasks"
    ][0]["taskArn"]
    task = s.describe("ec2", task_arn)
    bindings = {c["name"]: c["networkBindings"] for c in task["containers"]}
    expect(sorted(bindings) == ["app", "metrics"], f"want one container per definition, got {sorted(bindings)}")
    dynamic = bindings["app"][0]
    expect(dynamic["containerPort"] == 80 and 1024 < dynamic["hostPort"] < 65536, f"dynamic binding {dynamic}")
    expect(bindings["metrics"][0]["hostPort"] == 9100, f"static binding {bindings['metrics']}")
    expect(all(c["lastStatus"] == "RUNNING" for c in task["containers"]), "containers not RUNNING")

    s.emulator.control("POST", "/_proxy/task-host-ports", {"task": task_arn, "hostPorts": {"80": 41234}})
    app = next(c for c in s.describe("ec2", task_arn)["containers"] if c["name"] == "app")
    expect(app["networkBindings"][0]["hostPort"] == 41234, f"task-host-ports ignored: {app['networkBindings']}")

    described = s.ecs.describe_container_instances(cluster="ec2", containerInstances=[task["containerInstanceArn"]])
    ec2_id = described["containerInstances"][0]["ec2InstanceId"]
    s.emulator.control("POST", "/_proxy/instance-ip", {"instanceId": ec2_id, "ip": "127.0.0.7"})
    reservation = s.ec2.describe_instances(InstanceIds=[ec2_id])["Reservations"][0]
    expect(reservation["Instances"][0]["PrivateIpAddress"] == "127.0.0.7", "instance-ip ignored")


def check_health(s: Scenario) -> None:
    checked = s.task_definition(
        "checked",
        [{"name": "app", "healthCheck": {"command": ["CMD", "true"]}}],
        networkMode="awsvpc",
        requiresCompatibilities=["FARGATE"],
    )
    unchecked = s.task_definition(
        "unchecked", [{"name": "app"}], networkMode="awsvpc", requiresCompatibilities=["FARGATE"]
    )
    healthy = s.fargate_task("fargate", checked)[0]["taskArn"]
    unknown = s.fargate_task("fargate", unchecked)[0]["taskArn"]
    unhealthy = s.fargate_task("fargate", checked)[0]["taskArn"]
    s.emulator.control("POST", "/_proxy/task-health", {"task": unhealthy, "healthStatus": "UNHEALTHY"})
    got = {arn: s.describe("fargate", arn)["healthStatus"] for arn in (healthy, unknown, unhealthy)}
    expect(list(got.values()) == ["HEALTHY", "UNKNOWN", "UNHEALTHY"], f"healthStatus {list(got.values())}")


def check_ecs_anywhere(s: Scenario) -> None:
    s.ecs.create_cluster(clusterName="anywhere")
    s.emulator.control("POST", "/_proxy/managed-instances", {"instanceId": MANAGED_INSTANCE, "ip": "127.0.0.9"})
    container_instance = s.container_instance("anywhere", MANAGED_INSTANCE)
    definition = s.task_definition(
        "edge",
        [{"name": "app", "portMappings": [{"containerPort": 8080, "hostPort": 0}]}],
        networkMode="bridge",
        requiresCompatibilities=["EXTERNAL"],
    )
    described = s.ecs.describe_task_definition(taskDefinition=definition)["taskDefinition"]
    expect(described["networkMode"] == "bridge", f"EXTERNAL definition became {described['networkMode']}")
    task_arn = s.ecs.start_task(
        cluster="anywhere", taskDefinition=definition, containerInstances=[container_instance]
    )["tasks"][0]["taskArn"]
    task = s.describe("anywhere", task_arn)
    instances = s.ecs.describe_container_instances(cluster="anywhere", containerInstances=[task["containerInstanceArn"]])
    managed_id = instances["containerInstances"][0]["ec2InstanceId"]
    expect(managed_id == MANAGED_INSTANCE, f"container instance points at {managed_id}")
    info = s.ssm.describe_instance_information(Filters=[{"Key": "InstanceIds", "Values": [managed_id]}])
    addresses = [i["IPAddress"] for i in info["InstanceInformationList"]]
    expect(addresses == ["127.0.0.9"], f"SSM answered {addresses}")

    for i in range(11):
        s.emulator.control("POST", "/_proxy/managed-instances", {"instanceId": f"mi-{i:017x}", "ip": f"127.0.1.{i + 1}"})
    sizes = [len(p["InstanceInformationList"]) for p in s.ssm.get_paginator("describe_instance_information").paginate()]
    expect(sizes == [10, 2], f"DescribeInstanceInformation pages {sizes}, want SSM's default of 10")


def check_task_pages(s: Scenario) -> None:
    s.ecs.create_cluster(clusterName="bulk")
    definition = s.task_definition("bulk", [{"name": "app"}], networkMode="awsvpc", requiresCompatibilities=["FARGATE"])
    for _ in range(5):
        s.fargate_task("bulk", definition, count=50)
    pages, token = [], None
    while True:
        page = s.ecs.list_tasks(cluster="bulk", desiredStatus="RUNNING", **({"nextToken": token} if token else {}))
        pages.append(page["taskArns"])
        token = page.get("nextToken")
        if not token:
            break
    expect([len(p) for p in pages] == [100, 100, 50], f"ListTasks pages {[len(p) for p in pages]}")
    expect(len({a for p in pages for a in p}) == 250, "pages overlap")
    too_many = [a for p in pages for a in p][:101]
    expect_error(lambda: s.ecs.describe_tasks(cluster="bulk", tasks=too_many), "InvalidParameterException")
    expect_error(lambda: s.ecs.list_tasks(cluster="bulk", maxResults=101), "InvalidParameterException")


def check_cluster_pages(s: Scenario) -> None:
    existing = len(s.ecs.list_clusters()["clusterArns"])
    for i in range(120 - existing):
        s.ecs.create_cluster(clusterName=f"c{i:03d}")
    sizes = [len(p["clusterArns"]) for p in s.ecs.get_paginator("list_clusters").paginate()]
    expect(sizes == [100, 20], f"ListClusters pages {sizes}")
    small = [len(p["clusterArns"]) for p in s.ecs.get_paginator("list_clusters").paginate(PaginationConfig={"PageSize": 50})]
    expect(small == [50, 50, 20], f"ListClusters pages of 50: {small}")


def check_call_counter(s: Scenario) -> None:
    s.emulator.control("POST", "/_proxy/calls/reset", {})
    s.ecs.list_clusters()
    s.ecs.list_clusters()
    s.ec2.describe_instances()
    counts = s.emulator.control("GET", "/_proxy/calls")
    expect(counts == {"ec2:DescribeInstances": 1, "ecs:ListClusters": 2}, f"call counts {counts}")


def check_fault_switch(s: Scenario) -> None:
    s.emulator.control("POST", "/_proxy/faults", {"operation": "ecs:ListTasks"})
    error = expect_error(lambda: s.ecs.list_tasks(cluster="bulk"), "ThrottlingException")
    expect(error.response["ResponseMetadata"]["HTTPStatusCode"] == 400, "throttling is not a 400")
    expect_error(lambda: s.ecs.list_tasks(cluster="bulk"), "ThrottlingException")
    s.emulator.control("POST", "/_proxy/faults/clear", {"operation": "ecs:ListTasks"})
    s.ecs.list_tasks(cluster="bulk")

    s.emulator.control("POST", "/_proxy/faults", {"operation": "ec2:DescribeInstances", "times": 1})
    expect_error(lambda: s.ec2.describe_instances(), "RequestLimitExceeded")
    s.ec2.describe_instances()  # times=1: the second call passes

    fault = {"operation": "ssm:DescribeInstanceInformation", "code": "InternalServerError", "status": 500}
    s.emulator.control("POST", "/_proxy/faults", fault)
    error = expect_error(lambda: s.ssm.describe_instance_information(), "InternalServerError")
    expect(error.response["ResponseMetadata"]["HTTPStatusCode"] == 500, "fault status ignored")
    s.emulator.control("POST", "/_proxy/faults/clear", {})
    s.ssm.describe_instance_information()


def check_only_loopback(s: Scenario) -> None:
    # Subnets and VPCs too: nothing the emulator invents may name a private or public range.
    s.ec2.describe_vpcs()
    s.ec2.describe_subnets()
    s.ec2.describe_network_interfaces()
    found = {match for body in s.bodies for match in IPV4.findall(body) if match != ANY_BLOCK}
    outside = sorted(address + prefix for address, prefix in found if not is_loopback(address))
    expect(len(found) > 0, "no address in any response: the scan is broken")
    expect(outside == [], f"addresses outside 127.0.0.0/8: {outside[:10]}")


def expect_error(call: Callable[[], Any], code: str) -> ClientError:
    try:
        call()
    except ClientError as error:
        got = error.response["Error"]["Code"]
        expect(got == code, f"want {code}, got {got}")
        return error
    raise CheckFailed(f"want {code}, the call succeeded")


CHECKS = [
    check_fargate_awsvpc,
    check_stays_running,
    check_bridge_on_ec2,
    check_health,
    check_ecs_anywhere,
    check_task_pages,
    check_cluster_pages,
    check_call_counter,
    check_fault_switch,
    check_only_loopback,
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--endpoint", help="a running emulator; default: start launcher.py")
    args = parser.parse_args()
    emulator = Emulator(args.endpoint)
    passed = failed = 0
    try:
        scenario = Scenario(emulator)
        for check in CHECKS:
            try:
                check(scenario)
                passed += 1
                print(f"ok    {check.__name__}", flush=True)
            except Exception as error:  # one broken check must not hide the others
                failed += 1
                print(f"FAIL  {check.__name__}: {error}", flush=True)
                if not isinstance(error, CheckFailed):
                    traceback.print_exc()
    finally:
        emulator.close()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
