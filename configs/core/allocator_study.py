#!/usr/bin/python3
"""Allocator study (issue 28): saturation throughput of an 8x8 mesh per VC / switch allocator pair.

  configs/core/allocator_study.py [--pairs matched|cross|all] [--patterns uniform,transpose,hotspot]
                                  [--vcs 2,4] [--seeds N] [--jobs N] [--reuse] [--out DIR]
                                  [--collnoc PATH]

Base: configs/core/mesh_uniform.yaml (8x8 mesh, DOR, 4-flit packets, 4-flit buffers, wormhole,
3-cycle hops), with 10,000 measured cycles. A load is *saturated* when the run does not complete
(measured packets still in flight 4,000 cycles after the measurement, sim.max_cycles = 16,000)
or accepts less than 95 % of the offered flits. For every series (pattern, VCs, VC allocator,
switch allocator) the saturation load is found by bisection on the offered load
(flits/node/cycle) in [0, 0.8] (0.8 is past the mesh's capacity for every pattern here) down to
a step of 0.0125: six runs; the series' figure is the highest load found unsaturated, and the
throughput accepted there. `--pairs matched` (default) runs the 5 pairs with the same allocator
at both stages, `cross` adds round_robin at one stage with each other at the other (13 pairs),
`all` runs the 25 pairs. `--seeds N` bisects every series once per seed 1..N; the table then
gives the mean over the seeds and, after it, the range (lowest-highest) the seeds found.

Writes into DIR (default build/allocator_study/):
  saturation.csv    one row per series and seed
  saturation.md     the table of docs/router.md (saturation load per pair, accepted throughput
                    there in brackets)
  saturation.png    saturation load per switch allocator, a line per VC allocator, a panel per
                    pattern and VC count
Exit status: 0 ok, 1 a run failed, 2 bad usage or missing collnoc / matplotlib.
"""
import argparse
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from study_tools import add_common_args, check_tools, plot_panels, read_csv, run_collnoc, write_csv  # noqa: E402

ALLOCATORS = ["round_robin", "output_first", "islip", "wavefront", "age"]
CONFIG = os.path.join(HERE, "mesh_uniform.yaml")
BASE = {"sim.warmup_cycles": 2000, "sim.measure_cycles": 10000, "sim.max_cycles": 16000,
        "sim.progress": "false"}
FOLLOWS = 0.95      # saturated below this share of the offered flits accepted
STEP = 0.0125       # bisection stops at this width
HIGH = 0.8          # above the 8x8 mesh's capacity for every pattern here (uniform: 0.5)


def point(collnoc, sets, load):
    """(saturated, accepted flits/node/cycle) at offered `load`."""
    r = run_collnoc(collnoc, CONFIG, dict(sets, **{"traffic.injection_rate": load}))
    t = r["throughput"]
    accepted = t["accepted_flits_per_node_cycle"]
    ok = r["sim"]["completed"] and accepted >= FOLLOWS * t["offered_flits_per_node_cycle"]
    return (not ok), accepted


def saturation(collnoc, sets):
    """Bisection: (highest unsaturated load, accepted there, runs)."""
    lo, hi, accepted_lo, runs = 0.0, HIGH, 0.0, 0
    while hi - lo > STEP + 1e-9:
        mid = round((lo + hi) / 2, 6)
        saturated, accepted = point(collnoc, sets, mid)
        runs += 1
        if saturated:
            hi = mid
        else:
            lo, accepted_lo = mid, accepted
    return lo, accepted_lo, runs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_common_args(ap, "allocator_study")
    ap.add_argument("--pairs", choices=["matched", "cross", "all"], default="matched")
    ap.add_argument("--patterns", default="uniform,transpose,hotspot")
    ap.add_argument("--vcs", default="2,4")
    ap.add_argument("--seeds", type=int, default=1, help="bisect every series with seeds 1..N")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--reuse", action="store_true",
                    help="take the series DIR/saturation.csv already has from there")
    a = ap.parse_args()
    status = check_tools("allocator_study.py", a.collnoc)
    if status:
        return status
    os.makedirs(a.out, exist_ok=True)
    patterns = a.patterns.split(",")
    vcs_list = [int(v) for v in a.vcs.split(",")]
    pairs = [(x, x) for x in ALLOCATORS]
    if a.pairs == "cross":
        pairs += [(x, "round_robin") for x in ALLOCATORS[1:]] + [("round_robin", x) for x in ALLOCATORS[1:]]
    elif a.pairs == "all":
        pairs = [(v, s) for v in ALLOCATORS for s in ALLOCATORS]
    if a.seeds < 1:
        print("allocator_study.py: --seeds %d: at least 1" % a.seeds, file=sys.stderr)
        return 2
    seeds = list(range(1, a.seeds + 1))
    series = [(p, v, va, sa, seed) for p in patterns for v in vcs_list for va, sa in pairs
              for seed in seeds]

    def run(s):
        pattern, vcs, va, sa, seed = s
        sets = dict(BASE, **{"traffic.pattern": pattern, "router.vcs": vcs,
                             "router.vc_allocator": va, "router.switch_allocator": sa,
                             "seed": seed})
        return s, saturation(a.collnoc, sets)

    csv_path = os.path.join(a.out, "saturation.csv")
    known = {}
    if a.reuse and os.path.exists(csv_path):
        for r in read_csv(csv_path):
            known[(r["pattern"], int(r["vcs"]), r["vc_allocator"], r["switch_allocator"],
                   int(r.get("seed", 1)))] = (
                float(r["saturation_load"]), float(r["accepted_flits_per_node_cycle"]), int(r["runs"]))
    todo = [s for s in series if s not in known]
    start = time.time()
    rows = []
    try:
        with ThreadPoolExecutor(max_workers=a.jobs) as pool:
            found = dict(known)
            found.update(pool.map(run, todo))
            for (pattern, vcs, va, sa, seed) in series:
                load, accepted, runs = found[(pattern, vcs, va, sa, seed)]
                rows.append({"pattern": pattern, "vcs": vcs, "vc_allocator": va,
                             "switch_allocator": sa, "seed": seed, "saturation_load": load,
                             "accepted_flits_per_node_cycle": round(accepted, 4), "runs": runs})
                print("%-9s %d VCs  %-12s %-12s seed %d  %.4f (accepted %.4f)" %
                      (pattern, vcs, va, sa, seed, load, accepted), flush=True)
    except RuntimeError as e:
        print("allocator_study.py: %s" % e, file=sys.stderr)
        return 1
    wall = time.time() - start
    write_csv(csv_path, rows)

    # The table: a row per pair, a column per pattern and VC count; over the seeds, the mean
    # (and the range).
    per_seed = {}
    for r in rows:
        per_seed.setdefault((r["pattern"], r["vcs"], r["vc_allocator"], r["switch_allocator"]),
                            []).append(r)
    by = {k: {"saturation_load": sum(x["saturation_load"] for x in v) / len(v),
              "accepted_flits_per_node_cycle": sum(x["accepted_flits_per_node_cycle"] for x in v) / len(v),
              "low": min(x["saturation_load"] for x in v),
              "high": max(x["saturation_load"] for x in v)}
          for k, v in per_seed.items()}

    def cell(r):
        text = "%.4f (%.3f)" % (r["saturation_load"], r["accepted_flits_per_node_cycle"])
        return text + (" %.4f-%.4f" % (r["low"], r["high"]) if len(seeds) > 1 else "")
    cols = [(p, v) for p in patterns for v in vcs_list]
    lines = ["| VC allocator | switch allocator | " +
             " | ".join("%s, %d VCs" % c for c in cols) + " |",
             "|---|---|" + "---|" * len(cols)]
    for va, sa in pairs:
        lines.append("| %s | %s | " % (va, sa) + " | ".join(
            cell(by[(p, v, va, sa)]) for p, v in cols) + " |")
    with open(os.path.join(a.out, "saturation.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))

    xs = list(range(1, len(ALLOCATORS) + 1))
    panels = []
    for p, v in cols:
        lines_ = []
        for va in ALLOCATORS:
            ys = [by[(p, v, va, sa)]["saturation_load"] if (p, v, va, sa) in by else float("nan")
                  for sa in ALLOCATORS]
            if any(y == y for y in ys):
                lines_.append(("VC: " + va, xs, ys, "o-"))
        panels.append(("%s, %d VCs" % (p, v),
                       "switch allocator: " + ", ".join("%d %s" % (i, n) for i, n in zip(xs, ALLOCATORS)),
                       "saturation load (flits/node/cycle)", False, False, lines_))
    plot_panels(os.path.join(a.out, "saturation.png"),
                "8x8 mesh, DOR, 4-flit packets: saturation load per allocator pair",
                panels, cols=len(vcs_list), width=7.0)
    runs = sum(r["runs"] for r in rows)
    print("%d series x seeds (%d run now), %d runs, %.0f s wall (--jobs %d)" %
          (len(rows), len(todo), runs, wall, a.jobs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
