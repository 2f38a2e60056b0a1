"""Starts the patched moto server (ECS/EC2/SSM emulator) on 127.0.0.1 and a free port.

    python launcher.py --workdir DIR [--port N] [--exit-on-stdin-eof] [--verbose]

Once listening it writes DIR/moto.env (AWS_ENDPOINT_URL, fake credentials, region, MOTO_PID), prints
"moto ready <endpoint>" and serves until SIGTERM/SIGINT (or, with --exit-on-stdin-eof, until its
stdin closes, so a crashed parent JVM never leaves it behind). moto.env is removed on exit.
Run it with the virtualenv python printed by setup.sh. See README.md for the control API.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import signal
import sys
import threading
from pathlib import Path

import moto
from moto.moto_server.werkzeug_app import DomainDispatcherApplication, MotoRequestHandler, create_backend_app
from werkzeug.serving import make_server

import control_api
import moto_patches

# Fake, fixed credentials: moto checks no signature, and real ones must never reach a test.
FAKE_ACCESS_KEY_ID = "AKIAPROXYTESTFAKE000"
FAKE_SECRET_ACCESS_KEY = "proxy-test-fake-secret"
REGION = "us-east-1"


class QuietRequestHandler(MotoRequestHandler):
    """A benchmark makes thousands of calls; per-request lines would drown the log (see --verbose)."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        pass


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workdir", required=True, type=Path, help="where moto.env is written")
    parser.add_argument("--port", type=int, default=0, help="0 (default) picks a free port")
    parser.add_argument("--host", default="127.0.0.1", help="loopback only, except inside a container")
    parser.add_argument("--exit-on-stdin-eof", action="store_true", help="stop when stdin closes")
    parser.add_argument("--verbose", action="store_true", help="log every request")
    return parser.parse_args()


def check_host(host: str) -> None:
    # Tests must never listen beyond loopback. A container's own 0.0.0.0 is only reachable through
    # the port its engine publishes, so the Testcontainers path may ask for it explicitly.
    if ipaddress.ip_address(host).is_loopback:
        return
    if host == "0.0.0.0" and os.environ.get("PROXY_MOTO_IN_CONTAINER") == "1":
        return
    raise SystemExit(f"refusing to listen on {host}: the emulator binds loopback only")


def write_env(workdir: Path, endpoint: str) -> Path:
    workdir.mkdir(parents=True, exist_ok=True)
    env_file = workdir / "moto.env"
    lines = [
        f"AWS_ENDPOINT_URL={endpoint}",
        f"AWS_ACCESS_KEY_ID={FAKE_ACCESS_KEY_ID}",
        f"AWS_SECRET_ACCESS_KEY={FAKE_SECRET_ACCESS_KEY}",
        f"AWS_REGION={REGION}",
        f"AWS_DEFAULT_REGION={REGION}",
        f"MOTO_PID={os.getpid()}",
    ]
    partial = workdir / "moto.env.partial"
    partial.write_text("\n".join(lines) + "\n")
    # Readers poll for moto.env: the rename makes it appear complete or not at all.
    partial.replace(env_file)
    return env_file


def main() -> None:
    args = parse_args()
    check_host(args.host)
    moto_patches.apply(moto_patches.LoopbackAllocator())
    calls = control_api.Calls()
    control_api.install_call_accounting(calls)

    app = control_api.ControlApi(DomainDispatcherApplication(create_backend_app), calls, moto.__version__)
    handler = MotoRequestHandler if args.verbose else QuietRequestHandler
    server = make_server(args.host, args.port, app, threaded=True, request_handler=handler)

    def stop(*_: object) -> None:
        # shutdown() waits for serve_forever() to return, so it cannot run on the serving thread.
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    if args.exit_on_stdin_eof:
        threading.Thread(target=lambda: (sys.stdin.read(), stop()), daemon=True).start()

    endpoint = f"http://{args.host}:{server.server_port}"
    env_file = write_env(args.workdir, endpoint)
    print(f"moto ready {endpoint} (moto {moto.__version__}, pid {os.getpid()})", flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()
        env_file.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
