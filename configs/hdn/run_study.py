#!/usr/bin/python3
"""HDN total exchange study (issue 6): simulated time beside the closed form, and HDN properties.

  configs/hdn/run_study.py STUDY [--quick] [--out DIR] [--collnoc PATH]

STUDY is one of:
  sizes       HDN(torus:2x3, 1, {1}) (72 nodes), message sizes 1..64 words: the hdn algorithm with
              one-packet messages (the formula's regime) and with 16-flit packets, pairwise beside
  networks    several (B, k, S) at 4-word messages: hdn (one-packet and 16-flit packets), its
              closed form and SPEC's, pairwise, and dimension exchange on the hypercube and the
              3D torus of similar size
  properties  degree, diameter and cost ratio from `collnoc analyze hdn --json` for HDNs up to
              millions of nodes, beside the hypercube and 3D torus of similar size
  scale       the 1800-node HDN(torus:2x3x5, 1, {1}) with its baselines (minutes)

Writes DIR/STUDY.csv, DIR/STUDY.png (matplotlib) and DIR/STUDY_commands.txt (every collnoc command
run) into DIR (default build/hdn_study/). See docs/hdn.md, "Total exchange".
Exit status: 0 ok, 1 a run failed, 2 bad usage or missing collnoc / matplotlib.
"""
import argparse
import json
import math
import os
import shlex
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from study_tools import add_common_args, check_tools, pyplot, write_csv  # noqa: E402
CONFIG = os.path.join(HERE, "total_exchange.yaml")
WORDS_PER_FLIT = 4      # ni.flit_width_bits = 128
SMALL_PACKETS = 16      # the default ni.max_packet_flits
ONE_PACKET_LIMIT = 300  # above this many nodes only the 16-flit regime runs (buffer memory)

HDN = {"platform": "hdn", "topology.kind": "hdn", "routing.algorithm": "hdn"}


def hdn_sets(base, levels, supernodes):
    s = dict(HDN)
    s.update({"hdn.base": base, "hdn.levels": levels, "hdn.supernodes": '"%s"' % supernodes})
    return s


def packets(flits):
    """Sets for packets (and SAF buffers) of `flits` flits."""
    return {"router.buffer_flits": flits, "ni.max_packet_flits": flits}


def one_packet(nodes, words):
    """Packets long enough for the longest message: all N records of a node (stage 3)."""
    return packets(max(SMALL_PACKETS, math.ceil(nodes * (words + 1) / WORDS_PER_FLIT)))


class Runner:
    def __init__(self, collnoc, log):
        self.collnoc = collnoc
        self.log = log

    def run(self, sets):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "r.json")
            cmd = [self.collnoc, "run", CONFIG, "--quiet", "--out", out]
            for k, v in sets.items():
                cmd += ["--set", "%s=%s" % (k, v)]
            shown = cmd[:4] + cmd[6:]  # without the scratch --out
            self.log.write(" ".join(shlex.quote(c) for c in shown) + "\n")
            self.log.flush()
            env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
            t0 = time.time()
            p = subprocess.run(cmd, capture_output=True, text=True, env=env)
            if p.returncode != 0:
                sys.stderr.write("collnoc failed (%d): %s\n%s\n" % (p.returncode, " ".join(cmd),
                                                                   p.stdout + p.stderr))
                sys.exit(1)
            with open(out) as f:
                r = json.load(f)
            r["wall"] = time.time() - t0
            if not r["collective"]["data_verified"]:
                sys.stderr.write("data not verified: %s\n" % " ".join(cmd))
                sys.exit(1)
            return r

    def analyze(self, base, levels, supernodes):
        cmd = [self.collnoc, "analyze", "hdn", "--base", base, "--levels", str(levels),
               "--supernodes", supernodes, "--json"]
        self.log.write(" ".join(shlex.quote(c) for c in cmd) + "\n")
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            sys.stderr.write("collnoc analyze failed: %s\n%s" % (" ".join(cmd), p.stderr))
            sys.exit(1)
        return json.loads(p.stdout)


def te(r, key="execution_cycles"):
    return r["collective"].get(key, "")


def study_sizes(run, quick):
    sizes = [1, 2, 4, 8, 16] if quick else [1, 2, 4, 8, 16, 32, 64]
    net = hdn_sets("torus:2x3", 1, "1")
    rows = []
    for m in sizes:
        one = run.run({**net, **one_packet(72, m), "workload.message_words": m})
        small = run.run({**net, **packets(SMALL_PACKETS), "workload.message_words": m})
        pair = run.run({**net, **packets(SMALL_PACKETS), "workload.message_words": m,
                        "workload.algorithm": "pairwise"})
        rows.append({"message_words": m, "hdn_one_packet": te(one),
                     "formula": te(one, "formula_cycles"),
                     "spec_formula": te(one, "spec_formula_cycles"),
                     "hdn_16flit_packets": te(small), "pairwise_16flit_packets": te(pair),
                     "stage_cycles_one_packet": " ".join(map(str, te(one, "stage_cycles")))})
    return rows


def plot_sizes(plt, rows, path):
    m = [r["message_words"] for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot(m, [r["formula"] for r in rows], "k-", label="closed form (SAF, t_s + m t_w)")
    ax.plot(m, [r["spec_formula"] for r in rows], "k:", label="SPEC 4.3 T_k as printed")
    ax.plot(m, [r["hdn_one_packet"] for r in rows], "o", label="hdn, one packet per message")
    ax.plot(m, [r["hdn_16flit_packets"] for r in rows], "s-", label="hdn, 16-flit packets")
    ax.plot(m, [r["pairwise_16flit_packets"] for r in rows], "^-", label="pairwise, 16-flit packets")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("message words m")
    ax.set_ylabel("total exchange time (cycles)")
    ax.set_title("HDN(torus:2x3, 1, {1}), 72 nodes, store-and-forward")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


NETWORKS = [("hypercube:2", 1, "1"), ("torus:2x3", 1, "C2xC3"), ("torus:2x3", 1, "C3"),
            ("torus:2x3", 1, "1"), ("hypercube:3", 1, "1"), ("hypercube:1", 2, "1,1"),
            ("hypercube:2", 2, "K2,K2"), ("torus:2x3x5", 1, "C5")]
QUICK_NETWORKS = NETWORKS[:5]


def baseline_sets(props, which):
    """Dimension exchange on the hypercube / 3D torus `analyze` names as of similar size."""
    if which == "hypercube":
        d = props["hypercube"]["dimension"]
        s = hdn_sets("hypercube:%d" % d, 0, "")
        nodes = 2 ** d
    else:
        k = props["torus3d"]["k"]
        s = {"platform": "kary_ncube", "topology.kind": "torus", "topology.k": k,
             "topology.n": 3, "routing.algorithm": "dor", "workload.algorithm": "dimension_exchange"}
        nodes = k ** 3
    s.update(packets(SMALL_PACKETS))
    return s, nodes


def study_networks(run, quick):
    m = 4
    rows = []
    for base, k, sn in (QUICK_NETWORKS if quick else NETWORKS):
        props = run.analyze(base, k, sn)
        n = props["nodes"]
        net = {**hdn_sets(base, k, sn), "workload.message_words": m}
        one = n <= ONE_PACKET_LIMIT  # else buffers of the longest message take gigabytes
        row = {"hdn": props["hdn"], "nodes": n, "degree": props["degree"],
               "diameter": props["diameter_formula"], "cost_ratio": round(props["cost_ratio"], 3)}
        small = run.run({**net, **packets(SMALL_PACKETS)})
        r = run.run({**net, **one_packet(n, m)}) if one else small
        row.update(hdn_one_packet=te(r) if one else "", formula=te(r, "formula_cycles"),
                   spec_formula=te(r, "spec_formula_cycles"), hdn_16flit_packets=te(small))
        row["pairwise_16flit_packets"] = te(run.run({**net, **packets(SMALL_PACKETS),
                                                     "workload.algorithm": "pairwise"}))
        for which in ("hypercube", "torus3d"):
            s, nodes = baseline_sets(props, which)
            row[which + "_nodes"] = nodes
            row[which + "_16flit_packets"] = te(run.run({**s, "workload.message_words": m}))
        rows.append(row)
    return rows


def plot_networks(plt, rows, path):
    labels = ["%s\n%d nodes" % (r["hdn"][4:-1].replace("#1", ""), r["nodes"]) for r in rows]
    series = [("formula", "closed form"), ("hdn_one_packet", "hdn, one packet"),
              ("hdn_16flit_packets", "hdn, 16-flit packets"),
              ("pairwise_16flit_packets", "pairwise (same HDN)"),
              ("hypercube_16flit_packets", "hypercube, dimension exchange"),
              ("torus3d_16flit_packets", "3D torus, dimension exchange")]
    fig, ax = plt.subplots(figsize=(11, 5))
    width = 0.8 / len(series)
    for i, (key, label) in enumerate(series):
        xs = [j + (i - len(series) / 2 + 0.5) * width for j in range(len(rows))]
        ys = [r[key] if r[key] != "" else 0 for r in rows]
        ax.bar(xs, ys, width, label=label)
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels(labels, fontsize=7, rotation=20, ha="right")
    ax.set_yscale("log")
    ax.set_ylabel("total exchange time (cycles), m = 4 words")
    ax.set_title("Total exchange: HDNs beside hypercubes and 3D tori of similar size (SAF)")
    ax.grid(True, axis="y", which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


PROPERTIES = [("torus:2x3x5", 0, ""), ("torus:2x3x5", 1, "1"), ("torus:2x3x5", 1, "C5"),
              ("torus:2x3x5", 1, "C2xC3"), ("torus:2x3x5", 2, "1,1"),
              ("torus:2x3x5", 2, "C2xC3,C2xC3"), ("torus:4x4", 1, "1"),
              ("torus:3x3x3", 1, "1"), ("hypercube:3", 1, "1"), ("hypercube:3", 2, "1,1"),
              ("hypercube:4", 2, "1,K2xK2"), ("hypercube:4", 3, "1,1,1")]


def study_properties(run, quick):
    rows = []
    for base, k, sn in PROPERTIES:
        p = run.analyze(base, k, sn)
        rows.append({"hdn": p["hdn"], "log2_nodes": round(p["log2_nodes"], 2),
                     "nodes": p["nodes"], "degree": p["degree"],
                     "diameter": p["diameter_formula"], "cost_ratio": round(p["cost_ratio"], 3),
                     "hypercube": "Q_%d" % p["hypercube"]["dimension"],
                     "hypercube_cost_ratio": round(p["hypercube"]["cost_ratio"], 3),
                     "torus3d": "%d^3" % p["torus3d"]["k"] if p.get("torus3d") else "",
                     "torus3d_degree": p["torus3d"]["degree"] if p.get("torus3d") else "",
                     "torus3d_diameter": p["torus3d"]["diameter"] if p.get("torus3d") else "",
                     "torus3d_cost_ratio": round(p["torus3d"]["cost_ratio"], 3)
                     if p.get("torus3d") else ""})
    return rows


def plot_properties(plt, rows, path):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    x = [r["log2_nodes"] for r in rows]
    ax.plot(x, [r["cost_ratio"] for r in rows], "o", label="HDN")
    ax.plot(x, [r["hypercube_cost_ratio"] for r in rows], "k_", markersize=12, label="hypercube")
    ax.plot([r["log2_nodes"] for r in rows if r["torus3d_cost_ratio"] != ""],
            [r["torus3d_cost_ratio"] for r in rows if r["torus3d_cost_ratio"] != ""], "^",
            label="3D torus")
    ax.set_xlabel("log2(nodes)")
    ax.set_ylabel("cost ratio (0.5 degree + 0.5 diameter) / log2 nodes")
    ax.set_title("HDN cost ratio beside networks of similar size")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def study_scale(run, quick):
    m = 1
    rows = []
    cases = [("HDN(torus:2x3x5, 1, {1}) hdn", {**hdn_sets("torus:2x3x5", 1, "1")}),
             ("HDN(torus:2x3x5, 1, {1}) pairwise",
              {**hdn_sets("torus:2x3x5", 1, "1"), "workload.algorithm": "pairwise"}),
             ("hypercube Q_11 dimension exchange", {**hdn_sets("hypercube:11", 0, "")}),
             ("3D torus 12^3 dimension exchange",
              {"platform": "kary_ncube", "topology.kind": "torus", "topology.k": 12,
               "topology.n": 3, "routing.algorithm": "dor",
               "workload.algorithm": "dimension_exchange"})]
    if quick:
        cases = cases[:1]
    for label, s in cases:
        r = run.run({**s, **packets(SMALL_PACKETS), "workload.message_words": m,
                     "sim.max_cycles": 100000000})
        rows.append({"network": label, "nodes": r["sim"]["nodes"], "simulated": te(r),
                     "formula": te(r, "formula_cycles"), "wall_seconds": round(r["wall"], 1)})
    return rows


def plot_scale(plt, rows, path):
    fig, ax = plt.subplots(figsize=(8, 4))
    ax.barh([r["network"] for r in rows], [r["simulated"] for r in rows])
    ax.set_xlabel("total exchange time (cycles), m = 1 word, 16-flit packets, SAF")
    ax.set_title("About 2000 nodes")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


STUDIES = {"sizes": (study_sizes, plot_sizes), "networks": (study_networks, plot_networks),
           "properties": (study_properties, plot_properties), "scale": (study_scale, plot_scale)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("study", choices=sorted(STUDIES))
    ap.add_argument("--quick", action="store_true", help="fewer points (a smoke test)")
    add_common_args(ap, "hdn_study")
    a = ap.parse_args()
    status = check_tools("run_study.py", a.collnoc)
    if status:
        return status
    plt = pyplot()
    os.makedirs(a.out, exist_ok=True)
    study, plot = STUDIES[a.study]
    with open(os.path.join(a.out, a.study + "_commands.txt"), "w") as log:
        rows = study(Runner(a.collnoc, log), a.quick)
    write_csv(os.path.join(a.out, a.study + ".csv"), rows)
    plot(plt, rows, os.path.join(a.out, a.study + ".png"))
    print("wrote %s/%s.csv and .png" % (a.out, a.study))
    return 0


if __name__ == "__main__":
    sys.exit(main())
