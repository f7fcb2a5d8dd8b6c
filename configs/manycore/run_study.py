#!/usr/bin/python3
"""Many-core collectives study (issue 4): tilepro and scc, predictable (nocmsg) set vs baselines.

  configs/manycore/run_study.py NAME [--quick] [--out DIR] [--collnoc PATH] [--jobs N] [--replot]

NAME is one study (one command each):
  tasks      tilepro, one packet (128 B): execution time vs task count 4..49 (grids 2x2..7x7)
             for every collective and algorithm, and the other workload.schedule of the
             alltoall (modulo), the reduce and allreduce (chain)
  size       tilepro 7x7: execution time vs message size, 128 B .. 1 MiB (--quick: .. 64 KiB),
             for alltoall, reduce, allreduce and broadcast, every algorithm
  allreduce  tilepro: reduce_broadcast vs recursive_doubling, vs task count at one packet and
             vs message size on 7x7
  scc        scc (48 cores): throughput (payload MB/s = bytes moved / execution time) vs message
             size for the same collectives and algorithms (nocmsg: two cores per tile)
  scc_protocols
             scc: pairwise alltoall, binomial reduce and broadcast, recursive-doubling allreduce
             under msg.protocol eager, rendezvous and mpb: MB/s vs message size
  scc_libraries
             scc (48 cores), the SCC's libraries at nominal software costs: NoCMsg on the
             message-passing buffers (core.software_model=auto) against RCCE and RCKMPI (the
             MPI-style algorithms over put / get with flags, msg.protocol=mpb, presets rcce and
             rckmpi): effective MB/s (what the collective delivers / execution time) vs
             message size for alltoall, broadcast, reduce, allreduce, and the 48-core
             barrier's finish time per core
  all        every study above

Each study runs `collnoc sweep` once per (collective, algorithm) series and writes into DIR
(default build/manycore_study/):
  NAME.csv        one row per point: series, x, cycles, us, link / ejection contention, bytes,
                  MB/s, data verified
  NAME.png        one panel per collective, one line per algorithm
  NAME_commands.txt  the `collnoc sweep` command of every series
scc_libraries adds a column effective_mb_per_s to its CSV, plots it, and writes
scc_libraries_barrier.csv (per library: the barrier's time, the mean and max of the cores'
finish times, odd and even cores apart) and scc_libraries_barrier_cores.csv (each core's
finish time, the PNG's fifth panel).
Plots need matplotlib (Debian: python3-matplotlib). See docs/manycore.md.
Exit status: 0 ok, 1 a sweep failed, 2 bad usage or missing collnoc / matplotlib.
"""
import argparse
import csv
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from study_tools import (add_common_args, check_tools, plot_panels, pyplot,  # noqa: E402
                         read_csv, run_collnoc, write_csv)

GRIDS = ["2x2", "3x3", "4x4", "5x5", "6x6", "7x7"]
SIZES = [128, 1024, 8192, 65536, 262144, 1048576]
QUICK_SIZES = [128, 1024, 8192, 65536]
ALGORITHMS = {
    "alltoall": ["nocmsg", "pairwise"],
    "alltoallv": ["nocmsg", "pairwise"],
    "barrier": ["nocmsg", "central"],
    "broadcast": ["nocmsg", "binomial"],
    "reduce": ["nocmsg", "binomial"],
    "allreduce": ["reduce_broadcast", "recursive_doubling"],
}
SIZED = ["alltoall", "reduce", "allreduce", "broadcast"]
# The tasks study also runs the other workload.schedule of the algorithms that have one
# ("algorithm/schedule"; docs/manycore.md, Alltoall schedules).
TASK_ALGORITHMS = dict(ALGORITHMS, alltoall=ALGORITHMS["alltoall"] + ["nocmsg/modulo"],
                       reduce=ALGORITHMS["reduce"] + ["nocmsg/chain"],
                       allreduce=ALGORITHMS["allreduce"] + ["reduce_broadcast/chain"])
# nocmsg: tiles lead, mates over local ports; onesided: the chain through the buffers
SCC_ALGORITHMS = dict({c: ALGORITHMS[c] for c in SIZED},
                      broadcast=ALGORITHMS["broadcast"] + ["onesided"])


def studies(quick):
    """name -> (platform sets, x key, x values, {collective: [algorithms]}, y column)"""
    sizes = QUICK_SIZES if quick else SIZES
    tile = {"platform": "tilepro"}
    return {
        "tasks": (tile, "workload.grid", GRIDS, TASK_ALGORITHMS, "cycles"),
        "size": (dict(tile, **{"workload.grid": "7x7"}), "workload.message_bytes", sizes,
                 {c: ALGORITHMS[c] for c in SIZED}, "cycles"),
        "allreduce": None,  # two sweeps, see run_allreduce
        "scc": ({"platform": "scc"}, "workload.message_bytes", sizes, SCC_ALGORITHMS, "mb_per_s"),
    }


def sweep(collnoc, sets, key, values, collective, algorithm, jobs, out_csv, log):
    algorithm, _, schedule = algorithm.partition("/")  # "algorithm/schedule"
    cmd = [collnoc, "sweep", "-", "--set", "workload.kind=collective",
           "--set", "workload.collective=" + collective, "--set", "workload.algorithm=" + algorithm,
           "--set", "sim.max_cycles=2000000000", "--set", "sim.progress=false",
           # The network and NI alone, as docs/manycore.md's study tables (docs/software_model.md
           # has the runs with the cores' software).
           "--set", "core.software_model=none"]
    if schedule:
        cmd += ["--set", "workload.schedule=" + schedule]
    for k, v in sets.items():
        cmd += ["--set", "%s=%s" % (k, v)]
    cmd += ["--param", key, "--values", ",".join(str(v) for v in values),
            "--jobs", str(jobs), "--out", out_csv]
    log.write(" ".join(cmd) + "\n")
    result = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        sys.stderr.write(result.stdout)
        return None
    with open(out_csv) as f:
        return list(csv.DictReader(f))


def row_of(series, key, r):
    us = float(r["collective.execution_us"])
    moved = int(r["collective.bytes_moved"])
    return {"series": series, "x": r[key],
            "cycles": int(r["collective.execution_cycles"]), "us": us,
            "link_contention": int(r["contention_events_links"]),
            "ejection_contention": int(r["contention_events_ejection"]),
            "bytes_moved": moved, "mb_per_s": moved / us if us > 0 else 0.0,
            "data_verified": r["collective.data_verified"]}


def run_series(collnoc, sets, key, values, table, jobs, out_dir, name, log):
    rows = []
    for collective, algorithms in table.items():
        for algorithm in algorithms:
            series = "%s %s" % (collective, algorithm)
            print("[%s] %s" % (name, series), flush=True)
            part = os.path.join(out_dir, "parts", "%s__%s_%s.csv"
                                % (name, collective, algorithm.replace("/", "-")))
            got = sweep(collnoc, sets, key, values, collective, algorithm, jobs, part, log)
            if got is None:
                return None
            rows += [row_of(series, key, r) for r in got]
    return rows


def x_value(x):
    if "x" in str(x):
        a, b = str(x).split("x")
        return int(a) * int(b)
    return int(x)


def plot(path, rows, y, xlabel, title, log_x):
    plt = pyplot()
    collectives = []
    for r in rows:
        c = r["series"].split()[0]
        if c not in collectives:
            collectives.append(c)
    cols = min(3, len(collectives))
    rows_n = (len(collectives) + cols - 1) // cols
    fig, axes = plt.subplots(rows_n, cols, figsize=(5 * cols, 3.8 * rows_n), squeeze=False)
    for i, c in enumerate(collectives):
        ax = axes[i // cols][i % cols]
        for series in sorted({r["series"] for r in rows if r["series"].split()[0] == c}):
            pts = sorted((x_value(r["x"]), float(r[y])) for r in rows if r["series"] == series)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o",
                    label=series.split(" ", 1)[1])
        ax.set_title(c)
        ax.set_xlabel(xlabel)
        ax.set_ylabel({"cycles": "execution cycles", "mb_per_s": "payload MB/s"}[y])
        if log_x:
            ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    for j in range(len(collectives), rows_n * cols):
        axes[j // cols][j % cols].axis("off")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def run_study(name, args, out_dir):
    csv_path = os.path.join(out_dir, name + ".csv")
    log_path = os.path.join(out_dir, name + "_commands.txt")
    if name == "allreduce":
        sizes = QUICK_SIZES if args.quick else SIZES
        parts = [("tasks", {"platform": "tilepro"}, "workload.grid", GRIDS),
                 ("size", {"platform": "tilepro", "workload.grid": "7x7"},
                  "workload.message_bytes", sizes)]
        if not args.replot:
            rows = []
            with open(log_path, "w") as log:
                for label, sets, key, values in parts:
                    got = run_series(args.collnoc, sets, key, values,
                                     {"allreduce": ALGORITHMS["allreduce"]}, args.jobs, out_dir,
                                     name + "_" + label, log)
                    if got is None:
                        return 1
                    for r in got:
                        r["series"] = "%s %s" % (label, r["series"].split()[1])
                    rows += got
            write_csv(csv_path, rows)
        rows = read_csv(csv_path)
        for label, _, key, _ in parts:
            sub = [dict(r, series="allreduce " + r["series"].split()[1])
                   for r in rows if r["series"].startswith(label + " ")]
            plot(os.path.join(out_dir, "allreduce_%s.png" % label), sub, "cycles",
                 "task count" if label == "tasks" else "message bytes",
                 "tilepro allreduce: reduce + SN broadcast vs recursive doubling",
                 label == "size")
        return 0
    sets, key, values, table, y = studies(args.quick)[name]
    if not args.replot:
        with open(log_path, "w") as log:
            rows = run_series(args.collnoc, sets, key, values, table, args.jobs, out_dir, name, log)
        if rows is None:
            return 1
        write_csv(csv_path, rows)
    rows = read_csv(csv_path)
    titles = {"tasks": "tilepro, 128-byte messages: time vs task count",
              "size": "tilepro 7x7: time vs message size",
              "scc": "scc, 48 cores: throughput vs message size"}
    plot(os.path.join(out_dir, name + ".png"), rows, y,
         "task count" if name == "tasks" else "message bytes", titles[name], name != "tasks")
    return 0


# ---------------------------------------------------------------- msg.protocol on scc
PROTOCOLS = ["eager", "rendezvous", "mpb"]
# The message-based algorithms every platform runs (point-to-point only: no static network).
PROTOCOL_ALGORITHMS = {"alltoall": ["pairwise"], "reduce": ["binomial"],
                       "allreduce": ["recursive_doubling"], "broadcast": ["binomial"]}


def run_protocols(args, out_dir):
    """scc_protocols: one series per (collective, msg.protocol), PROTOCOL_ALGORITHMS."""
    name = "scc_protocols"
    csv_path = os.path.join(out_dir, name + ".csv")
    if not args.replot:
        sizes = QUICK_SIZES if args.quick else SIZES
        rows = []
        with open(os.path.join(out_dir, name + "_commands.txt"), "w") as log:
            for protocol in PROTOCOLS:
                got = run_series(args.collnoc, {"platform": "scc", "msg.protocol": protocol},
                                 "workload.message_bytes", sizes, PROTOCOL_ALGORITHMS, args.jobs,
                                 out_dir, "%s_%s" % (name, protocol), log)
                if got is None:
                    return 1
                for r in got:
                    r["series"] = "%s %s" % (r["series"].split()[0], protocol)
                rows += got
        write_csv(csv_path, rows)
    plot(os.path.join(out_dir, name + ".png"), read_csv(csv_path), "mb_per_s", "message bytes",
         "scc, 48 cores: msg.protocol eager vs rendezvous vs mpb", True)
    return 0


# ---------------------------------------------------------------- the SCC's libraries
# SPEC 6.5's comparison on the SCC: NoCMsg on the message-passing buffers under its own costs
# (`auto` charges the nocmsg preset) against RCCE and RCKMPI, the MPI-style baselines over put /
# get with flags under their presets. Nominal costs (no jitter): one run is the mechanisms alone.
# (library, sets, index into ALGORITHMS: 0 the NoCMsg set, 1 the MPI-style baseline)
SCC_NOMINAL = {"platform": "scc", "core.software.jitter_percent": 0}
LIBRARIES = [
    ("nocmsg", dict(SCC_NOMINAL, **{"core.software_model": "auto"}), 0),
    ("rcce", dict(SCC_NOMINAL, **{"core.software_model": "rcce", "msg.protocol": "mpb"}), 1),
    ("rckmpi", dict(SCC_NOMINAL, **{"core.software_model": "rckmpi", "msg.protocol": "mpb"}), 1),
]
SCC_RANKS = 48  # the default workload.grid, 6x4 tiles of two cores
# Effective throughput counts what the collective delivers, the same for every algorithm:
# messages of workload.message_bytes per collective (allreduce: a reduce and a broadcast).
# mb_per_s counts what the algorithm hands to the network (NoCMsg's alltoall: each byte also
# to and from a tile's leader; recursive doubling: about twice the data), so it compares
# algorithms of the same traffic only.
DELIVERED_MESSAGES = {"alltoall": SCC_RANKS * (SCC_RANKS - 1), "broadcast": SCC_RANKS - 1,
                      "reduce": SCC_RANKS - 1, "allreduce": 2 * (SCC_RANKS - 1)}


def barrier_per_core(library, r):
    """The summary row of one barrier run: its time and the cores' finish times (us). Rank 2t+1
    is the odd core of tile t, 2t its even sibling."""
    us_per_cycle = r["execution_us"] / r["execution_cycles"]
    cores = r["per_core_cycles"]
    odd, even = cores[1::2], cores[0::2]
    return {"library": library, "algorithm": r["algorithm"],
            "cycles": r["execution_cycles"], "us": r["execution_us"],
            "mean_core_us": sum(cores) / len(cores) * us_per_cycle,
            "max_core_us": max(cores) * us_per_cycle,
            "odd_mean_us": sum(odd) / len(odd) * us_per_cycle,
            "even_mean_us": sum(even) / len(even) * us_per_cycle,
            "even_after_odd_cycles_min": min(e - o for e, o in zip(even, odd)),
            "even_after_odd_cycles_max": max(e - o for e, o in zip(even, odd)),
            "data_verified": r["data_verified"]}


def run_libraries(args, out_dir):
    """scc_libraries: MB/s vs size per (collective, library), then one barrier per library."""
    name = "scc_libraries"
    csv_path = os.path.join(out_dir, name + ".csv")
    barrier_path = os.path.join(out_dir, name + "_barrier.csv")
    cores_path = os.path.join(out_dir, name + "_barrier_cores.csv")
    if not args.replot:
        sizes = QUICK_SIZES if args.quick else SIZES
        rows, barrier, cores = [], [], []
        with open(os.path.join(out_dir, name + "_commands.txt"), "w") as log:
            for library, sets, which in LIBRARIES:
                table = {c: [ALGORITHMS[c][which]] for c in SIZED}
                got = run_series(args.collnoc, sets, "workload.message_bytes", sizes, table,
                                 args.jobs, out_dir, "%s_%s" % (name, library), log)
                if got is None:
                    return 1
                for r in got:
                    collective = r["series"].split()[0]
                    r["series"] = "%s %s" % (collective, library)
                    r["effective_mb_per_s"] = (DELIVERED_MESSAGES[collective] * int(r["x"])
                                               / r["us"])
                rows += got
                point = dict(sets, **{"workload.kind": "collective",
                                      "workload.collective": "barrier",
                                      "workload.algorithm": ALGORITHMS["barrier"][which],
                                      "sim.progress": "false"})
                log.write("collnoc run %s\n" % " ".join("--set %s=%s" % kv for kv in point.items()))
                try:
                    result = run_collnoc(args.collnoc, "-", point)["collective"]
                except RuntimeError as e:
                    sys.stderr.write("%s\n" % e)
                    return 1
                barrier.append(barrier_per_core(library, result))
                us_per_cycle = result["execution_us"] / result["execution_cycles"]
                cores += [{"library": library, "rank": rank, "cycles": c, "us": c * us_per_cycle}
                          for rank, c in enumerate(result["per_core_cycles"])]
        write_csv(csv_path, rows)
        write_csv(barrier_path, barrier)
        write_csv(cores_path, cores)
    rows, cores = read_csv(csv_path), read_csv(cores_path)
    panels = []
    for collective in SIZED:
        series = []
        for library, _, _ in LIBRARIES:
            pts = sorted((int(r["x"]), float(r["effective_mb_per_s"])) for r in rows
                         if r["series"] == "%s %s" % (collective, library))
            series.append((library, [p[0] for p in pts], [p[1] for p in pts], "o-"))
        panels.append((collective, "message bytes", "effective MB/s", True, True, series))
    panels.append(("barrier: each core's finish", "rank (odd: a tile's first served)",
                   "us", False, True,
                   [(library, [int(r["rank"]) for r in cores if r["library"] == library],
                     [float(r["us"]) for r in cores if r["library"] == library], ".-")
                    for library, _, _ in LIBRARIES]))
    plot_panels(os.path.join(out_dir, name + ".png"),
                "scc, 48 cores: NoCMsg on the buffers vs RCCE and RCKMPI (nominal costs)",
                panels, cols=3, width=5.0, height=3.8)
    for r in read_csv(barrier_path):
        print("[%s] barrier %s: %s us, cores mean %.2f max %.2f us, odd %.2f even %.2f us"
              % (name, r["library"], r["us"], float(r["mean_core_us"]),
                 float(r["max_core_us"]), float(r["odd_mean_us"]), float(r["even_mean_us"])))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("name", choices=["tasks", "size", "allreduce", "scc", "scc_protocols",
                                    "scc_libraries", "all"])
    ap.add_argument("--quick", action="store_true", help="message sizes up to 64 KiB only")
    add_common_args(ap, "manycore_study")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--replot", action="store_true", help="plot the existing CSV files again")
    args = ap.parse_args()
    status = check_tools("run_study.py", args.collnoc, need_collnoc=not args.replot)
    if status:
        return status
    os.makedirs(os.path.join(args.out, "parts"), exist_ok=True)
    names = (["tasks", "size", "allreduce", "scc", "scc_protocols", "scc_libraries"]
             if args.name == "all" else [args.name])
    for name in names:
        if name == "scc_protocols":
            status = run_protocols(args, args.out)
        elif name == "scc_libraries":
            status = run_libraries(args, args.out)
        else:
            status = run_study(name, args, args.out)
        if status:
            return status
        print("[%s] %s" % (name, os.path.join(args.out, name + ".csv")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
