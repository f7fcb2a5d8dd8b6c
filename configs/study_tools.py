"""What every study script under configs/ needs: where the project and collnoc are, the common
command-line options, the start-up checks (exit status 2 when collnoc or matplotlib is missing),
CSV files and a headless pyplot. Imported by configs/*/run_study.py."""
import csv
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def add_common_args(ap, out_name):
    """--out (default build/OUT_NAME) and --collnoc (default build/collnoc)."""
    ap.add_argument("--out", default=os.path.join(ROOT, "build", out_name),
                    help="directory for the CSV, PNG and command files")
    ap.add_argument("--collnoc", default=os.path.join(ROOT, "build", "collnoc"),
                    help="the collnoc binary (default build/collnoc)")


def missing_tools(collnoc, need_collnoc=True):
    """Why the study cannot run (printed, for exit status 2), or None."""
    if need_collnoc and not os.access(collnoc or "", os.X_OK):
        return ("no collnoc binary at %s: build it (make, or cmake --build build) or pass "
                "--collnoc PATH" % collnoc)
    try:
        import matplotlib  # noqa: F401 (only whether it imports)
    except ImportError:
        return ("plotting needs matplotlib, which %s cannot import: apt-get install "
                "python3-matplotlib, and run the script with /usr/bin/python3" % sys.executable)
    return None


def check_tools(script, collnoc, need_collnoc=True):
    """missing_tools() as an exit status: 0, or 2 after saying why on stderr."""
    why = missing_tools(collnoc, need_collnoc)
    if why:
        print("%s: %s" % (script, why), file=sys.stderr)
        return 2
    return 0


def pyplot():
    """matplotlib.pyplot drawing to files only (no display needed)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def write_csv(path, rows):
    """One row per dict, columns in the first row's key order."""
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)


def read_csv(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def run_collnoc(collnoc, config, sets):
    """`collnoc run -q CONFIG --set KEY=VALUE ...`; its results JSON. A fault (exit 1) or bad
    input (exit 2) raises RuntimeError with the command and its output."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        args = [collnoc, "run", "-q", config, "--out", out]
        for k, v in sets.items():
            args += ["--set", "%s=%s" % (k, v)]
        env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
        res = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             universal_newlines=True, env=env)
        if res.returncode != 0:
            raise RuntimeError("exit %d: %s\n%s" % (res.returncode, " ".join(args), res.stdout))
        with open(out) as f:
            return json.load(f)


def plot_panels(path, title, panels, cols=None, width=6.0, height=4.5):
    """One PNG of panels in a grid (`cols` a row, default all in one row). A panel:
    (panel title, xlabel, ylabel, logx, logy, [(label, xs, ys, style)]); logx is base 2."""
    plt = pyplot()
    cols = cols or len(panels)
    rows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(width * cols, height * rows), squeeze=False)
    for ax in axes.flat[len(panels):]:
        ax.axis("off")
    for ax, (ptitle, xlabel, ylabel, logx, logy, series) in zip(axes.flat, panels):
        for label, xs, ys, style in series:
            ax.plot(xs, ys, style, label=label)
        if ptitle:
            ax.set_title(ptitle, fontsize=10)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        if logx:
            ax.set_xscale("log", base=2)
        if logy:
            ax.set_yscale("log")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def chosen_parts(only, parts):
    """The parts --only names (comma-separated; empty: all of `parts`), or None after saying on
    stderr which is not one (exit status 2)."""
    chosen = [p for p in only.split(",") if p] or list(parts)
    for p in chosen:
        if p not in parts:
            print("run_study.py: --only %s: not a part; one of: %s" % (p, ", ".join(parts)),
                  file=sys.stderr)
            return None
    return chosen
