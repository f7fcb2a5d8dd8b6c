#!/usr/bin/python3
"""collnoc plot: load curves from sweep CSVs and link heat maps from results JSON (docs/plots.md).

Run by `collnoc plot ARGS` (sc_main/plot.cpp), or directly with the same arguments. Input is
checked before matplotlib is imported: a refusal is quick and writes nothing. The figure is
written to a temporary file beside -o and renamed, so a failed plot leaves no partial file.
Exit status: 0 written, 2 bad input or matplotlib missing, 1 the figure could not be written.
Python 3 standard library, matplotlib and numpy only (Debian: python3-matplotlib, python3-numpy).
"""
import argparse
import csv
import json
import math
import os
import re
import sys
import tempfile

EXTENSIONS = (".png", ".svg")
MAX_PANELS = 36  # heatmap --rounds: small multiples in one figure
METRICS = {  # --metric: the key of a `links` row, and what it is
    "utilization": ("utilization", "utilization (flits/cycle)"),
    "flits": ("flits", "flits sent"),
    "contention": ("contention_events", "contention events"),
    "energy": ("energy_pj", "energy (pJ)"),  # routers by theirs too (run with power.table)
}
# The port names of grid topologies (noc/topology), as a step in (dimension, sign).
PORT_STEPS = {"E": (0, 1), "W": (0, -1), "N": (1, 1), "S": (1, -1)}


class BadInput(Exception):
    """Refused before anything is drawn: exit status 2."""


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise BadInput(message + " (see collnoc plot --help)")


# ------------------------------------------------------------------------------ input checks
def check_input_file(path):
    if not os.path.exists(path):
        raise BadInput("%s: no such file" % path)
    if not os.path.isfile(path):  # a directory reads as empty, a FIFO may block forever
        raise BadInput("%s: not a regular file" % path)


def check_output_path(path):
    ext = os.path.splitext(path)[1].lower()
    if ext not in EXTENSIONS:
        raise BadInput("-o %s: unknown extension '%s': allowed %s" %
                       (path, ext, ", ".join(EXTENSIONS)))
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise BadInput("-o %s: directory %s does not exist" % (path, folder))
    if os.path.isdir(path):
        raise BadInput("-o %s: is a directory" % path)
    return ext[1:]


def number(text, option, column, path):
    """A CSV field as a float; None when empty (a point that failed has no results)."""
    if text is None or text == "":
        return None
    try:
        return float(text)
    except ValueError:
        raise BadInput("%s %s: '%s' in %s is not a number" % (option, column, text, path))


# ------------------------------------------------------------------------------ drawing helpers
def pyplot():
    """matplotlib.pyplot drawing to files (no display needed); exit 2 naming the package."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        matplotlib.rcParams["svg.hashsalt"] = "collnoc"  # the same SVG for the same input
        import matplotlib.pyplot as plt
    except ImportError:
        raise BadInput("plotting needs matplotlib, which %s cannot import: install the Debian "
                       "package python3-matplotlib (make deps does), or set COLLNOC_PYTHON to a "
                       "Python 3 that has it" % sys.executable)
    return plt


def save(fig, path, fmt):
    """Writes the figure atomically: the file is complete or absent."""
    folder = os.path.dirname(path) or "."
    fd, scratch = tempfile.mkstemp(dir=folder, prefix=".collnoc_plot_", suffix="." + fmt)
    os.close(fd)
    try:
        umask = os.umask(0)  # (read by setting it)
        os.umask(umask)
        os.chmod(scratch, 0o666 & ~umask)  # as a plain open() would make it, not mkstemp's 0600
        fig.savefig(scratch, format=fmt, dpi=100, bbox_inches="tight",
                    metadata={"Software": "collnoc plot"} if fmt == "png" else {"Date": None})
        os.replace(scratch, path)
    except BaseException:
        os.unlink(scratch)
        raise


# ------------------------------------------------------------------------------ load curves
def read_sweep(path):
    """The header and rows of a sweep CSV: the swept key(s) first, a sim.status column."""
    check_input_file(path)
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            columns = reader.fieldnames or []
            rows = list(reader)
    except (UnicodeDecodeError, csv.Error):
        columns = []
    if len(columns) < 2 or "sim.status" not in columns[1:]:
        raise BadInput("%s: not a sweep CSV of collnoc (its header must start with the swept key "
                       "and have a sim.status column)" % path)
    return columns, rows


def load_plot(args):
    fmt = check_output_path(args.out)
    sweeps = [(path,) + read_sweep(path) for path in args.csv]
    x_key = args.x or sweeps[0][1][0]  # default: the swept key
    for path, columns, _ in sweeps:
        for option, key in (("--x", x_key), ("--y", args.y), ("--by", args.by)):
            if key and key not in columns:
                raise BadInput("%s %s: no such column in %s; its columns: %s" %
                               (option, key, path, ", ".join(columns)))

    # series label -> [(x, y, saturated)], in the order first seen
    series = {}
    skipped = []
    for path, columns, rows in sweeps:
        for row in rows:
            label = []
            if len(sweeps) > 1:
                label.append(os.path.basename(path))
            if args.by:
                label.append("%s = %s" % (args.by, row[args.by]))
            points = series.setdefault(", ".join(label), [])
            if row["sim.status"] != "ok":
                skipped.append("%s: %s = %s: sim.status %s" %
                               (path, columns[0], row[columns[0]], row["sim.status"] or "missing"))
                continue
            x = number(row[x_key], "--x", x_key, path)
            y = number(row[args.y], "--y", args.y, path)
            if x is None or y is None:
                continue
            points.append((x, y, row.get("sim.completed") == "false"))
    for s in skipped:
        print("collnoc plot: not plotted (the point failed): %s" % s, file=sys.stderr)
    if not any(series.values()):
        raise BadInput("%s: no point with numbers in --x %s and --y %s" %
                       (", ".join(args.csv), x_key, args.y))

    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    any_saturated = False
    for label, points in series.items():
        if not points:
            continue
        points.sort()
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        line, = ax.plot(xs, ys, marker="o", markersize=4, label=label or args.y)
        hot = [p for p in points if p[2]]
        if hot:
            any_saturated = True
            ax.plot([p[0] for p in hot], [p[1] for p in hot], linestyle="none", marker="X",
                    markersize=10, color=line.get_color(), markeredgecolor="black")
    if any_saturated:
        ax.plot([], [], linestyle="none", marker="X", markersize=10, color="white",
                markeredgecolor="black", label="saturated (sim.completed = false)")
    ax.set_xlabel(x_key)
    ax.set_ylabel(args.y)
    if args.logy:
        ax.set_yscale("log")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    if args.title:
        ax.set_title(args.title)
    save(fig, args.out, fmt)
    return 0


# ------------------------------------------------------------------------------ heat maps
def read_results(path):
    check_input_file(path)
    try:
        with open(path) as f:
            results = json.load(f)
    except (ValueError, UnicodeDecodeError) as e:
        raise BadInput("%s: not JSON: %s" % (path, e))
    if not isinstance(results, dict) or not isinstance(results.get("links"), list):
        raise BadInput("%s: no 'links' array: not the results JSON of collnoc run" % path)
    if not isinstance(results.get("sim"), dict):
        results["sim"] = {}  # (only names the topology)
    return results


def read_network(results, path, key, router_key="buffer_occupancy_mean_flits"):
    """Router-to-router links (each with router, to_router and the metric `key`, if any), the
    router count, and router -> `router_key` of its router_buffers row (mean buffer occupancy;
    empty for results without router_buffers)."""
    def whole(row, name):
        v = row.get(name)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise BadInput("%s: a row of '%s' without a router number in '%s': %s" %
                           (path, table, name, json.dumps(row)[:120]))
        return v

    def real(row, name):
        v = row.get(name)
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise BadInput("%s: a row of '%s' without a number in '%s': %s" %
                           (path, table, name, json.dumps(row)[:120]))
        return float(v)

    table = "links"
    links = []
    for row in results["links"]:
        if not isinstance(row, dict):
            raise BadInput("%s: a row of 'links' that is not an object: %s" % (path, row))
        if "to_node" in row:
            continue  # an ejection port: not drawn
        link = {"router": whole(row, "router"), "to_router": whole(row, "to_router"),
                "port": str(row.get("port", ""))}
        if key:
            link[key] = real(row, key)
        links.append(link)
    sim = results.get("sim") if isinstance(results.get("sim"), dict) else {}
    routers = sim.get("routers") if isinstance(sim.get("routers"), int) else 0
    routers = max([routers] + [max(l["router"], l["to_router"]) + 1 for l in links])
    if routers == 0:
        raise BadInput("%s: no routers: nothing to draw" % path)
    table = "router_buffers"
    buffers = {}
    rows = results.get("router_buffers", [])
    for row in rows if isinstance(rows, list) else []:
        if isinstance(row, dict):
            buffers[whole(row, "router")] = real(row, router_key)
    return links, routers, buffers


def grid_shape(results, routers):
    """[k0, k1] and wrap-around for a 1-D or 2-D mesh or torus, else None (node-link drawing)."""
    m = re.match(r"^(\d+(?:x\d+)*) (mesh|torus)$", str(results["sim"].get("topology", "")))
    if not m:
        return None
    k = [int(v) for v in m.group(1).split("x")]
    if len(k) > 2 or math.prod(k) != routers:
        return None
    return (k + [1])[:2], m.group(2) == "torus"


def spring_layout(count, edges):
    """Fruchterman-Reingold from a circle, a fixed number of steps: the same drawing every time."""
    import numpy as np
    angle = 2 * np.pi * np.arange(count) / max(count, 1)
    pos = np.stack([np.cos(angle), np.sin(angle)], axis=1)
    if count > 400 or not edges:  # past a few hundred routers a circle is as readable
        return pos
    a = np.array([e[0] for e in edges])
    b = np.array([e[1] for e in edges])
    k = 2.5 / math.sqrt(count)
    temperature = 0.1
    for _ in range(500):
        delta = pos[:, None, :] - pos[None, :, :]
        dist = np.maximum(np.linalg.norm(delta, axis=2), 1e-3)
        shift = (delta * (k * k / dist ** 2)[:, :, None]).sum(axis=1)
        pull = pos[a] - pos[b]
        length = np.maximum(np.linalg.norm(pull, axis=1), 1e-3)
        force = pull * (length / k)[:, None]
        np.add.at(shift, a, -force)
        np.add.at(shift, b, force)
        step = np.maximum(np.linalg.norm(shift, axis=1), 1e-9)
        pos += shift / step[:, None] * np.minimum(step, temperature)[:, None]
        temperature *= 0.99
    pos -= pos.mean(axis=0)
    return pos / max(np.abs(pos).max(), 1e-9)


def link_arrows(results, links, routers):
    """Per link (start x, y, vector dx, dy), the router positions and the node radius."""
    shape = grid_shape(results, routers)
    arrows = []
    if shape:
        (kx, ky), _ = shape
        pos = [(r % kx, r // kx) for r in range(routers)]
        radius, side, gap = 0.17, 0.09, 0.2
        for link in links:
            (x0, y0), (x1, y1) = pos[link["router"]], pos[link["to_router"]]
            step = PORT_STEPS.get(link["port"])
            m = re.match(r"^([+-])d(\d)$", link["port"])
            if m:
                step = (int(m.group(2)), 1 if m.group(1) == "+" else -1)
            if step is None:  # not a grid port: the way to the neighbour
                step = (0 if x1 != x0 else 1, 1 if (x1 - x0) + (y1 - y0) > 0 else -1)
            ux, uy = (step[1], 0) if step[0] == 0 else (0, step[1])
            # Drive on the right: the two directions of a channel side by side.
            sx, sy = x0 + uy * side + ux * gap, y0 - ux * side + uy * gap
            if (x1 - x0, y1 - y0) == (ux, uy):
                arrows.append((sx, sy, ux * (1 - 2 * gap), uy * (1 - 2 * gap)))
            else:  # wrap-around: an arrow leaving the grid's edge
                arrows.append((sx, sy, ux * 0.35, uy * 0.35))
        return pos, radius, arrows, shape

    pairs = sorted({(min(l["router"], l["to_router"]), max(l["router"], l["to_router"]))
                    for l in links})
    layout = spring_layout(routers, pairs)
    pos = [tuple(p) for p in layout]
    lengths = [math.dist(pos[a], pos[b]) for a, b in pairs] or [0.2]
    unit = sorted(lengths)[len(lengths) // 2]
    radius, side = min(0.16 * unit, 0.045), min(0.07 * unit, 0.015)
    for link in links:
        (x0, y0), (x1, y1) = pos[link["router"]], pos[link["to_router"]]
        length = math.dist((x0, y0), (x1, y1)) or 1.0
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        gap = min(radius * 1.2, length * 0.3)
        arrows.append((x0 + uy * side + ux * gap, y0 - ux * side + uy * gap,
                       ux * (length - 2 * gap), uy * (length - 2 * gap)))
    return pos, radius, arrows, None


def round_values(results, path, links, key, wanted):
    """Per round to draw (`wanted`: a round number, (first, last), or "all"), the metric of
    every link in `links` order from the `links_by_round` rows (0 where the round sent nothing)."""
    rows = results.get("links_by_round")
    if not isinstance(rows, list):
        raise BadInput("%s: no 'links_by_round' array: run the firmware with --set "
                       "stats.per_round_links=true" % path)
    index = {(l["router"], l["to_router"], l["port"]): i for i, l in enumerate(links)}
    rounds = {}
    for row in rows:
        if not isinstance(row, dict) or not all(
                isinstance(row.get(k), int) and not isinstance(row.get(k), bool)
                for k in ("round", "router", "to_router")) or \
                isinstance(row.get(key), bool) or not isinstance(row.get(key), (int, float)):
            raise BadInput("%s: a row of 'links_by_round' without round, router, to_router and "
                           "%s: %s" % (path, key, json.dumps(row)[:120]))
        i = index.get((row["router"], row["to_router"], str(row.get("port", ""))))
        if i is None:
            raise BadInput("%s: a row of 'links_by_round' for a link not in 'links': %s" %
                           (path, json.dumps(row)[:120]))
        rounds.setdefault(row["round"], [0.0] * len(links))[i] += float(row[key])
    have = sorted(rounds)
    listed = ", ".join(map(str, have[:20])) + (", ..." if len(have) > 20 else "")
    if wanted == "all":
        chosen = have
    elif isinstance(wanted, tuple):
        chosen = [r for r in have if wanted[0] <= r <= wanted[1]]
    else:
        chosen = [wanted] if wanted in rounds else []
    if not chosen:
        raise BadInput("--round%s %s: no link traffic in %s; rounds with traffic: %s" % (
            "s" if wanted == "all" or isinstance(wanted, tuple) else "",
            "%d-%d" % wanted if isinstance(wanted, tuple) else wanted,
            "that round" if isinstance(wanted, int) else "those rounds", listed or "none"))
    if len(chosen) > MAX_PANELS:
        raise BadInput("--rounds: %d rounds with traffic, at most %d panels in one figure: pick a "
                       "range (--rounds FIRST-LAST) or one round (--round R)" %
                       (len(chosen), MAX_PANELS))
    return [(r, rounds[r]) for r in chosen]


def draw_network(plt, ax, drawing, values, norm, router_map, buffers, routers):
    """The routers and the links, coloured by `values` (one per link) on `norm`."""
    pos, radius, arrows, shape = drawing
    if arrows:
        xs, ys, us, vs = zip(*arrows)
        shaft = radius * (0.28 if shape else 0.3)
        ax.quiver(xs, ys, us, vs, values, cmap="viridis", norm=norm, angles="xy",
                  scale_units="xy", scale=1, units="xy", width=shaft, headwidth=3,
                  headlength=3.5, headaxislength=3, zorder=2)
    for r, (x, y) in enumerate(pos):
        face = router_map.to_rgba(buffers.get(r, 0.0)) if router_map else "white"
        ax.add_patch(plt.Circle((x, y), radius, facecolor=face, edgecolor="black",
                                linewidth=0.8, zorder=3))
        if routers <= 64:
            dark = router_map and 0.299 * face[0] + 0.587 * face[1] + 0.114 * face[2] < 0.5
            ax.text(x, y, str(r), ha="center", va="center", zorder=4,
                    color="white" if dark else "black",
                    fontsize=8 if shape else 6)
    ax.set_aspect("equal")
    margin = 0.6 if shape else 0.1
    xs_all, ys_all = [p[0] for p in pos], [p[1] for p in pos]
    ax.set_xlim(min(xs_all) - margin, max(xs_all) + margin)
    ax.set_ylim(min(ys_all) - margin, max(ys_all) + margin)
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_visible(False)


def heatmap_plot(args):
    fmt = check_output_path(args.out)
    results = read_results(args.json)
    per_round = args.round is not None or args.rounds is not None
    metric = args.metric or ("flits" if per_round else "utilization")
    if per_round and metric in ("utilization", "energy"):
        raise BadInput("--metric %s with --round/--rounds: %s: use flits or contention" % (
            metric, "a round has no duration of its own (cores' rounds overlap)"
            if metric == "utilization" else "energy is the whole run's"))
    key, meaning = METRICS[metric]
    energy = metric == "energy"
    if energy and "energy" not in results:
        raise BadInput("%s: no energy results: --metric energy needs a run with power.table set "
                       "(docs/energy.md)" % args.json)
    router_label = "router energy (pJ)" if energy else "router mean buffer occupancy (flits)"
    # Per round: every link of the network, its values from that round's rows.
    links, routers, buffers = read_network(
        results, args.json, None if per_round else key,
        "energy_pj" if energy else "buffer_occupancy_mean_flits")
    if per_round:
        wanted = args.round if args.round is not None else args.rounds
        panels = [("round %d" % r, v) for r, v in round_values(results, args.json, links, key, wanted)]
        buffers = {}  # (router occupancy is the whole run's)
    else:
        panels = [(None, [l[key] for l in links])]

    plt = pyplot()
    from matplotlib import cm, colors
    drawing = link_arrows(results, links, routers)
    shape = drawing[3]
    width = (shape[0][0] if shape else 8)
    height = (shape[0][1] if shape else 8)
    size = min(12, max(4.5, 0.9 * max(width, height) + 2))
    cols = math.ceil(math.sqrt(len(panels)))
    rows = math.ceil(len(panels) / cols)
    if len(panels) > 1:  # small multiples: each panel smaller, one colour scale for all
        size = max(2.5, min(size, 16.0 / cols))
    bars = 3.2 if buffers else 1.8  # room for the colour bars
    panel_height = size * max(height, 1) / max(width, 1) + 0.8 if shape else size
    if len(panels) > 1:  # the colour bar takes width from every panel, and so height
        panel_height = 0.85 * (panel_height - 0.8) + 0.4
    fig, axes = plt.subplots(rows, cols, squeeze=False,
                             figsize=(size * cols + bars, panel_height * rows))
    link_norm = colors.Normalize(vmin=0, vmax=max([v for _, vs in panels for v in vs] + [0]) or 1)
    link_map = cm.ScalarMappable(norm=link_norm, cmap="viridis")
    router_map = None
    if buffers:
        router_map = cm.ScalarMappable(
            norm=colors.Normalize(vmin=0, vmax=max(buffers.values()) or 1), cmap="Oranges")
    flat = [ax for row in axes for ax in row]
    for ax, (name, values) in zip(flat, panels):
        draw_network(plt, ax, drawing, values, link_norm, router_map, buffers, routers)
        if name and len(panels) > 1:
            ax.set_title(name, fontsize=10)
    for ax in flat[len(panels):]:
        ax.set_visible(False)
    fig.colorbar(link_map, ax=flat, shrink=0.8, pad=0.02, label="link " + meaning)
    if router_map:
        fig.colorbar(router_map, ax=flat, shrink=0.8, pad=0.02, label=router_label)
    topology = results["sim"].get("topology", "%d routers" % routers)
    if per_round and len(panels) == 1:
        title = "%s, %s\nlinks by %s" % (topology, panels[0][0], metric)
    elif per_round:
        title = "%s: links by %s, per round" % (topology, metric)
    else:
        title = "%s\nlinks by %s%s" % (topology, metric, (
            ", routers by energy" if energy else ", routers by buffer occupancy") if buffers else "")
    if len(panels) > 1:
        fig.suptitle(args.title or title)
    else:
        flat[0].set_title(args.title or title)
    save(fig, args.out, fmt)
    return 0


def round_range(text):
    """--rounds: nothing (every round with traffic) or FIRST-LAST."""
    if text == "all":  # (argparse passes the const through here too)
        return text
    m = re.match(r"^(\d+)-(\d+)$", text)
    if not m or int(m.group(1)) > int(m.group(2)):
        raise argparse.ArgumentTypeError("'%s': allowed FIRST-LAST, two round numbers, "
                                         "FIRST <= LAST (or no value: every round)" % text)
    return int(m.group(1)), int(m.group(2))


# ------------------------------------------------------------------------------ command line
def parsers():
    load = Parser(prog="collnoc plot [load]", description=(
        "Latency (or any result) against load from sweep CSVs (collnoc sweep --out): one series "
        "per file and per value of --by; saturated points (sim.completed = false) marked X; "
        "failed points (sim.status not ok) left out."))
    load.add_argument("csv", nargs="+", help="sweep CSV file(s)")
    load.add_argument("--x", help="column on the x axis (default: the swept key, the CSV's first "
                                  "column; throughput.accepted_flits_per_node_cycle: accepted load)")
    load.add_argument("--y", default="latency_cycles.mean",
                      help="column on the y axis (default: %(default)s)")
    load.add_argument("--by", help="a column: one series per value")
    load.add_argument("--logy", action="store_true", help="logarithmic y axis")
    load.add_argument("--title", help="title above the plot")
    load.add_argument("-o", "--out", required=True, help="the figure: .png or .svg")

    heat = Parser(prog="collnoc plot heatmap", description=(
        "The network of a results JSON (collnoc run --out), each link coloured by --metric, "
        "routers by mean buffer occupancy (by energy with --metric energy): 1-D and 2-D meshes and tori as a grid, other "
        "topologies as a node-link drawing."))
    heat.add_argument("json", help="results JSON of collnoc run")
    heat.add_argument("--metric", choices=list(METRICS),
                      help="what colours the links (default: utilization; per round: flits)")
    rounds = heat.add_mutually_exclusive_group()
    rounds.add_argument("--round", type=int, metavar="R",
                        help="firmware round R's links (needs stats.per_round_links=true)")
    rounds.add_argument("--rounds", nargs="?", const="all", type=round_range,
                        metavar="FIRST-LAST", help="one panel per round with traffic (at most "
                        "%d), on one colour scale" % MAX_PANELS)
    heat.add_argument("--title", help="title above the plot")
    heat.add_argument("-o", "--out", required=True, help="the figure: .png or .svg")
    return load, heat


def main(argv):
    load, heat = parsers()
    try:
        if argv and argv[0] == "heatmap":
            return heatmap_plot(heat.parse_args(argv[1:]))
        if argv and argv[0] in ("-h", "--help"):
            print("collnoc plot: figures of collnoc's results (docs/plots.md)\n\n"
                  "  collnoc plot [load] SWEEP.csv ... [--x KEY] [--y KEY] [--by KEY] -o F.png|F.svg\n"
                  "  collnoc plot heatmap RESULTS.json [--metric %s] [--round R | --rounds [A-B]] "
                  "-o F.png|F.svg\n\n"
                  "collnoc plot load --help and collnoc plot heatmap --help describe the options."
                  % "|".join(METRICS))
            return 0
        return load_plot(load.parse_args(argv[1:] if argv and argv[0] == "load" else argv))
    except BadInput as e:
        print("collnoc: error: %s" % e, file=sys.stderr)
        return 2
    except OSError as e:
        print("collnoc: error: cannot write the figure: %s" % e, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
