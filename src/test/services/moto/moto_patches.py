"""Start-up patches that fill the gaps between stock moto and what proxy's clusterTasks provider reads.

One function per gap; apply() installs them all. Every function reaches into moto internals and was
checked against moto 5.2.5 (pinned in requirements.txt), so apply() refuses any other version: after
bumping the pin, re-check each function and run smoke_test.py.
"""

from __future__ import annotations

import ipaddress
import socket
import sys
import threading
from datetime import datetime, timezone
from types import SimpleNamespace
from typing import Any

import moto
from moto.core import serialize
from moto.core.responses import ActionResult, PaginatedResult
from moto.ec2.exceptions import InvalidVPCRangeError
from moto.ec2.models import elastic_network_interfaces, instances, nat_gateways, vpcs
from moto.ecs import models as ecs_models
from moto.ecs.exceptions import InvalidParameterException
from moto.ecs.responses import EC2ContainerServiceResponse
from moto.moto_api import state_manager
from moto.ssm.exceptions import ValidationException
from moto.ssm.responses import SimpleSystemManagerResponse

CHECKED_MOTO_VERSION = "5.2.5"
LOOPBACK = ipaddress.IPv4Network("127.0.0.0/8")
# Same size and place in the range as AWS's 172.31.0.0/16, moved into loopback.
DEFAULT_VPC_CIDR = "127.31.0.0/16"
ECS_BATCH_LIMIT = 100
HEALTH_STATUSES = ("HEALTHY", "UNHEALTHY", "UNKNOWN")


class LoopbackAllocator:
    """Hands out 127.100.0.1, 127.100.0.2, … so generated addresses are unique, ordered and local."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._next = int(ipaddress.IPv4Address("127.100.0.1"))

    def next(self) -> str:
        with self._lock:
            while True:
                address = ipaddress.IPv4Address(self._next)
                self._next += 1
                if address.packed[-1] not in (0, 255):
                    return str(address)


def require_loopback(address: str) -> str:
    if ipaddress.IPv4Address(address) not in LOOPBACK:
        raise ValueError(f"{address} is not in 127.0.0.0/8; emulated addresses must be loopback")
    return address


_HANDED_OUT: set[int] = set()


def free_loopback_port() -> int:
    """A port nothing listens on right now, the way ECS picks a dynamic host port from the ephemeral range.

    Never the same port twice in one emulator run: the kernel may hand a just-released port out again, and two tasks
    with one host port would merge into one server (as on a real host, where ECS never does that).
    """
    while True:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        if port not in _HANDED_OUT:
            _HANDED_OUT.add(port)
            return port


def apply(allocator: LoopbackAllocator) -> None:
    if moto.__version__ != CHECKED_MOTO_VERSION:
        raise SystemExit(
            f"moto {moto.__version__} is installed but moto_patches.py was checked against "
            f"{CHECKED_MOTO_VERSION}; re-check the patches before changing the pin"
        )
    keep_tasks_running()
    loopback_addresses(allocator)
    explicit_network_mode()
    task_containers()
    awsvpc_network_interfaces()
    network_bindings()
    task_health()
    managed_instances()
    paginate_list_operations()
    describe_batch_limits()
    indexed_describe_tasks()
    memoised_attribute_keys()


def keep_tasks_running() -> None:
    """Gap: moto advances a task's lastStatus (RUNNING, DEACTIVATING, … STOPPED) each time DescribeTasks
    returns it, so a polled task vanishes after a few polls. A manual transition that needs more calls
    than any test makes keeps it RUNNING; StopTask still sets STOPPED at once. Re-applied by reset."""
    state_manager.set_transition("ecs::task", {"progression": "manual", "times": sys.maxsize})


def _replace(module: Any, name: str, replacement: Any) -> None:
    if not hasattr(module, name):
        raise SystemExit(f"{module.__name__}.{name} is gone: moto changed, re-check moto_patches.py")
    setattr(module, name, replacement)


def loopback_addresses(allocator: LoopbackAllocator) -> None:
    """Gap: moto invents 172.31.x (default VPC), 10.x (task ENIs) and 54.214.x (public) addresses. Tests
    send real traffic to emulated addresses and must never target a private or public range, so the
    default VPC is 127.31.0.0/16 (subnet-derived addresses follow), other VPCs must be loopback too, and
    the generators that ignore subnets hand out 127.100.x.y in order."""
    original_create_vpc = vpcs.VPCBackend.create_vpc

    def create_vpc(self: Any, cidr_block: str, *args: Any, is_default: bool = False, **kwargs: Any) -> Any:
        if is_default:
            cidr_block = DEFAULT_VPC_CIDR
        elif not ipaddress.IPv4Network(cidr_block, strict=False).subnet_of(LOOPBACK):
            raise InvalidVPCRangeError(f"{cidr_block} (the emulator accepts only 127.0.0.0/8 blocks)")
        return original_create_vpc(self, cidr_block, *args, is_default=is_default, **kwargs)

    vpcs.VPCBackend.create_vpc = create_vpc

    original_private_ip = vpcs.random_private_ip

    def random_private_ip(cidr: str | None = None, ipv6: bool = False) -> str:
        if ipv6 or (cidr and ipaddress.IPv4Network(cidr, strict=False).subnet_of(LOOPBACK)):
            return original_private_ip(cidr, ipv6=ipv6)
        return allocator.next()

    for module in (ecs_models, elastic_network_interfaces, instances, vpcs, nat_gateways):
        _replace(module, "random_private_ip", random_private_ip)
    _replace(elastic_network_interfaces, "random_public_ip", lambda: allocator.next())


def explicit_network_mode() -> None:
    """Gap: moto sets networkMode awsvpc whenever requiresCompatibilities is not ["EC2"], so an ECS
    Anywhere definition (requiresCompatibilities ["EXTERNAL"], networkMode bridge) came out awsvpc.
    An explicit networkMode is kept, and EXTERNAL is listed in compatibilities."""
    original_init = ecs_models.TaskDefinition.__init__

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        original_init(self, *args, **kwargs)
        if kwargs.get("network_mode"):
            self.network_mode = kwargs["network_mode"]
        if "EXTERNAL" in (kwargs.get("requires_compatibilities") or []):
            self.compatibilities = ["EC2", "EXTERNAL"]

    ecs_models.TaskDefinition.__init__ = init


def _wrap_task_init(after: Any) -> None:
    """Runs after(task, task_definition) once moto has built a task (RunTask and StartTask both land here)."""
    original_init = ecs_models.Task.__init__

    def init(self: Any, cluster: Any, task_definition: Any, *args: Any, **kwargs: Any) -> None:
        original_init(self, cluster, task_definition, *args, **kwargs)
        after(self, task_definition)

    ecs_models.Task.__init__ = init


def task_containers() -> None:
    """Gap: moto gives a task one container, built from the first container definition, left PENDING,
    with the task definition's ARN as its taskArn. A task now has one RUNNING container per container
    definition, each remembering its definition for the patches below."""

    def after(task: Any, task_definition: Any) -> None:
        containers = []
        for definition in task_definition.container_definitions:
            container = ecs_models.Container(task_definition)
            container.task_arn = task.task_arn
            container.last_status = "RUNNING"
            for field in ("name", "image", "memory", "environment", "command"):
                setattr(container, field, definition.get(field))
            container.cpu = definition.get("cpu", 0)
            container.proxy_definition = definition
            containers.append(container)
        task.containers = containers

    _wrap_task_init(after)


def awsvpc_network_interfaces() -> None:
    """Gap: moto puts an awsvpc task's address only in attachments[].details (privateIPv4Address);
    ECS also reports it per container in containers[].networkInterfaces[], which providers read."""

    def after(task: Any, task_definition: Any) -> None:
        if task_definition.network_mode != "awsvpc":
            return
        for attachment in task.attachments:
            details = {d["name"]: d["value"] for d in attachment["details"]}
            for container in task.containers:
                container.network_interfaces = [
                    {"attachmentId": attachment["id"], "privateIpv4Address": details["privateIPv4Address"]}
                ]

    _wrap_task_init(after)


def network_bindings() -> None:
    """Gap: moto reports no containers[].networkBindings. For bridge and host tasks they now come from
    each container's portMappings. A dynamic host port (bridge mode, hostPort 0 or absent) gets a free
    port of this host, which a test replaces with its backend's port (POST /_proxy/task-host-ports).
    bindIP is 127.0.0.1 where ECS says 0.0.0.0, so no emulated address leaves loopback."""

    def after(task: Any, task_definition: Any) -> None:
        mode = task_definition.network_mode or "bridge"
        if mode not in ("bridge", "host"):
            return
        for container in task.containers:
            bindings = []
            for mapping in container.proxy_definition.get("portMappings") or []:
                host_port = mapping.get("hostPort") or 0
                if host_port == 0:
                    host_port = mapping["containerPort"] if mode == "host" else free_loopback_port()
                bindings.append(
                    {
                        "bindIP": "127.0.0.1",
                        "containerPort": mapping["containerPort"],
                        "hostPort": host_port,
                        "protocol": mapping.get("protocol", "tcp"),
                    }
                )
            container.network_bindings = bindings

    _wrap_task_init(after)


def set_task_health(task: Any, status: str) -> None:
    if status not in HEALTH_STATUSES:
        raise ValueError(f"healthStatus must be one of {HEALTH_STATUSES}, not {status!r}")
    task.health_status = status
    for container in task.containers:
        checked = "healthCheck" in getattr(container, "proxy_definition", {})
        container.health_status = status if checked else "UNKNOWN"


def task_health() -> None:
    """Gap: moto has no task healthStatus and calls every container HEALTHY. As in ECS, a task whose
    containers define a healthCheck is HEALTHY once running (after its first checks, on AWS) and a task
    without one is UNKNOWN; tests change it with POST /_proxy/task-health."""

    def after(task: Any, task_definition: Any) -> None:
        checked = any("healthCheck" in d for d in task_definition.container_definitions)
        set_task_health(task, "HEALTHY" if checked else "UNKNOWN")

    _wrap_task_init(after)


def managed_instances_of(ssm_backend: Any) -> dict[str, dict[str, Any]]:
    """Managed instances live on moto's SSM backend, so moto's own reset clears them too."""
    return ssm_backend.__dict__.setdefault("proxy_managed_instances", {})


def register_managed_instance(ssm_backend: Any, instance_id: str, ip: str, ping_status: str) -> dict[str, Any]:
    if not instance_id.startswith("mi-"):
        raise ValueError(f"managed instance ids start with mi-, not {instance_id!r}")
    now = datetime.now(timezone.utc)
    info = {
        "InstanceId": instance_id,
        "PingStatus": ping_status,
        "LastPingDateTime": now,
        "AgentVersion": "3.3.0",
        "IsLatestVersion": True,
        "PlatformType": "Linux",
        "PlatformName": "Debian GNU/Linux",
        "ResourceType": "ManagedInstance",
        "IPAddress": require_loopback(ip),
        "ComputerName": f"{instance_id}.local",
        "RegistrationDate": now,
        "SourceId": instance_id,
        "SourceType": "AWS::SSM::ManagedInstance",
    }
    managed_instances_of(ssm_backend)[instance_id] = info
    return info


def managed_instances() -> None:
    """Gap: moto has no ssm:DescribeInstanceInformation, and RegisterContainerInstance with an ECS
    Anywhere id (mi-…) fails because moto looks the id up among EC2 instances. Managed instances are
    registered with POST /_proxy/managed-instances; DescribeInstanceInformation lists them (filters
    InstanceIds and PingStatus, MaxResults 5-50, default 10, as SSM); and an mi- container instance is
    built without EC2 attributes."""
    original_get_instance = instances.InstanceBackend.get_instance

    def get_instance(self: Any, instance_id: str) -> Any:
        if instance_id.startswith("mi-"):
            # Only ContainerInstance asks for an mi- id; it reads these four fields.
            return SimpleNamespace(image_id=None, availability_zone=None, instance_type=None, platform=None)
        return original_get_instance(self, instance_id)

    instances.InstanceBackend.get_instance = get_instance

    original_container_instance_init = ecs_models.ContainerInstance.__init__

    def container_instance_init(self: Any, ec2_instance_id: str, *args: Any, **kwargs: Any) -> None:
        original_container_instance_init(self, ec2_instance_id, *args, **kwargs)
        if ec2_instance_id.startswith("mi-"):
            self.attributes = {k: v for k, v in self.attributes.items() if v is not None}
            self.attributes["ecs.capability.external"] = ""

    ecs_models.ContainerInstance.__init__ = container_instance_init

    def describe_instance_information(self: Any) -> ActionResult:
        wanted: dict[str, list[str]] = {}
        for f in self._get_param("InstanceInformationFilterList") or []:
            wanted[f["key"]] = f["valueSet"]
        for f in self._get_param("Filters") or []:
            wanted[f["Key"]] = f["Values"]
        unsupported = set(wanted) - {"InstanceIds", "PingStatus"}
        if unsupported:
            raise ValidationException(f"the emulator does not filter on {sorted(unsupported)}")
        max_results = int(self._get_param("MaxResults") or 10)
        if not 5 <= max_results <= 50:
            raise ValidationException("MaxResults must be between 5 and 50")
        start = int(self._get_param("NextToken") or 0)

        matching = [
            info
            for info in managed_instances_of(self.ssm_backend).values()
            if info["InstanceId"] in wanted.get("InstanceIds", [info["InstanceId"]])
            and info["PingStatus"] in wanted.get("PingStatus", [info["PingStatus"]])
        ]
        result: dict[str, Any] = {"InstanceInformationList": matching[start : start + max_results]}
        if start + max_results < len(matching):
            result["NextToken"] = str(start + max_results)
        return ActionResult(result)

    SimpleSystemManagerResponse.describe_instance_information = describe_instance_information


def paginate_list_operations() -> None:
    """Gap: moto returns every ARN in one ListClusters / ListTasks page. ECS pages them (maxResults
    1-100, default 100, nextToken), and a provider that ignores nextToken silently loses everything past
    the first page, so the emulator pages like ECS (moto's own paginator, driven by botocore's model)."""
    for name in ("list_clusters", "list_tasks"):
        original = getattr(EC2ContainerServiceResponse, name)

        def paged(self: Any, _original: Any = original) -> ActionResult:
            max_results = self._get_param("maxResults")
            if max_results is not None and not 1 <= int(max_results) <= ECS_BATCH_LIMIT:
                raise InvalidParameterException("maxResults must be between 1 and 100")
            return PaginatedResult(_original(self).result)

        setattr(EC2ContainerServiceResponse, name, paged)


def describe_batch_limits() -> None:
    """Gap: moto describes any number of tasks or container instances in one call; ECS takes at most
    100, so a provider that forgets to chunk fails here as it would on AWS."""
    for name, param in (("describe_tasks", "tasks"), ("describe_container_instances", "containerInstances")):
        original = getattr(EC2ContainerServiceResponse, name)

        def limited(self: Any, _original: Any = original, _param: str = param) -> ActionResult:
            if len(self._get_param(_param) or []) > ECS_BATCH_LIMIT:
                raise InvalidParameterException(f"{_param} can have at most {ECS_BATCH_LIMIT} items")
            return _original(self)

        setattr(EC2ContainerServiceResponse, name, limited)


def indexed_describe_tasks() -> None:
    """Speed only (same answers): moto's DescribeTasks tests every task of every cluster against every ARN
    asked (substring tests on each), 100,000 tests for 100 tasks asked among 1,000. The same tasks, in the
    same order, come from set lookups: a task matches when its ARN, or its id (the ARN's last segment), is
    among those asked. moto's lookup ignores the cluster, and so does this one."""

    def describe_tasks(self: Any, cluster_str: str, tasks: list[str]) -> list[Any]:
        self._get_cluster(cluster_str)
        if not tasks:
            raise InvalidParameterException("Tasks cannot be empty.")
        asked = set(tasks)
        ids = {t.rsplit("/", 1)[-1] for t in tasks}
        response = []
        for cluster_tasks in self.tasks.values():
            for task_arn, task in cluster_tasks.items():
                if task_arn in asked or task_arn.rsplit("/", 1)[-1] in ids:
                    task.advance()
                    response.append(task)
        return response

    _replace(ecs_models.EC2ContainerServiceBackend, "describe_tasks", describe_tasks)


def memoised_attribute_keys() -> None:
    """Speed only (same answers): moto's response serializer asks six alias providers, for every field of
    every object it writes, which attribute names to try; that is most of a DescribeTasks of 100 tasks. The
    answer depends only on the field's shape (its parent structure included), the object's class and the
    field name, so it is kept on the shape object, per picker configuration, class and name."""
    original = serialize.XFormedAttributePicker.get_possible_keys

    def get_possible_keys(self: Any, context: Any) -> Any:
        shape = context.shape
        if shape is None:
            return original(self, context)
        memo = shape.__dict__.setdefault("_proxy_possible_keys", {})
        key = (tuple(self.alias_providers), type(context.obj), context.key)
        keys = memo.get(key)
        if keys is None:
            keys = memo[key] = list(original(self, context))
        return keys

    serialize.XFormedAttributePicker.get_possible_keys = get_possible_keys
