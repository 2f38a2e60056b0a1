#!/usr/bin/env python3
"""Analysis half of throughput.sh (standard library only).

bodies:  check that a target serves both bodies whole (wrk only counts statuses).
record:  parse one wrk --latency output, append it as a JSON line, print the per-run line.
summary: medians per (target, concurrency, body), the issue's target checks, optional Markdown table.
"""
import argparse
import json
import re
import statistics
import sys
import urllib.request
from collections import defaultdict

TARGETS = ["direct", "nginx", "haproxy", "proxy", "proxy-ops"]
THROUGHPUT_TARGET = 0.9   # proxy req/s >= 0.9 x nginx req/s
CPU_TARGET = 1.3          # proxy CPU ratio <= 1.3 x nginx CPU ratio
OPS_TARGET = 0.9          # with metrics and access log on (proxy-ops), >= 0.9 x proxy's throughput
UNIT_US = {"us": 1.0, "ms": 1e3, "s": 1e6, "m": 60e6, "h": 3600e6}


def to_us(text):
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m|h)", text).groups()
    return float(number) * UNIT_US[unit]


def parse_wrk(text):
    """The figures we use from wrk's output; missing ones (wrk failed) stay None / zero."""
    def find(pattern, default=None):
        m = re.search(pattern, text, re.MULTILINE)
        return m.groups() if m else default

    rps = find(r"^Requests/sec:\s+([\d.]+)")
    requests = find(r"^\s*(\d+) requests in")
    p50 = find(r"^\s+50%\s+(\S+)")
    p99 = find(r"^\s+99%\s+(\S+)")
    sock = find(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", ("0",) * 4)
    # wrk counts status >= 400 here (its "Non-2xx or 3xx"); a 3xx from a proxy would be a bug we'd see in rps.
    non2xx = find(r"Non-2xx or 3xx responses: (\d+)", ("0",))
    return {
        "rps": float(rps[0]) if rps else 0.0,
        "requests": int(requests[0]) if requests else 0,
        "p50_us": to_us(p50[0]) if p50 else None,
        "p99_us": to_us(p99[0]) if p99 else None,
        "non2xx": int(non2xx[0]),
        "socket_errors": sum(int(x) for x in sock),
        "ok": rps is not None,
    }


def load(path):
    try:
        with open(path) as f:
            return [json.loads(line) for line in f if line.strip()]
    except FileNotFoundError:
        return []


def fmt_us(us):
    return "-" if us is None else (f"{us / 1000:.2f}ms" if us >= 1000 else f"{us:.0f}us")


def fmt(x, spec=".2f"):
    return "-" if x is None else format(x, spec)


def record(args):
    with open(args.wrk) as f:
        run = parse_wrk(f.read())
    run.update(rep=args.rep, target=args.target, conc=args.conc, body=args.body)
    run["ok"] = run["ok"] and not args.target_exited
    n = run["requests"]
    # CPU-µs per request: ticks / CLK_TCK seconds, spread over the requests of this run.
    per_req = (lambda ticks: ticks / args.clk_tck * 1e6 / n if n and run["ok"] else None)
    run["proxy_us"] = None if args.target == "direct" else per_req(args.proxy_ticks)
    run["backend_us"] = per_req(args.backend_ticks)
    run["cpu_ratio"] = (run["proxy_us"] / run["backend_us"]
                        if run["proxy_us"] is not None and run["backend_us"] else None)
    direct = [r for r in load(args.results)
              if r["target"] == "direct" and (r["rep"], r["conc"], r["body"]) == (args.rep, args.conc, args.body)]
    run["vs_direct"] = run["rps"] / direct[0]["rps"] if direct and direct[0]["rps"] else None
    with open(args.results, "a") as f:
        f.write(json.dumps(run) + "\n")
    errors = run["non2xx"] + run["socket_errors"]
    vs = "" if args.target == "direct" else f"x{fmt(run['vs_direct'])} direct"
    print(f"rep {run['rep']} {run['target']:<8} c={run['conc']:<3} {run['body']:<5} "
          f"{run['rps']:>9.0f} req/s {vs:<12} "
          f"p50 {fmt_us(run['p50_us']):>7} p99 {fmt_us(run['p99_us']):>7}  "
          f"errors {errors}{'' if run['ok'] else ' (FAILED RUN)'}  CPU us/req proxy {fmt(run['proxy_us'])} "
          f"backend {fmt(run['backend_us'])} ratio {fmt(run['cpu_ratio'])}", flush=True)


def bodies(args):
    """Exit non-zero unless / and /10k answer 200 with the backend's exact body sizes."""
    for path, size in (("/", 3), ("/10k", 10240)):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{args.port}{path}", timeout=5) as r:
                status, got = r.status, len(r.read())
        except Exception as e:  # HTTPError for non-2xx, URLError, timeouts
            sys.exit(f"GET {path}: {e}")
        if status != 200 or got != size:
            sys.exit(f"GET {path}: status {status}, {got} bytes, expected 200 and {size} bytes")


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def summarize(runs):
    """One row of medians per (target, conc, body), in a stable order."""
    cells = defaultdict(list)
    for r in runs:
        cells[(r["target"], r["conc"], r["body"])].append(r)
    rows = []
    for (target, conc, body), rs in sorted(cells.items(),
                                           key=lambda kv: (kv[0][1], kv[0][2] != "small", TARGETS.index(kv[0][0]))):
        rows.append({
            "target": target, "conc": conc, "body": body, "runs": len(rs),
            "rps": median(r["rps"] for r in rs), "vs_direct": median(r["vs_direct"] for r in rs),
            "p50_us": median(r["p50_us"] for r in rs), "p99_us": median(r["p99_us"] for r in rs),
            "errors": sum(r["non2xx"] + r["socket_errors"] for r in rs),
            "failed": sum(not r["ok"] for r in rs),
            "proxy_us": median(r["proxy_us"] for r in rs), "backend_us": median(r["backend_us"] for r in rs),
            "cpu_ratio": median(r["cpu_ratio"] for r in rs),
        })
    return rows


def checks(runs, rows):
    """The issue's targets, per (conc, body): (status, text) lines."""
    by_cell = {(r["target"], r["conc"], r["body"]): r for r in rows}
    out = []
    for conc, body in sorted({(r["conc"], r["body"]) for r in rows}, key=lambda cb: (cb[0], cb[1] != "small")):
        cell = f"c={conc} {body}"
        ours, nginx = by_cell.get(("proxy", conc, body)), by_cell.get(("nginx", conc, body))
        if not ours or not nginx:
            out.append(("SKIP", f"{cell}: {'nginx' if ours else 'proxy'} not measured"))
            continue
        # Throughput: proxy/nginx paired within each rep (both ran seconds apart), then the median.
        per_rep = {}
        for r in runs:
            if (r["conc"], r["body"]) == (conc, body) and r["target"] in ("proxy", "nginx"):
                per_rep.setdefault(r["rep"], {})[r["target"]] = r["rps"]
        ratio = median(p["proxy"] / p["nginx"] for p in per_rep.values() if p.get("nginx") and "proxy" in p)
        ok = ratio is not None and ratio >= THROUGHPUT_TARGET and ours["failed"] == 0
        out.append(("PASS" if ok else "FAIL",
                    f"{cell}: throughput proxy/nginx = {fmt(ratio)} (target >= {THROUGHPUT_TARGET})"))
        rel = ours["cpu_ratio"] / nginx["cpu_ratio"] if ours["cpu_ratio"] and nginx["cpu_ratio"] else None
        ok = rel is not None and rel <= CPU_TARGET
        out.append(("PASS" if ok else "FAIL",
                    f"{cell}: CPU ratio proxy {fmt(ours['cpu_ratio'])} vs nginx {fmt(nginx['cpu_ratio'])}"
                    f" = {fmt(rel)}x (target <= {CPU_TARGET}x)"))
        ok = ours["errors"] == 0 and ours["failed"] == 0
        out.append(("PASS" if ok else "FAIL", f"{cell}: proxy errors {ours['errors']}, failed runs {ours['failed']}"
                                              f" (target 0)"))
        out.extend(ops_checks(runs, by_cell, conc, body))
    return out


def ops_checks(runs, by_cell, conc, body):
    """proxy-ops (metrics and access log on) against proxy (off), paired within each rep."""
    cell = f"c={conc} {body}"
    ops, plain = by_cell.get(("proxy-ops", conc, body)), by_cell.get(("proxy", conc, body))
    if not ops or not plain:
        return []
    per_rep = {}
    for r in runs:
        if (r["conc"], r["body"]) == (conc, body) and r["target"] in ("proxy", "proxy-ops"):
            per_rep.setdefault(r["rep"], {})[r["target"]] = r["rps"]
    ratio = median(p["proxy-ops"] / p["proxy"] for p in per_rep.values() if p.get("proxy") and "proxy-ops" in p)
    ok = ratio is not None and ratio >= OPS_TARGET and ops["failed"] == 0 and ops["errors"] == 0
    cpu = ops["proxy_us"] / plain["proxy_us"] if ops["proxy_us"] and plain["proxy_us"] else None
    return [("PASS" if ok else "FAIL",
             f"{cell}: throughput with metrics + access log / without = {fmt(ratio)} (target >= {OPS_TARGET});"
             f" proxy CPU us/req {fmt(ops['proxy_us'])} vs {fmt(plain['proxy_us'])} = {fmt(cpu)}x")]


COLUMNS = ["target", "c", "body", "req/s", "x direct", "p50", "p99", "errors",
           "proxy CPU us/req", "backend CPU us/req", "CPU ratio", "runs"]


def cells(row):
    return [row["target"], str(row["conc"]), row["body"], fmt(row["rps"], ".0f"), fmt(row["vs_direct"]),
            fmt_us(row["p50_us"]), fmt_us(row["p99_us"]), str(row["errors"]),
            fmt(row["proxy_us"]), fmt(row["backend_us"]), fmt(row["cpu_ratio"]), str(row["runs"])]


def summary(args):
    runs = load(args.results)
    rows = summarize(runs)
    table = [COLUMNS] + [cells(r) for r in rows]
    widths = [max(len(line[i]) for line in table) for i in range(len(COLUMNS))]
    print(f"\n== medians ({args.title})")
    for line in table:
        print("  ".join(v.rjust(w) if i > 2 else v.ljust(w) for i, (v, w) in enumerate(zip(line, widths))))
    verdicts = checks(runs, rows)
    print("\n== targets (issue 3): proxy >= 0.9 x nginx throughput, CPU ratio <= 1.3 x nginx's, zero errors")
    for status, text in verdicts:
        print(f"{status} {text}")
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(f"Medians ({args.title}). CPU ratio = proxy CPU-us/request / backend CPU-us/request.\n\n")
            f.write("| " + " | ".join(COLUMNS) + " |\n|" + "|".join("---" for _ in COLUMNS) + "|\n")
            for row in rows:
                f.write("| " + " | ".join(cells(row)) + " |\n")
            f.write("\n" + "".join(f"- {status} {text}\n" for status, text in verdicts))
        print(f"\nMarkdown table written to {args.markdown}")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("--results", required=True)
    rec.add_argument("--wrk", required=True)
    rec.add_argument("--rep", type=int, required=True)
    rec.add_argument("--target", required=True, choices=TARGETS)
    rec.add_argument("--conc", type=int, required=True)
    rec.add_argument("--body", required=True)
    rec.add_argument("--clk-tck", type=int, required=True)
    rec.add_argument("--proxy-ticks", type=int, required=True)
    rec.add_argument("--backend-ticks", type=int, required=True)
    rec.add_argument("--target-exited", action="store_true", help="the target died during the run")
    summ = sub.add_parser("summary")
    summ.add_argument("--results", required=True)
    summ.add_argument("--title", default="")
    summ.add_argument("--markdown")
    sub.add_parser("bodies").add_argument("--port", type=int, required=True)
    args = parser.parse_args(argv)
    {"record": record, "summary": summary, "bodies": bodies}[args.command](args)


if __name__ == "__main__":
    main(sys.argv[1:])
