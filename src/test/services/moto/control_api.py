"""The test control API: JSON routes under /_proxy/ on the emulator's own port, plus the per-operation
call counter and the fault switch. Documented in README.md; dev.proxy.testing.aws.MotoServer calls it."""

from __future__ import annotations

import json
import threading
import warnings
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any, Callable

from moto.core import DEFAULT_ACCOUNT_ID
from moto.core.exceptions import ServiceException
from moto.core.responses import ActionResult, BaseResponse
from moto.ec2.models import ec2_backends
from moto.ecs.models import ecs_backends
from moto.moto_api._internal.models import moto_api_backend
from moto.ssm.models import ssm_backends
from werkzeug.exceptions import HTTPException, MethodNotAllowed, NotFound
from werkzeug.wrappers import Request, Response

import moto_patches

# What each service calls throttling; the SDKs retry these codes with back-off.
THROTTLING_CODES = {"ec2": "RequestLimitExceeded"}
DEFAULT_THROTTLING_CODE = "ThrottlingException"


class EmulatedFault(ServiceException):
    """Defined outside moto's packages so moto serializes it with the called service's error model."""


@dataclass
class Fault:
    code: str
    status: int
    message: str
    remaining: int | None  # None: until cleared


class Calls:
    """Counts every AWS operation served, by "service:Operation" (IAM action style), failed ones included."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: Counter[str] = Counter()
        self._faults: dict[str, Fault] = {}

    def record(self, operation: str) -> Fault | None:
        with self._lock:
            self._counts[operation] += 1
            fault = self._faults.get(operation)
            if fault and fault.remaining is not None:
                fault.remaining -= 1
                if fault.remaining <= 0:
                    del self._faults[operation]
            return fault

    def counts(self) -> dict[str, int]:
        with self._lock:
            return dict(sorted(self._counts.items()))

    def reset_counts(self) -> None:
        with self._lock:
            self._counts.clear()

    def fail(self, operation: str, fault: Fault) -> None:
        with self._lock:
            self._faults[operation] = fault

    def faults(self) -> dict[str, dict[str, Any]]:
        with self._lock:
            return {op: asdict(f) for op, f in self._faults.items()}

    def clear_faults(self, operation: str | None) -> None:
        with self._lock:
            if operation is None:
                self._faults.clear()
            else:
                self._faults.pop(operation, None)


def install_call_accounting(calls: Calls) -> None:
    """Wraps moto's single entry point for AWS operations: count the call, then fail it if a fault is
    set. The error goes through moto's serializer, so each protocol gets its own error shape."""
    original_call_action = BaseResponse.call_action
    # An emulated code (ThrottlingException on ECS) need not be in the service's error model.
    warnings.filterwarnings("ignore", message=r"Exception\(EmulatedFault\)")

    def call_action(self: BaseResponse) -> Any:
        operation = f"{self.service_name}:{self._get_action()}"
        fault = calls.record(operation)
        if fault is None:
            return original_call_action(self)
        status, headers, body = self.serialized(ActionResult(EmulatedFault(fault.code, fault.message)))
        headers, body = self._enrich_response(headers, body)
        headers["status"] = str(fault.status)
        return fault.status, headers, body

    BaseResponse.call_action = call_action


def _find_task(ref: str) -> Any:
    task_id = ref.rsplit("/", 1)[-1]
    for regions in ecs_backends.values():
        for backend in regions.values():
            for tasks in backend.tasks.values():
                for task in tasks.values():
                    if task.id == task_id:
                        return task
    raise NotFound(f"no task {ref}")


def _find_container(task: Any, name: str | None) -> list[Any]:
    if name is None:
        return task.containers
    found = [c for c in task.containers if c.name == name]
    if not found:
        raise NotFound(f"task {task.id} has no container {name}")
    return found


def _find_instance(instance_id: str) -> Any:
    for regions in ec2_backends.values():
        for backend in regions.values():
            for instance in backend.all_instances():
                if instance.id == instance_id:
                    return instance
    raise NotFound(f"no EC2 instance {instance_id}")


def _set_eni_address(eni: Any, ip: str) -> None:
    eni.private_ip_address = ip
    eni.private_ip_addresses = [{"Primary": True, "PrivateIpAddress": ip}]
    if getattr(eni, "private_dns_name", None):
        eni.private_dns_name = "ip-" + ip.replace(".", "-") + ".ec2.internal"
        eni.private_ip_addresses[0]["PrivateDnsName"] = eni.private_dns_name


class ControlApi:
    """WSGI middleware: /_proxy/... is ours, everything else goes to moto."""

    def __init__(self, moto_app: Callable[..., Any], calls: Calls, moto_version: str) -> None:
        self._moto_app = moto_app
        self._calls = calls
        self._moto_version = moto_version
        self._routes: dict[tuple[str, str], Callable[[dict[str, Any]], Any]] = {
            ("GET", "/_proxy/health"): lambda _: {"ok": True, "moto": self._moto_version},
            ("POST", "/_proxy/reset"): self._reset,
            ("GET", "/_proxy/calls"): lambda _: self._calls.counts(),
            ("POST", "/_proxy/calls/reset"): self._reset_counts,
            ("GET", "/_proxy/faults"): lambda _: self._calls.faults(),
            ("POST", "/_proxy/faults"): self._fail,
            ("POST", "/_proxy/faults/clear"): self._clear_faults,
            ("POST", "/_proxy/task-health"): self._task_health,
            ("POST", "/_proxy/task-ip"): self._task_ip,
            ("POST", "/_proxy/task-host-ports"): self._task_host_ports,
            ("POST", "/_proxy/instance-ip"): self._instance_ip,
            ("POST", "/_proxy/managed-instances"): self._managed_instance,
        }

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if not environ.get("PATH_INFO", "").startswith("/_proxy/"):
            return self._moto_app(environ, start_response)
        request = Request(environ)
        try:
            route = self._routes.get((request.method, request.path))
            if route is None:
                if any(path == request.path for _, path in self._routes):
                    raise MethodNotAllowed()
                raise NotFound(f"no control route {request.method} {request.path}")
            body = request.get_json(force=True, silent=False) if request.content_length else {}
            response = Response(json.dumps(route(body or {})), content_type="application/json")
        except HTTPException as error:
            response = Response(json.dumps({"error": error.description}), error.code, content_type="application/json")
        except (KeyError, ValueError, TypeError) as error:
            response = Response(json.dumps({"error": f"bad request: {error!r}"}), 400, content_type="application/json")
        return response(environ, start_response)

    def _reset(self, _: dict[str, Any]) -> dict[str, Any]:
        moto_api_backend.reset()
        moto_patches.keep_tasks_running()
        self._calls.reset_counts()
        self._calls.clear_faults(None)
        return {"reset": True}

    def _reset_counts(self, _: dict[str, Any]) -> dict[str, Any]:
        self._calls.reset_counts()
        return {}

    def _fail(self, body: dict[str, Any]) -> dict[str, Any]:
        operation = body["operation"]
        service = operation.split(":", 1)[0]
        times = body.get("times")
        fault = Fault(
            code=body.get("code") or THROTTLING_CODES.get(service, DEFAULT_THROTTLING_CODE),
            status=int(body.get("status", 400)),
            message=body.get("message", "Rate exceeded (emulated fault)"),
            remaining=int(times) if times is not None else None,
        )
        self._calls.fail(operation, fault)
        return self._calls.faults()

    def _clear_faults(self, body: dict[str, Any]) -> dict[str, Any]:
        self._calls.clear_faults(body.get("operation"))
        return self._calls.faults()

    def _task_health(self, body: dict[str, Any]) -> dict[str, Any]:
        task = _find_task(body["task"])
        moto_patches.set_task_health(task, body["healthStatus"])
        return {"task": task.task_arn, "healthStatus": task.health_status}

    def _task_ip(self, body: dict[str, Any]) -> dict[str, Any]:
        task = _find_task(body["task"])
        ip = moto_patches.require_loopback(body["ip"])
        containers = _find_container(task, body.get("container"))
        if not all(getattr(c, "network_interfaces", None) for c in containers):
            raise ValueError(f"task {task.id} is not an awsvpc task")
        for container in containers:
            for interface in container.network_interfaces:
                interface["privateIpv4Address"] = ip
        if body.get("container") is None:
            # The whole task moved: keep the attachment and its ENI consistent with the containers.
            for attachment in task.attachments:
                for detail in attachment["details"]:
                    if detail["name"] == "privateIPv4Address":
                        detail["value"] = ip
                    if detail["name"] == "networkInterfaceId":
                        eni_id = detail["value"]
                        for regions in ec2_backends.values():
                            for backend in regions.values():
                                if eni_id in backend.enis:
                                    _set_eni_address(backend.enis[eni_id], ip)
        return {"task": task.task_arn, "ip": ip}

    def _task_host_ports(self, body: dict[str, Any]) -> dict[str, Any]:
        task = _find_task(body["task"])
        wanted = {int(k): int(v) for k, v in body["hostPorts"].items()}
        changed = 0
        for container in _find_container(task, body.get("container")):
            for binding in getattr(container, "network_bindings", []):
                if binding["containerPort"] in wanted:
                    binding["hostPort"] = wanted[binding["containerPort"]]
                    changed += 1
        if changed == 0:
            raise ValueError(f"task {task.id} has no network binding for container ports {sorted(wanted)}")
        return {"task": task.task_arn, "changed": changed}

    def _instance_ip(self, body: dict[str, Any]) -> dict[str, Any]:
        instance = _find_instance(body["instanceId"])
        ip = moto_patches.require_loopback(body["ip"])
        _set_eni_address(instance.nics[0], ip)
        return {"instanceId": instance.id, "ip": instance.private_ip_address}

    def _managed_instance(self, body: dict[str, Any]) -> dict[str, Any]:
        ssm_backend = ssm_backends[body.get("account", DEFAULT_ACCOUNT_ID)][body.get("region", "us-east-1")]
        info = moto_patches.register_managed_instance(
            ssm_backend, body["instanceId"], body["ip"], body.get("pingStatus", "Online")
        )
        return {"instanceId": info["InstanceId"], "ip": info["IPAddress"], "pingStatus": info["PingStatus"]}
