#!/usr/bin/python3
"""Hardware multicast study (issue 24, SPEC 5): HTA with delayed and immediate header routing
against software multicast and column-path multicast, latency and deadlock probability vs
normalized load.

  configs/hta/run_study.py [--only PART,...] [--quick] [--out DIR] [--collnoc PATH] [--jobs N]

Parts (each writes DIR/PART.csv and DIR/PART.png; DIR defaults to build/hta_study/):
  load      k x k unidirectional tori, k = 8 and 16: multicast only, half and half, unicast only;
            messages of 16..64 data flits, 8..32 destinations; every scheme
  length    8x8, half and half, messages of 16, 32 and 64 data flits; every scheme
and DIR/saturation.csv: the saturation load of every series.

Every point is `collnoc run configs/hta/torus8_half_multicast.yaml --set ...` with
sim.steady_state=true (SPEC 5: the window opens when the throughput of two 1000-cycle intervals
differs by less than 0.005), a window of 20000 cycles, 12 sink channels per node (SPEC 5, every
scheme), traffic.normalized_load = the load, seed 1.
Schemes: delayed and immediate HTA (3 unicast + 3 multicast VCs), software and column_path
(router.vc_classes = 1: all 6 VCs to unicast, 2 escape + 4 adaptive). Loads go up in steps of
0.1 (0.25 past 1) until the series collapses (the drain did not end, sim.completed false, or
the mean latency passed 10 times the series' first). A point is saturated when it collapsed,
its mean latency passed 3 times the series' first, or its accepted throughput fell below 80 %
of the demand (load x capacity); the saturation load is the last load before the first
saturated point.
--quick: k = 8 only, loads in steps of 0.2 (a smoke run of about a minute).
Exit status: 0 ok, 1 a run failed, 2 bad usage or missing collnoc / matplotlib.
"""
import argparse
import os
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from study_tools import (add_common_args, check_tools, chosen_parts, plot_panels,  # noqa: E402
                         run_collnoc, write_csv)
CONFIG = os.path.join(HERE, "torus8_half_multicast.yaml")

SCHEMES = {
    "delayed": {"hta.header_routing": "delayed"},
    "immediate": {"hta.header_routing": "immediate"},
    "software": {"traffic.multicast_scheme": "software", "router.vc_classes": 1},
    "column_path": {"traffic.multicast_scheme": "column_path", "router.vc_classes": 1},
}
# Unicast only: the scheme does not matter, the VC budget does.
UNICAST_NETWORKS = {
    "hta network (3 unicast VCs)": {"router.vc_classes": 2},
    "baseline network (6 VCs)": {"router.vc_classes": 1},
}
MIXES = {"multicast": 1.0, "half": 0.5, "unicast": 0.0}


def get(r, dotted, default=""):
    for part in dotted.split("."):
        if not isinstance(r, dict) or part not in r:
            return default
        r = r[part]
    return r


def row_of(r):
    mc_copies = get(r, "multicast.copies_delivered", 0)
    return {
        "completed": get(r, "sim.completed"),
        "steady_state_reached": get(r, "sim.steady_state_reached"),
        "warmup_end_cycle": get(r, "sim.warmup_end_cycle"),
        "injection_rate": round(get(r, "throughput.injection_rate_flits_per_node_cycle", 0.0), 6),
        "accepted_flits_per_node_cycle":
            round(get(r, "throughput.accepted_flits_per_node_cycle", 0.0), 5),
        # (unicast.* with multicast traffic, else every packet is unicast: latency_cycles.*)
        "unicast_latency_mean": round(get(r, "unicast.latency_cycles.mean",
                                          get(r, "latency_cycles.mean", 0.0)), 1),
        "unicast_latency_p99": get(r, "unicast.latency_cycles.p99",
                                   get(r, "latency_cycles.p99", "")),
        "multicast_latency_mean": round(get(r, "multicast.latency_cycles.mean", 0.0), 1),
        "multicast_latency_p99": get(r, "multicast.latency_cycles.p99", ""),
        "multicast_delivered": get(r, "multicast.messages_delivered", ""),
        "copies_verified": "%s/%s" % (get(r, "multicast.copies_verified", 0), mc_copies),
        "deadlock_probability": round(get(r, "hta.deadlock_probability", 0.0), 4)
        if get(r, "hta.deadlock_probability", None) is not None else "",
        "potentially_deadlocked": get(r, "hta.potentially_deadlocked"),
        "diversions": get(r, "hta.diversions"),
        "absorbed": get(r, "hta.absorbed"),
        "throttled": get(r, "ni.messages_throttled", 0),
        "wall_seconds": round(get(r, "sim.wall_seconds", 0.0), 2),
    }


def loads(quick):
    steps = [round(0.1 * i, 2) for i in range(1, 11)] + [1.25, 1.5, 1.75, 2.0, 2.5, 3.0]
    return steps[1::2] if quick else steps


def capacity(k):
    """Flits/node/cycle a unidirectional k-ary 2-cube carries under uniform unicast traffic
    (docs/traffic.md, Normalized load)."""
    return 2.0 / (k - 1)


def run_series(args, prefix, sets, mix):
    """One series: loads until it saturates. Rows, each with `saturated`."""
    rows, first_latency = [], None
    key = "multicast_latency_mean" if mix > 0 else "unicast_latency_mean"
    k = int(sets["topology.k"])
    for load in loads(args.quick):
        point = dict(sets, **{"traffic.normalized_load": load})
        row = dict(prefix, load=load, **row_of(run_collnoc(args.collnoc, CONFIG, point)))
        latency = row[key]
        first_latency = first_latency or latency
        demand = load * capacity(k)
        row["saturated"] = (not row["completed"] or
                            row["accepted_flits_per_node_cycle"] < 0.8 * demand or
                            latency > 3 * first_latency)
        rows.append(row)
        if not row["completed"] or latency > 10 * first_latency:
            break  # (collapsed: the curve's knee is behind)
    return rows


def base_sets(k, mix, flits):
    sets = {"topology.k": k, "traffic.multicast_fraction": mix, "sim.steady_state": "true",
            "sim.measure_cycles": 20000, "sim.max_drain_cycles": 20000, "sim.threads": 1,
            "ni.sink_channels": 12,
            "seed": 1}
    if flits:
        sets["traffic.packet_flits"] = flits
    else:
        sets.update({"traffic.packet_flits_min": 16, "traffic.packet_flits_max": 64})
    return sets


def series_of(k, mix_name, flits):
    """(row prefix, --set dict) per scheme of a mix."""
    mix = MIXES[mix_name]
    schemes = UNICAST_NETWORKS if mix == 0 else SCHEMES
    out = []
    for name, extra in schemes.items():
        prefix = {"k": k, "mix": mix_name, "data_flits": flits or "16..64", "scheme": name}
        out.append((prefix, dict(base_sets(k, mix, flits), **extra), mix))
    return out


def run_all(args, series):
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda s: run_series(args, *s), series))
    return [row for rows in results for row in rows]


STYLE = {"delayed": "o-", "immediate": "s-", "software": "^--", "column_path": "v--",
         "hta network (3 unicast VCs)": "o-", "baseline network (6 VCs)": "^--"}


def latency_panels(rows, group_keys, title_of):
    panels = []
    groups = []
    for r in rows:
        g = tuple(r[k] for k in group_keys)
        if g not in groups:
            groups.append(g)
    for g in groups:
        rs = [r for r in rows if tuple(r[k] for k in group_keys) == g]
        key = "unicast_latency_mean" if rs[0]["mix"] == "unicast" else "multicast_latency_mean"
        series = []
        for scheme in dict.fromkeys(r["scheme"] for r in rs):
            s = [r for r in rs if r["scheme"] == scheme and r["completed"]]
            series.append((scheme, [r["load"] for r in s], [r[key] for r in s], STYLE[scheme]))
        panels.append((title_of(g), "normalized load", key.replace("_", " ") + " (cycles)",
                       False, True, series))
    return panels


def part_load(args):
    ks = [8] if args.quick else [8, 16]
    series = [s for k in ks for mix in MIXES for s in series_of(k, mix, None)]
    rows = run_all(args, series)
    panels = latency_panels(rows, ("k", "mix"),
                            lambda g: "%dx%d unidirectional torus, %s" % (g[0], g[0], g[1]))
    hta = [r for r in rows if r["scheme"] in ("delayed", "immediate")]
    for k in ks:
        series_dp = []
        for mix in ("multicast", "half"):
            for scheme in ("delayed", "immediate"):
                # (log scale: loads where no message was diverted are left out)
                s = [r for r in hta if r["k"] == k and r["mix"] == mix and r["scheme"] == scheme
                     and r["deadlock_probability"]]
                series_dp.append(("%s, %s" % (scheme, mix), [r["load"] for r in s],
                                  [r["deadlock_probability"] for r in s],
                                  STYLE[scheme] if mix == "multicast" else STYLE[scheme][0] + ":"))
        panels.append(("%dx%d: potentially deadlocked / delivered" % (k, k), "normalized load",
                       "deadlock probability", False, True, series_dp))
    return rows, ("latency vs normalized load (16..64 data flits, 8..32 destinations)", panels)


def part_length(args):
    series = [s for flits in (16, 32, 64) for s in series_of(8, "half", flits)]
    rows = run_all(args, series)
    panels = latency_panels(rows, ("data_flits",),
                            lambda g: "8x8, half multicast, %s data flits" % g[0])
    return rows, ("multicast latency vs normalized load by message length", panels)


PARTS = {"load": part_load, "length": part_length}


def saturation(rows):
    table = []
    groups = []
    for r in rows:
        g = (r["k"], r["mix"], r["data_flits"], r["scheme"])
        if g not in groups:
            groups.append(g)
    for g in groups:
        rs = [r for r in rows if (r["k"], r["mix"], r["data_flits"], r["scheme"]) == g]
        first = next((i for i, r in enumerate(rs) if r["saturated"]), len(rs))
        ok = rs[:first]
        table.append({"k": g[0], "mix": g[1], "data_flits": g[2], "scheme": g[3],
                      "saturation_load": ok[-1]["load"] if ok else 0.0,
                      "reached_end_of_sweep": first == len(rs),
                      "accepted_at_saturation": ok[-1]["accepted_flits_per_node_cycle"] if ok else 0,
                      "max_accepted": max(r["accepted_flits_per_node_cycle"] for r in rs)})
    return table


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_common_args(ap, "hta_study")
    ap.add_argument("--only", default="", help="comma-separated parts: " + ", ".join(PARTS))
    ap.add_argument("--quick", action="store_true", help="k = 8 only, coarser loads")
    ap.add_argument("--jobs", type=int, default=2, help="series simulated at once")
    args = ap.parse_args()
    parts = chosen_parts(args.only, PARTS)
    if parts is None:
        return 2
    status = check_tools("run_study.py", args.collnoc)
    if status:
        return status
    os.makedirs(args.out, exist_ok=True)
    every = []
    try:
        for p in parts:
            rows, (title, panels) = PARTS[p](args)
            write_csv(os.path.join(args.out, p + ".csv"), rows)
            plot_panels(os.path.join(args.out, p + ".png"), title, panels, cols=3, width=5.5,
                        height=4.2)
            print("%s: %d points -> %s" % (p, len(rows), os.path.join(args.out, p + ".csv")))
            every += rows
    except RuntimeError as e:
        print("run_study.py: a run failed: %s" % e, file=sys.stderr)
        return 1
    write_csv(os.path.join(args.out, "saturation.csv"), saturation(every))
    return 0


if __name__ == "__main__":
    sys.exit(main())
