#!/usr/bin/python3
"""Energy study (docs/energy.md): what network coding and compression are worth in pJ.

  configs/energy/energy_study.py [--only nc,compression] [--out DIR] [--collnoc PATH] [--jobs N]

Parts (each writes DIR/PART.csv and prints the markdown table docs/energy.md shows):
  nc           all-to-all broadcast, plain vs hierarchical network coding (8x8 mesh, 4x2 groups;
               16x16 mesh, 8x4 groups): link energy saved against the XOR engines' energy
  compression  4x4 mesh, uniform traffic of 10..200-flit packets of small integers (FPC), at
               two loads: the policies never / always / selective, codec energy against the
               link, buffer and crossbar energy the shorter packets save
Each point is `collnoc run CONFIG --set power.table=configs/power/{45nm,22nm}.yaml --set ...`.
About two minutes on 2 cores. Exit status: 0 ok, 1 a run failed, 2 bad usage or no collnoc.
"""
import argparse
import os
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from study_tools import ROOT, add_common_args, check_tools, run_collnoc, write_csv  # noqa: E402

TABLES = ["45nm", "22nm"]
NC = os.path.join(ROOT, "configs", "network_coding", "mesh8x8.yaml")
COMPRESSION = os.path.join(ROOT, "configs", "compression", "mesh4x4.yaml")
ROUTER_PARTS = ["buffer", "route_computation", "vc_allocation", "switch_allocation", "crossbar"]


def energy(r, name):
    return r["energy"]["by_component"][name + "_pj"]


def nc_points():
    for k, group in [(8, "4x2"), (16, "8x4")]:
        for scheme in ["plain", "hierarchical_nc"]:
            for table in TABLES:
                yield ({"mesh": "%dx%d" % (k, k), "group": group if scheme != "plain" else "-",
                        "scheme": scheme, "table": table},
                       NC, {"topology.k": k, "workload.scheme": scheme, "workload.group": group})


def nc_row(r):
    return {"unicasts": r["collective"]["unicasts"],
            "link_traversals": r["energy"]["events"]["link_traversals"],
            "link_pj": energy(r, "link"), "xor_words": r["energy"]["events"]["xor_words"],
            "xor_pj": energy(r, "xor"), "ni_pj": energy(r, "ni"),
            "router_pj": sum(energy(r, p) for p in ROUTER_PARTS),
            "dynamic_pj": r["energy"]["dynamic_pj"], "leakage_pj": r["energy"]["leakage_pj"],
            "total_pj": r["energy"]["total_pj"],
            "completion_cycles": r["collective"]["completion_cycles"]}


def compression_points():
    for load in [0.05, 0.2]:
        for policy in ["never", "always", "selective"]:
            for table in TABLES:
                yield ({"load": load, "policy": policy, "table": table}, COMPRESSION,
                       {"ni.compression.policy": policy, "traffic.injection_rate": load,
                        "sim.measure_cycles": 20000})


def compression_row(r):
    packets = r["packets"]["delivered"]
    return {"packets": packets, "network_flits": r["flits"]["delivered"],
            "link_pj": energy(r, "link"), "codec_pj": energy(r, "codec"),
            "router_pj": sum(energy(r, p) for p in ROUTER_PARTS), "ni_pj": energy(r, "ni"),
            "dynamic_pj_per_packet": r["energy"]["dynamic_pj"] / packets,
            "total_pj_per_packet": r["energy"]["total_pj"] / packets,
            "latency_cycles": r["latency_cycles"]["mean"]}


PARTS = {"nc": (nc_points, nc_row), "compression": (compression_points, compression_row)}


def markdown(rows):
    """The table docs/energy.md shows: energies in nJ (the CSV keeps pJ)."""
    cols = list(rows[0].keys())
    def name(c):
        return c[:-3] + " nJ" if c.endswith("_pj") else c.replace("_pj_", " nJ ")
    def cell(c, v):
        if "_pj" in c:
            return "%.1f" % (v / 1000.0) if v >= 100 else "%.3f" % (v / 1000.0)
        return "%.4g" % v if isinstance(v, float) else str(v)
    lines = ["| " + " | ".join(name(c) for c in cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(cell(c, r[c]) for c in cols) + " |" for r in rows]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default=",".join(PARTS), help="parts: " + ", ".join(PARTS))
    ap.add_argument("--jobs", type=int, default=2, help="runs at once (default 2)")
    add_common_args(ap, "energy_study")
    args = ap.parse_args()
    parts = args.only.split(",")
    for p in parts:
        if p not in PARTS:
            print("energy_study.py: unknown part %s (allowed: %s)" % (p, ", ".join(PARTS)),
                  file=sys.stderr)
            return 2
    if check_tools("energy_study.py", args.collnoc):
        return 2
    os.makedirs(args.out, exist_ok=True)
    for part in parts:
        points, row = PARTS[part]
        todo = list(points())

        def one(point):
            labels, config, sets = point
            sets = dict(sets, **{"power.table": os.path.join(ROOT, "configs", "power",
                                                             labels["table"] + ".yaml")})
            return dict(labels, **row(run_collnoc(args.collnoc, config, sets)))
        try:
            with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
                rows = list(pool.map(one, todo))
        except RuntimeError as e:
            print("energy_study.py: %s" % e, file=sys.stderr)
            return 1
        write_csv(os.path.join(args.out, part + ".csv"), rows)
        print("## %s\n\n%s\n" % (part, markdown(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
