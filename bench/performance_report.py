#!/usr/bin/env python3
"""Turns the raw figures of bench/run.sh into bench/out/results.json and docs/performance.md.

Usage: performance_report.py RAW_DIR RESULTS_JSON PERFORMANCE_MD WRK_SETUP RUNS STARTS LIBRARY_RUNS
(bench/run.sh calls it; run by hand only to re-render the same raw figures).
"""
import datetime
import json
import os
import statistics
import sys

raw, results_path, md_path, wrk_setup = sys.argv[1:5]
runs_per, starts_per, library_runs = (int(a) for a in sys.argv[5:8])


def lines(name):
    path = os.path.join(raw, name)
    return [json.loads(l) for l in open(path) if l.strip()] if os.path.exists(path) else []


def text(name):
    return open(os.path.join(raw, name)).read().strip()


env = dict(l.split("=", 1) for l in text("env.txt").splitlines() if "=" in l)
starts, rss, runs, library = lines("starts.jsonl"), lines("rss.jsonl"), lines("runs.jsonl"), lines("library.jsonl")
million = json.load(open(os.path.join(raw, "million.json")))["requests"]
SERVERS = ["spotcheck", "pact", "nginx"]
NAMES = {"spotcheck": "SpotCheck", "pact": "Pact stub", "nginx": "nginx static", "pact-min": "Pact stub, 3-interaction pact"}

start_ms = {s: statistics.median(x["ms"] for x in starts if x["server"] == s) for s in SERVERS}
rss_mib = {(x["server"], x["phase"]): x["kib"] / 1024 for x in rss}
rss_processes = {(x["server"], x["phase"]): x["processes"] for x in rss}
million_phase = next(p for (s, p) in rss_mib if s == "spotcheck" and p.startswith("after-") and p != "after-load")


def load(server, bench):
    chosen = [r for r in runs if r["server"] == server and r["benchmark"] == bench]
    if not chosen:
        return None
    return {
        "runs": len(chosen),
        "rps": statistics.median(r["rps"] for r in chosen),
        "p50_ms": statistics.median(r["p50_ms"] for r in chosen),
        "p99_ms": statistics.median(r["p99_ms"] for r in chosen),
        "requests": sum(r["requests"] for r in chosen),
        "non2xx": sum(r["non2xx"] for r in chosen),
        "errors": sum(r["errors"] for r in chosen),
    }


figures = {s: {b: load(s, b) for b in ("get", "create")} for s in SERVERS + ["pact-min"]}
lib = {}
for mode in ("in-process", "external-client", "one-job"):
    times = [x["seconds"] for x in library if x["mode"] == mode]
    if times:
        seconds = statistics.median(times)
        lib[mode] = {"seconds": round(seconds, 2), "scenariosPerSecond": round(int(env["scenarios"]) / seconds, 1), "runs": times}


def ratio(a, b):
    return a / b if a is not None and b else None


spot, pact, nginx, pact_min = (figures[s] for s in SERVERS + ["pact-min"])
small = " ({:.2f}× against the 3-interaction pact)"
targets = [
    ("GET by id ≥ 2× Pact stub (req/s)", ratio(spot["get"]["rps"], pact["get"]["rps"]), lambda r: r >= 2,
     "{:.2f}×" + small.format(ratio(spot["get"]["rps"], pact_min["get"]["rps"]))),
    ("GET by id ≥ 60 % of nginx static (req/s)", ratio(spot["get"]["rps"], nginx["get"]["rps"]), lambda r: r >= 0.6, "{:.0%}"),
    ("POST create ≥ 2× Pact stub (req/s)", ratio(spot["create"]["rps"], pact["create"]["rps"]), lambda r: r >= 2,
     "{:.2f}×" + small.format(ratio(spot["create"]["rps"], pact_min["create"]["rps"]))),
    ("start → first answer no slower than Pact's", ratio(start_ms["spotcheck"], start_ms["pact"]), lambda r: r <= 1,
     "{:.2f}× Pact's time (" + f"{start_ms['spotcheck']:.1f} vs {start_ms['pact']:.1f} ms)"),
    ("RSS ≤ 30 MiB at ready", rss_mib[("spotcheck", "ready")], lambda m: m <= 30, "{:.1f} MiB"),
    (f"RSS ≤ 64 MiB after one million requests ({million:,} sent)", rss_mib[("spotcheck", million_phase)], lambda m: m <= 64, "{:.1f} MiB"),
    (f"p99 ≤ 5 ms at {wrk_setup.split('-c')[1].split()[0]} connections, GET by id", spot["get"]["p99_ms"], lambda m: m <= 5, "{:.2f} ms"),
    (f"p99 ≤ 5 ms at {wrk_setup.split('-c')[1].split()[0]} connections, POST create", spot["create"]["p99_ms"], lambda m: m <= 5, "{:.2f} ms"),
]
target_rows = [{"target": t, "figure": fmt.format(v), "met": bool(ok(v))} for t, v, ok, fmt in targets]

results = {
    "generated": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    "setup": {"wrk": wrk_setup, "runsPerFigure": runs_per, "startsPerServer": starts_per, "libraryRuns": library_runs},
    "environment": env,
    "loadAverage": {"start": text("load-start.txt"), "end": text("load-end.txt")},
    "startToFirstAnswerMs": start_ms,
    "rssMiB": {f"{s}/{p}": round(v, 1) for (s, p), v in rss_mib.items()},
    "rssProcesses": {f"{s}/{p}": v for (s, p), v in rss_processes.items()},
    "medians": figures,
    "spotcheckRequestsBeforeLastRss": million,
    "runs": runs,
    "library": lib,
    "targets": target_rows,
}
os.makedirs(os.path.dirname(results_path), exist_ok=True)
json.dump(results, open(results_path, "w"), indent=2)


def num(v, fmt="{:,.0f}"):
    return "–" if v is None else fmt.format(v)


def cells(getter, fmt):
    values = [getter(s) for s in SERVERS]
    return [num(v, fmt) for v in values] + [num(ratio(values[0], values[1]), "{:.2f}×"), num(ratio(values[0], values[2]), "{:.2f}×")]


def fig(server, bench, key):
    f = figures[server][bench]
    return f[key] if f else None


rows = [
    ("start → first answered request, ms (median of %d)" % starts_per, cells(lambda s: start_ms[s], "{:.1f}")),
    ("RSS at ready, MiB", cells(lambda s: rss_mib.get((s, "ready")), "{:.1f}")),
    ("GET by id, requests/s", cells(lambda s: fig(s, "get", "rps"), "{:,.0f}")),
    ("GET by id, p50 ms", cells(lambda s: fig(s, "get", "p50_ms"), "{:.2f}")),
    ("GET by id, p99 ms", cells(lambda s: fig(s, "get", "p99_ms"), "{:.2f}")),
    ("POST create, requests/s", cells(lambda s: fig(s, "create", "rps"), "{:,.0f}")),
    ("POST create, p50 ms", cells(lambda s: fig(s, "create", "p50_ms"), "{:.2f}")),
    ("POST create, p99 ms", cells(lambda s: fig(s, "create", "p99_ms"), "{:.2f}")),
    ("RSS after the load above, MiB", cells(lambda s: rss_mib.get((s, "after-load")), "{:.1f}")),
    (f"RSS after {million:,} requests, MiB", cells(lambda s: rss_mib.get((s, million_phase)), "{:.1f}")),
    ("non-2xx answers / socket errors, all runs",
     [f"{sum(r['non2xx'] for r in runs if r['server'] == s)} / {sum(r['errors'] for r in runs if r['server'] == s)}" for s in SERVERS] + ["", ""]),
]

bad_runs = [r for r in runs if r["non2xx"] or r["errors"]]
md = []
md.append("# Performance\n")
md.append(f"Generated by `bash bench/run.sh` on {results['generated']} (UTC); the whole file is rewritten by each run, "
          "so do not edit it by hand. Raw figures: `bench/out/results.json`. How to run and cite: [bench/README.md](../bench/README.md).\n")
md.append("## SpotCheck beside the Pact stub server and nginx (one run)\n")
md.append(f"`{wrk_setup}` on loopback, medians of {runs_per} runs per figure; wrk shares the cores with the server.\n")
md.append("| measurement | SpotCheck | Pact stub | nginx static | SpotCheck/Pact | SpotCheck/nginx |")
md.append("| --- | ---: | ---: | ---: | ---: | ---: |")
for label, c in rows:
    md.append(f"| {label} | " + " | ".join(c) + " |")
md.append("")
md.append("Ratios are SpotCheck's figure divided by the peer's: above 1 is more requests/s, but also more milliseconds "
          "and more MiB. nginx serves GET only (it cannot create). "
          + ("**Some runs had non-2xx answers or socket errors**: " + ", ".join(f"{r['server']} {r['benchmark']} #{r['run']}" for r in bad_runs) + "."
             if bad_runs else "No run had a non-2xx answer or a socket error."))
md.append("")
md.append("## How much the pact's size matters\n")
md.append(f"The Pact stub server's speed falls with the size of the pact it serves (for every request its handler copies the "
          f"loaded pacts and filters all their interactions, not only those of the request's path). The table above uses the whole exported pact "
          f"(`bench/petspot.pact.json`, {env['pact_interactions']} interactions: the contract as SpotCheck serves it). The same run "
          f"also measured the stub on a pact of only the 3 interactions the load touches (health, GET by id, create):\n")
md.append(f"| measurement | Pact stub, {env['pact_interactions']} interactions | Pact stub, 3 interactions | SpotCheck/Pact ({env['pact_interactions']}) | SpotCheck/Pact (3) |")
md.append("| --- | ---: | ---: | ---: | ---: |")
for label, bench, key, fmt in [("GET by id, requests/s", "get", "rps", "{:,.0f}"), ("GET by id, p99 ms", "get", "p99_ms", "{:.2f}"),
                               ("POST create, requests/s", "create", "rps", "{:,.0f}"), ("POST create, p99 ms", "create", "p99_ms", "{:.2f}")]:
    a, b, o = fig("pact", bench, key), fig("pact-min", bench, key), fig("spotcheck", bench, key)
    md.append(f"| {label} | {num(a, fmt)} | {num(b, fmt)} | {num(ratio(o, a), '{:.2f}×')} | {num(ratio(o, b), '{:.2f}×')} |")
md.append(f"| RSS at ready, MiB | {num(rss_mib.get(('pact', 'ready')), '{:.1f}')} | {num(rss_mib.get(('pact-min', 'ready')), '{:.1f}')} | | |")
md.append("")
md.append("The targets below are judged against the whole pact, the contract SpotCheck itself serves; the ratio against the "
          "3-interaction pact is given beside them.\n")
md.append("## Targets of issue 8\n")
md.append("| target | figure in this run | |")
md.append("| --- | --- | --- |")
for t in target_rows:
    md.append(f"| {t['target']} | {t['figure']} | {'met' if t['met'] else '**not met**'} |")
md.append("")
md.append("## Scenario library (release build)\n")
md.append(f"`spotcheck run` over the {env['scenarios']} bundled scenarios against the embedded mock backend; "
          f"wall time, median of {library_runs} runs per mode.\n")
md.append("| mode | seconds | scenarios/second |")
md.append("| --- | ---: | ---: |")
labels = {"in-process": "in-process PetSpotClient (default jobs)", "external-client": "external client (spotcheck-client over JSON lines)", "one-job": "in-process, `--jobs 1`"}
for mode, v in lib.items():
    md.append(f"| {labels[mode]} | {v['seconds']:.2f} | {v['scenariosPerSecond']:.1f} |")
md.append("")
md.append("## Method\n")
md.append(f"""- **Servers.** SpotCheck: `spotcheck serve --port 0 --quiet` (release build; it validates every request against the
  contract, stores announcements, generates ids and passwords). Pact: `pact stub -f bench/petspot.pact.json -p PORT -l none`
  (Pact Stub Server from pact-python-cli; the pact file is regenerated by `spotcheck export pact` at the start of the run;
  logging off, as SpotCheck's `--quiet`). nginx: its own config under `bench/out/nginx`, `worker_processes 2`,
  `access_log off`, serving the exact bytes of SpotCheck's GET-by-id answer as a static file at the same path.
- **Start → first answered request.** From process launch to the first 2xx answer, polled every millisecond with a fresh
  connection by `bench/first_answer.py` (`/api/health` for SpotCheck and Pact, the static file for nginx); servers in turn,
  median of {starts_per} starts each.
- **RSS.** `VmRSS` from `/proc/PID/status` of the process that serves: SpotCheck `{rss_processes.get(('spotcheck', 'ready'), '?')}`;
  Pact `{rss_processes.get(('pact', 'ready'), '?')}` (the `pact` command of pact-python-cli is the Rust binary itself and
  serves in-process; a Python launcher, if one appeared, would be excluded); nginx `{rss_processes.get(('nginx', 'ready'), '?')}`
  (master and workers summed). Read at ready (right after the first answer), after all GET and POST runs, and for SpotCheck
  after it had served {million:,} requests in total (the runs above plus further GET-by-id runs).
- **Load.** wrk, `{wrk_setup}`, servers in turn, {runs_per} runs each, medians of requests/s, p50 and p99 (wrk's latency
  distribution, `bench/report.lua`). GET by id: SpotCheck reads an announcement it created; Pact reads the path of its
  `getAnnouncement: with photo` interaction; nginx the static file. POST create (`bench/create.lua`): both post
  `bench/create-body.json`, which the script checks is the request body of the pact's `createAnnouncement: minimal report created`
  interaction, so Pact answers 201 and SpotCheck validates and stores a new announcement each time.
- **Pact's pact size.** The Pact stub also ran on a pact of only the 3 interactions the load uses (see above), in the same
  turns as the others.
- **Every run** is listed below with its non-2xx answers and socket errors.
""")
md.append("## Machine and tools\n")
md.append(f"- {env['nproc']} cores (`nproc`), CPU `{env['cpu']}`, {env['memory']} memory, kernel `{env['kernel']}`")
md.append(f"- load average at start `{results['loadAverage']['start']}`, at end `{results['loadAverage']['end']}` (1, 5, 15 min); the cores are shared with other work")
wall, machine_busy, own = (float(env[k]) for k in ("wall_seconds", "machine_busy_seconds", "own_cpu_seconds"))
others = max(machine_busy - own, 0)
busy = [l.split(None, 1) for l in text("busy-during.txt").splitlines() if l.strip()]
md.append(f"- CPU used by other work during the run: {others:.0f} core-seconds of the {wall * int(env['nproc']):.0f} the "
          f"{env['nproc']} cores offered in {wall:.0f} s ({others / (wall * int(env['nproc'])):.0%}); this run itself used {own:.0f}. "
          "Busiest other processes that lived through the run (CPU seconds): "
          + (", ".join(f"`{c.strip()}` {p}" for p, c in busy) or "none above 1 s") + " (short-lived ones, such as compiler runs, are not listed)")
md.append(f"- {env['wrk']}; nginx {env['nginx']}; {env['pact']}; {env['swift']}; SpotCheck at `{env['commit']}`")
md.append("")
md.append("## Every run\n")
md.append("| server | benchmark | run | requests | requests/s | p50 ms | p99 ms | non-2xx | socket errors |")
md.append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for r in runs:
    md.append(f"| {NAMES[r['server']]} | {r['benchmark']} | {r['run']} | {r['requests']:,} | {r['rps']:,.0f} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} | {r['non2xx']} | {r['errors']} |")
md.append("")
md.append("`million` runs are the extra GET-by-id runs that bring SpotCheck to one million requests before its last RSS reading"
          + ("." if any(r["benchmark"] == "million" for r in runs) else "; none were needed in this run, the runs above had sent enough.") + "\n")
skipped = [l for l in text("pact-skipped.txt").splitlines() if l.strip()]
md.append("## What the pact file leaves out\n")
md.append(f"`spotcheck export pact` left {len(skipped)} contract examples out of `bench/petspot.pact.json` (neither measured here):\n")
md += [f"- {l.replace('spotcheck export: skipped ', '')}" for l in skipped]
md.append("")
open(md_path, "w").write("\n".join(md))
