#!/usr/bin/python3
"""Network-coding study (issue 3, SPEC 3.2): all-to-all broadcast, plain against hierarchical
network coding (and message combining), analytically and simulated.

  configs/network_coding/run_study.py [--only PART,...] [--quick] [--out DIR] [--collnoc PATH]
                                      [--jobs N]

Parts (each writes DIR/PART.csv and DIR/PART.png; DIR defaults to build/nc_study/):
  size_analytic   aggregate hops vs network size, k = 2..256, tree and all-at-once bases, the
                  best group shape of each size (collnoc analyze nc --group best)
  group_size      16x16 mesh, every group shape: analytic hops and simulated execution time
  sim_size        simulated execution and completion time vs k = 4, 8, 16, 32, both bases
  packet_length   1, 2, 4, 8, 16-flit packets (16x16, 4x4 groups)
  xor_latency     XOR latency 0..35 cycles (16x16, 4x4 and 8x4 groups; pipelined and
                  unpipelined engine; chain and tree decoding)
  torus           torus vs mesh, k = 8 and 16
  sources         many-to-all, 2..256 sources (16x16, 4x4 groups)
  recursive       recursive vs one-level hierarchical coding (16x16)
  combining       network coding vs message combining, k = 4, 8, 16
  combining_packets  16x16, 8x4 groups: combining as one worm or as a train of packets
Every simulated point is `collnoc run configs/network_coding/mesh8x8.yaml --set ...` (the
study's defaults: DOR, 4 VCs, one per step, 3-cycle hop, VCT, 1-flit packets, XOR latency 1).
--quick drops the 32x32 runs and thins the sweeps (a smoke run of about a minute).
Exit status: 0 ok, 1 a run failed, 2 bad usage or missing collnoc / matplotlib.
"""
import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from study_tools import (add_common_args, check_tools, chosen_parts, plot_panels,  # noqa: E402
                         run_collnoc, write_csv)
CONFIG = os.path.join(HERE, "mesh8x8.yaml")


def analyze(collnoc, **opts):
    args = [collnoc, "analyze", "nc", "--json"]
    for k, v in opts.items():
        args += ["--" + k, str(v)]
    res = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         universal_newlines=True)
    if res.returncode != 0:
        raise RuntimeError("exit %d: %s\n%s" % (res.returncode, " ".join(args), res.stderr))
    return json.loads(res.stdout)


def simulate(collnoc, sets):
    """One run; returns its results JSON (collective.* and sim.*)."""
    r = run_collnoc(collnoc, CONFIG, sets)
    if not r["collective"]["data_verified"]:
        raise RuntimeError("data not verified: " + " ".join("%s=%s" % kv for kv in sets.items()))
    return r


def sim_row(r):
    c = r["collective"]
    return {"execution_cycles": c["execution_cycles"], "completion_cycles": c["completion_cycles"],
            "unicasts": c["unicasts"], "aggregate_hops": c["aggregate_hops"],
            "xor_operations": c["xor_operations"],
            "mean_latency_cycles": round(c["mean_latency_cycles"], 2),
            "wall_seconds": round(r["sim"]["wall_seconds"], 2)}


def run_points(args, points):
    """points: list of (row-prefix dict, --set dict); runs them in parallel, in order."""
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda p: simulate(args.collnoc, p[1]), points))
    return [dict(prefix, **sim_row(r)) for (prefix, _), r in zip(points, results)]


def mesh(k):
    return {"topology.kind": "mesh", "topology.k": k}


def plot(path, title, panels):
    """panels: list of (xlabel, ylabel, logx, logy, [(label, xs, ys, style)]), in one row."""
    plot_panels(path, title, [("",) + tuple(p) for p in panels])


def part_size_analytic(args):
    ks = [2, 4, 8, 16, 32, 64] if args.quick else \
        [2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256]
    rows = []
    for k in ks:
        for base in ("tree", "all_at_once"):
            j = analyze(args.collnoc, k=k, base=base, group="best")
            rows.append({"k": k, "nodes": j["nodes"], "base": base,
                         "plain_hops": j["plain"]["aggregate_hops"],
                         "coded_hops": j["coded"]["aggregate_hops"],
                         "combining_hops": j["combining"]["aggregate_hops"],
                         "unicasts": j["plain"]["unicasts"], "best_group": j["group_shape"],
                         "reduction": round(j["reduction"], 4)})
    series_h, series_r = [], []
    for base, style in (("tree", "-"), ("all_at_once", "--")):
        rs = [r for r in rows if r["base"] == base]
        n = [r["nodes"] for r in rs]
        series_h += [("plain, " + base, n, [r["plain_hops"] for r in rs], "o" + style),
                     ("coded (best group), " + base, n, [r["coded_hops"] for r in rs], "s" + style)]
        series_r.append((base, n, [r["reduction"] for r in rs], "o" + style))
    return rows, ("aggregate hops of all-to-all broadcast, k-ary 2-mesh (analytic)",
                  [("nodes N = k^2", "aggregate unicast hops", True, True, series_h),
                   ("nodes N = k^2", "reduction 1 - coded/plain", True, False, series_r)])


def part_group_size(args):
    groups = ["2x1", "2x2", "4x2", "4x4", "8x4", "8x8", "16x8"] if args.quick else \
        [g for g in ("2x1", "1x2", "2x2", "4x1", "4x2", "2x4", "8x1", "4x4", "8x2", "16x1",
                     "8x4", "4x8", "16x2", "8x8", "16x4", "16x8", "8x16")]
    rows, points = [], []
    for base in ("tree", "all_at_once"):
        plain = analyze(args.collnoc, k=16, base=base, group="2x2")["plain"]["aggregate_hops"]
        for g in groups:
            j = analyze(args.collnoc, k=16, base=base, group=g)
            points.append(({"base": base, "group": g, "group_size": j["group_size"],
                            "analytic_coded_hops": j["coded"]["aggregate_hops"],
                            "analytic_plain_hops": plain},
                           dict(mesh(16), **{"workload.base": base, "workload.group": g})))
    rows = run_points(args, points)
    panels = []
    for key, label in (("analytic_coded_hops", "aggregate hops (analytic)"),
                       ("execution_cycles", "execution time, cycles (simulated)"),
                       ("completion_cycles", "completion time, cycles (simulated)")):
        series = []
        for base, color in (("tree", "C0"), ("all_at_once", "C1")):
            rs = [r for r in rows if r["base"] == base]
            sizes = sorted({r["group_size"] for r in rs})
            series.append((base + ", every shape", [r["group_size"] for r in rs],
                           [r[key] for r in rs], color + "."))
            series.append((base + ", best shape of the size", sizes,
                           [min(r[key] for r in rs if r["group_size"] == m) for m in sizes],
                           color + "-"))
        panels.append(("group size M (nodes)", label, True, False, series))
    return rows, ("16x16 mesh, hierarchical network coding: group size", panels)


def compare_schemes(args, variants, xs, xname, sets_of, title, xlabel, logx=False):
    """Simulates every (variant, x); variants: list of (label, --set dict)."""
    points = [({"series": label, xname: x}, dict(sets_of(x), **extra))
              for label, extra in variants for x in xs]
    rows = run_points(args, points)
    panels = []
    for key, ylabel in (("execution_cycles", "execution time (sum of step maxima), cycles"),
                        ("completion_cycles", "completion time, cycles")):
        panels.append((xlabel, ylabel, logx, False,
                       [(label, xs, [r[key] for r in rows if r["series"] == label], "o-")
                        for label, _ in variants]))
    return rows, (title, panels)


PLAIN_CODED = [("plain, tree", {"workload.scheme": "plain", "workload.base": "tree"}),
               ("coded, tree", {"workload.base": "tree"}),
               ("plain, all_at_once", {"workload.scheme": "plain", "workload.base": "all_at_once"}),
               ("coded, all_at_once", {"workload.base": "all_at_once"})]


def part_sim_size(args):
    ks = [4, 8, 16] if args.quick else [4, 8, 16, 32]
    group = {4: "2x2", 8: "4x2", 16: "4x4", 32: "8x4"}
    return compare_schemes(args, PLAIN_CODED, ks, "k",
                           lambda k: dict(mesh(k), **{"workload.group": group[k]}),
                           "all-to-all broadcast on k x k meshes (simulated)", "k", True)


def part_packet_length(args):
    flits = [1, 4, 16] if args.quick else [1, 2, 4, 8, 16]
    return compare_schemes(
        args, PLAIN_CODED[:2], flits, "packet_flits",
        lambda f: dict(mesh(16), **{"workload.group": "4x4", "traffic.packet_flits": f,
                                    "ni.max_packet_flits": 16, "router.buffer_flits": 16}),
        "16x16 mesh, 4x4 groups: packet length", "packet length, flits", True)


def part_xor_latency(args):
    """Both group shapes of a 16x16 mesh (4x4: chains of 15 coded packets, 8x4: 31), the
    pipelined engine (a pair every cycle), the unpipelined one (busy L cycles per pair) and
    tree decoding."""
    lat = [0, 5, 35] if args.quick else [0, 1, 2, 5, 10, 15, 20, 25, 30, 35]
    variants = [("plain", {"workload.scheme": "plain", "workload.group": "4x4"})]
    for g in ("4x4", "8x4"):
        variants.append(("coded %s" % g, {"workload.group": g}))
        variants.append(("coded %s, unpipelined" % g, {"workload.group": g,
                                                        "nc.xor_pipelined": "false"}))
        variants.append(("coded %s, tree decoding" % g, {"workload.group": g,
                                                          "workload.decoding": "tree"}))
    return compare_schemes(
        args, variants, lat, "xor_latency_cycles",
        lambda l: dict(mesh(16), **{"nc.xor_latency_cycles": l}),
        "16x16 mesh, tree base: XOR latency, 4x4 and 8x4 groups", "XOR latency, cycles")


def part_torus(args):
    variants = [(t + ", " + s, dict({"topology.kind": t, "workload.scheme": sch},
                                    **({"router.vcs": 8} if t == "torus" else {})))
                for t in ("mesh", "torus")
                for s, sch in (("plain", "plain"), ("coded", "hierarchical_nc"))]
    return compare_schemes(args, variants, [8, 16], "k",
                           lambda k: {"topology.k": k, "workload.group": "4x4"},
                           "torus (8 VCs: two dateline VCs per step) vs mesh, tree base, 4x4 groups", "k", True)


def part_sources(args):
    ss = [2, 16, 256] if args.quick else [2, 4, 8, 16, 32, 64, 128, 256]
    rows, title_panels = compare_schemes(
        args, PLAIN_CODED[:2], ss, "sources",
        lambda s: dict(mesh(16), **{"workload.group": "4x4", "workload.sources": s}),
        "16x16 mesh, 4x4 groups: many-to-all", "sources S", True)
    for r in rows:
        j = analyze(args.collnoc, k=16, base="tree", group="4x4", sources=r["sources"])
        r["analytic_hops"] = j["coded" if r["series"].startswith("coded") else "plain"]["aggregate_hops"]
    return rows, title_panels


def part_recursive(args):
    variants = [("plain", {"workload.scheme": "plain"}),
                ("coded 8x8", {"workload.group": "8x8"}),
                ("recursive 8x8 / 4x4", {"workload.group": "8x8", "workload.variant": "recursive",
                                          "workload.subgroup": "4x4"}),
                ("coded 4x4", {"workload.group": "4x4"}),
                ("recursive 4x4 / 2x2", {"workload.group": "4x4", "workload.variant": "recursive",
                                          "workload.subgroup": "2x2"})]
    points = [({"series": label, "base": base}, dict(mesh(16), **extra, **{"workload.base": base}))
              for label, extra in variants for base in ("tree", "all_at_once")]
    rows = run_points(args, points)
    labels = [label for label, _ in variants]
    panels = []
    for key, ylabel in (("aggregate_hops", "aggregate hops"), ("execution_cycles", "execution, cycles")):
        panels.append(("scheme (index)", ylabel, False, False,
                       [(base, list(range(len(labels))),
                         [next(r[key] for r in rows if r["series"] == l and r["base"] == base)
                          for l in labels], "o-") for base in ("tree", "all_at_once")]))
    return rows, ("16x16 mesh: recursive coding; x = " + ", ".join(
        "%d %s" % (i, l) for i, l in enumerate(labels)), panels)


def part_combining(args):
    variants = [("plain", {"workload.scheme": "plain"}),
                ("coded", {"workload.scheme": "hierarchical_nc"}),
                ("combining", {"workload.scheme": "combining"})]
    group = {4: "2x2", 8: "4x2", 16: "4x4"}
    rows, (title, panels) = compare_schemes(
        args, variants, [4, 8, 16], "k",
        lambda k: dict(mesh(k), **{"workload.group": group[k], "ni.max_packet_flits": 16,
                                   "router.buffer_flits": 16}),
        "network coding vs message combining (tree base)", "k", True)
    panels.append(("k", "aggregate hops", True, True,
                   [(label, [4, 8, 16], [r["aggregate_hops"] for r in rows if r["series"] == label],
                     "o-") for label, _ in variants]))
    return rows, (title, panels)


def part_combining_packets(args):
    """16x16, 8x4 groups (a combined message is 32 one-flit data): the NI's longest packet
    decides whether it travels as one worm (32 flits) or as a train of packets that relays
    forward as they arrive; VCT buffers hold a whole packet."""
    flits = [4, 32] if args.quick else [4, 8, 16, 32]
    variants = [("coded", {"workload.scheme": "hierarchical_nc"}),
                ("combining", {"workload.scheme": "combining"})]
    return compare_schemes(
        args, variants, flits, "max_packet_flits",
        lambda f: dict(mesh(16), **{"workload.group": "8x4", "ni.max_packet_flits": f,
                                    "router.buffer_flits": f}),
        "16x16 mesh, 8x4 groups: combining against coding by the NI's packet length",
        "ni.max_packet_flits (= router.buffer_flits)", True)


PARTS = {"size_analytic": part_size_analytic, "group_size": part_group_size,
         "sim_size": part_sim_size, "packet_length": part_packet_length,
         "xor_latency": part_xor_latency, "torus": part_torus, "sources": part_sources,
         "recursive": part_recursive, "combining": part_combining,
         "combining_packets": part_combining_packets}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--only", default="", help="comma-separated parts: " + ", ".join(PARTS))
    ap.add_argument("--quick", action="store_true")
    add_common_args(ap, "nc_study")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    parts = chosen_parts(args.only, PARTS)
    if parts is None:
        return 2
    status = check_tools("run_study.py", args.collnoc)
    if status:
        return status
    os.makedirs(args.out, exist_ok=True)
    for p in parts:
        try:
            rows, (title, panels) = PARTS[p](args)
        except RuntimeError as e:
            print("run_study.py: %s: %s" % (p, e), file=sys.stderr)
            return 1
        write_csv(os.path.join(args.out, p + ".csv"), rows)
        plot(os.path.join(args.out, p + ".png"), title, panels)
        print("%s: %d rows -> %s.csv, %s.png" % (p, len(rows), os.path.join(args.out, p),
                                                  os.path.join(args.out, p)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
