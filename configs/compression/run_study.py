#!/usr/bin/python3
"""Compression study (issue 5): load curves of the NI compression policies.

  configs/compression/run_study.py [--quick] [--only NAME,...] [--out DIR] [--collnoc PATH]
                                   [--jobs N] [--replot]

For every series (a network, a policy, a pattern / topology / switch latency) it runs
`collnoc sweep CONFIG --set ... --param traffic.injection_rate --values ...` in chunks of loads,
stopping a few points past saturation, and writes into DIR (default build/compression_study/):
  NAME/PANEL__SERIES.csv   one row per load point (every scalar result key)
  NAME_latency.png         mean latency vs accepted traffic, one line per series, one panel each
  NAME_share.png           share of compressed packets vs accepted traffic
  NAME_summary.md          low-load latency and saturation throughput per series
  NAME_commands.txt        the equivalent single `collnoc sweep` command of every series
Plots need matplotlib (Debian: apt-get install python3-matplotlib). See docs/compression_study.md.
Exit status: 0 ok, 1 a sweep failed, 2 bad usage or missing collnoc / matplotlib.
"""
import argparse
import csv
import math
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from study_tools import ROOT, add_common_args, check_tools, pyplot, read_csv  # noqa: E402

# Offered loads (flits/node/cycle); a series stops a few points past saturation.
LOADS = [0.02] + [round(0.05 + 0.025 * i, 3) for i in range(39)]
QUICK_LOADS = [0.02, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
QUICK_SETS = {"sim.measure_cycles": 5000}
LOW_LOAD = 0.02        # "low-load latency" is read here
FOLLOWS = 0.95         # a point is saturated when accepted < FOLLOWS x offered (or not completed)

POLICIES = [("never", {"ni.compression.policy": "never"}),
            ("always", {"ni.compression.policy": "always"}),
            ("selective", {"ni.compression.policy": "selective"})]

# (N_th, Q_th) pairs of the thresholds part (selective's literal rule is (0, 0)); Q_th = QOFF
# takes Q out of the test.
QOFF = 4294967295
SELECTIVE_THRESHOLDS = [(100, 1), (200, 2), (400, 4), (350, QOFF)]


def selective(n, q):
    label = "selective_N%d_%s" % (n, "noQ" if q == QOFF else "Q%d" % q)
    return (label, {"ni.compression.policy": "selective", "ni.compression.n_threshold_flits": n,
                    "ni.compression.q_threshold_packets": q})


def cfg(name):
    return os.path.join("configs", "compression", name + ".yaml")


# name -> title, panels (label, config, --set), series (label, --set)
EXPERIMENTS = {
    "patterns": dict(
        title="8x8 mesh, DOR: traffic patterns",
        panels=[(p, cfg("mesh8x8"), {"traffic.pattern": p})
                for p in ("uniform", "transpose", "bit_reversal")],
        series=POLICIES),
    "topologies": dict(
        title="uniform traffic: 64-node mesh, torus, random degree-4 graph; 16-node mesh",
        panels=[("mesh8x8", cfg("mesh8x8"), {}), ("torus8x8", cfg("torus8x8"), {}),
                ("random64", cfg("random64"), {}), ("mesh4x4", cfg("mesh4x4"), {})],
        series=POLICIES),
    "switch_latency": dict(
        title="8x8 mesh, DOR, uniform: router.hop_latency_cycles",
        panels=[("hop%d" % h, cfg("mesh8x8"), {"router.hop_latency_cycles": h}) for h in (4, 6, 9)],
        series=POLICIES),
    "selective": dict(
        title="8x8 mesh, DOR, uniform: selective variants",
        panels=[("uniform", cfg("mesh8x8"), {})],
        series=POLICIES + [
            ("selective_th100", {"ni.compression.policy": "selective",
                                 "ni.compression.threshold_flits": 100}),
            ("selective_win100", {"ni.compression.policy": "selective",
                                  "ni.congestion_window_cycles": 100})]),
    "thresholds": dict(
        title="uniform: selective's congestion thresholds N_th / Q_th",
        panels=[("mesh8x8", cfg("mesh8x8"), {}), ("mesh4x4", cfg("mesh4x4"), {})],
        series=POLICIES + [selective(n, q) for n, q in SELECTIVE_THRESHOLDS]),
    "codec": dict(
        title="8x8 mesh, uniform: pipelined against unpipelined codec (ni.codec_pipelined)",
        panels=[("10-200 flits, D=100", cfg("mesh8x8"), {}),
                ("4 flits, D=10", cfg("mesh8x8"),
                 {"traffic.packet_flits_min": 4, "traffic.packet_flits_max": 4,
                  "ni.codec_latency_cycles": 10})],
        series=[(label + suffix, dict(sets, **extra))
                for label, sets in POLICIES[1:] + [selective(350, QOFF)]
                for suffix, extra in (("", {}), ("_unpipelined",
                                                 {"ni.codec_pipelined": "false"}))] +
               [POLICIES[0]]),
    "payloads": dict(
        title="8x8 mesh, DOR, uniform: payloads under always",
        panels=[("uniform", cfg("mesh8x8"), {})],
        series=[("never", {"ni.compression.policy": "never"}),
                ("always_small_ints", {"ni.compression.policy": "always"})] + [
            ("always_" + p, {"ni.compression.policy": "always", "traffic.payload": p})
            for p in ("smooth_doubles", "sorted_keys", "random_ints")]),
}


def saturated(row):
    offered = float(row["throughput.offered_flits_per_node_cycle"])
    accepted = float(row["throughput.accepted_flits_per_node_cycle"])
    return row["sim.completed"] != "true" or accepted < FOLLOWS * offered


def set_args(sets):
    return [a for k, v in sets.items() for a in ("--set", "%s=%s" % (k, v))]


def effective_config(collnoc, config, sets):
    """The configuration collnoc resolves (to run a series repeated in several parts once)."""
    res = subprocess.run([collnoc, "run", "--dump-config", config] + set_args(sets), cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, universal_newlines=True)
    return res.stdout if res.returncode == 0 else None


def sweep_cmd(collnoc, config, sets, values, out, jobs):
    return ([collnoc, "sweep", config] + set_args(sets) +
            ["--param", "traffic.injection_rate", "--values", ",".join(map(str, values)),
             "--jobs", str(jobs), "--out", out])


def run_series(args, config, sets, path):
    """Sweep the loads in chunks until args.stop_after points are saturated; returns the loads."""
    rows, header, done = [], None, []
    part = path + ".part"
    loads = QUICK_LOADS if args.quick else LOADS
    chunk = 2 * args.jobs
    for i in range(0, len(loads), chunk):
        values = loads[i:i + chunk]
        cmd = sweep_cmd(args.collnoc, config, sets, values, part, args.jobs) + ["--quiet"]
        try:
            res = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 universal_newlines=True)
        except OSError as e:
            raise RuntimeError("%s: %s" % (" ".join(cmd), e))
        if res.returncode != 0:
            raise RuntimeError("exit %d: %s\n%s" % (res.returncode, " ".join(cmd), res.stdout))
        with open(part) as f:
            reader = csv.DictReader(f)
            header = header or reader.fieldnames
            rows += list(reader)
        os.remove(part)
        done += values
        if sum(saturated(r) for r in rows) >= args.stop_after:
            break
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=header)
        w.writeheader()
        w.writerows(rows)
    return done


def num(row, key):
    return float(row[key])


def summarize(rows):
    """Low-load latency, saturation throughput (accepted at the last load before the first
    saturated point), peak accepted, and compression shares."""
    at = lambda load: next((r for r in rows
                            if abs(num(r, "traffic.injection_rate") - load) < 1e-9), None)
    first_sat = next((i for i, r in enumerate(rows) if saturated(r)), None)
    knee = rows[-1] if first_sat is None else (rows[first_sat - 1] if first_sat > 0 else None)
    fmt = lambda r, k, f: (f % num(r, k)) if r else "-"
    sat = fmt(knee, "throughput.accepted_flits_per_node_cycle", "%.3f")
    if first_sat is None:
        sat = ">= " + sat
    return {"latency @0.02": fmt(at(LOW_LOAD), "latency_cycles.mean", "%.1f"),
            "latency @0.1": fmt(at(0.1), "latency_cycles.mean", "%.1f"),
            "saturation throughput": sat,
            "at offered": fmt(knee, "traffic.injection_rate", "%g"),
            "peak accepted": "%.3f" % max(num(r, "throughput.accepted_flits_per_node_cycle")
                                          for r in rows),
            "share @0.02": fmt(at(LOW_LOAD), "compression.share", "%.2f"),
            "share @0.1": fmt(at(0.1), "compression.share", "%.2f"),
            "share at saturation": fmt(knee, "compression.share", "%.2f")}


def plot(exp, name, data, out):
    plt = pyplot()
    panels = exp["panels"]
    low = [num(rows[0], "latency_cycles.mean") for rows in data.values() if rows]
    for kind, key, ylabel in (("latency", "latency_cycles.mean", "mean packet latency (cycles)"),
                              ("share", "compression.share", "share of packets compressed")):
        cols = len(panels) if len(panels) <= 3 else 2
        nrows = math.ceil(len(panels) / cols)
        fig, axes = plt.subplots(nrows, cols, figsize=(4.6 * cols + 0.6, 3.8 * nrows + 0.4),
                                 sharey=True, squeeze=False)
        axes = axes.flatten()
        for ax, (plabel, _, _) in zip(axes, panels):
            for slabel, _ in exp["series"]:
                rows = data.get((plabel, slabel))
                if not rows:
                    continue
                x = [num(r, "throughput.accepted_flits_per_node_cycle") for r in rows]
                y = [num(r, key) for r in rows]
                line, = ax.plot(x, y, "-", label=slabel)
                ok = [(a, b) for a, b, r in zip(x, y, rows) if not saturated(r)]
                sat = [(a, b) for a, b, r in zip(x, y, rows) if saturated(r)]
                if ok:
                    ax.plot(*zip(*ok), "o", color=line.get_color(), ms=4)
                if sat:
                    ax.plot(*zip(*sat), "o", mfc="none", color=line.get_color(), ms=5)
            ax.set_title(plabel, fontsize=10)
            ax.set_xlabel("accepted traffic (flits/node/cycle)")
            ax.set_xlim(left=0)
            ax.grid(True, alpha=0.3)
        for ax in axes[::cols]:
            ax.set_ylabel(ylabel)
        axes[0].set_ylim(*((0, 4 * max(low)) if kind == "latency" else (-0.03, 1.03)))
        axes[len(panels) - 1].legend(fontsize=8, loc="best")
        fig.suptitle("%s (hollow: saturated point)" % exp["title"], fontsize=10)
        fig.tight_layout()
        fig.savefig(os.path.join(out, "%s_%s.png" % (name, kind)), dpi=110)
        plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="comma-separated parts: " + ", ".join(EXPERIMENTS))
    ap.add_argument("--quick", action="store_true",
                    help="coarse loads, 5000-cycle window (a smoke run, not for numbers)")
    add_common_args(ap, "compression_study")
    ap.add_argument("--jobs", type=int, default=2, help="simulations at once (default 2)")
    ap.add_argument("--replot", action="store_true",
                    help="no simulation: plot and summarize the CSVs already in --out")
    args = ap.parse_args()
    args.stop_after = 2 if args.quick else 3
    names = args.only.split(",") if args.only else list(EXPERIMENTS)
    unknown = [n for n in names if n not in EXPERIMENTS]
    if unknown:
        print("run_study: unknown part %s (parts: %s)"
              % (", ".join(unknown), ", ".join(EXPERIMENTS)), file=sys.stderr)
        return 2
    args.collnoc = os.path.abspath(args.collnoc)
    status = check_tools("run_study", args.collnoc, need_collnoc=not args.replot)
    if status:
        return status
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    failures, start, done_paths = [], time.time(), {}
    rel = lambda p: os.path.relpath(p, ROOT) if p.startswith(ROOT + os.sep) else p
    for name in names:
        exp = EXPERIMENTS[name]
        os.makedirs(os.path.join(out, name), exist_ok=True)
        data, table, commands = {}, [], []
        for plabel, config, psets in exp["panels"]:
            for slabel, ssets in exp["series"]:
                sets = dict(QUICK_SETS if args.quick else {}, **psets, **ssets)
                path = os.path.join(out, name, "%s__%s.csv" % (plabel, slabel))
                key = None if args.replot else effective_config(args.collnoc, config, sets)
                if key is not None and key in done_paths:   # same series in an earlier part
                    shutil.copyfile(done_paths[key], path)
                    commands.append("# %s: copy of %s" % (rel(path), rel(done_paths[key])))
                elif not args.replot:
                    t0 = time.time()
                    try:
                        done = run_series(args, config, sets, path)
                    except RuntimeError as e:
                        print("run_study: FAILED %s/%s/%s: %s" % (name, plabel, slabel, e),
                              file=sys.stderr)
                        failures.append("%s/%s/%s" % (name, plabel, slabel))
                        continue
                    cmd = sweep_cmd(rel(args.collnoc), config, sets, done, rel(path), args.jobs)
                    commands.append(" ".join(cmd))
                    if key is not None:
                        done_paths[key] = path
                    print("%-15s %-13s %-17s %2d loads %6.1f s" % (name, plabel, slabel, len(done),
                                                                  time.time() - t0), flush=True)
                if os.path.exists(path):
                    data[(plabel, slabel)] = read_csv(path)
                    table.append(dict({"panel": plabel, "series": slabel},
                                      **summarize(data[(plabel, slabel)])))
        if table:
            cols = list(table[0])
            md = ["# %s: %s" % (name, exp["title"]), "",
                  "| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
            md += ["| " + " | ".join(row[c] for c in cols) + " |" for row in table]
            with open(os.path.join(out, name + "_summary.md"), "w") as f:
                f.write("\n".join(md) + "\n")
            print("\n".join(md) + "\n", flush=True)
            plot(exp, name, data, out)
        if commands:
            with open(os.path.join(out, name + "_commands.txt"), "w") as f:
                f.write("\n".join(commands) + "\n")
    print("run_study: %s in %.0f s; results in %s" % (", ".join(names), time.time() - start, out))
    if failures:
        print("run_study: %d sweep(s) failed: %s" % (len(failures), ", ".join(failures)),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
