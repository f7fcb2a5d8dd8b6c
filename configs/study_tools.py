"""What every study script under configs/ needs: where the project and collnoc are, the common
command-line options, the start-up checks (exit status 2 when collnoc or matplotlib is missing),
CSV files and a headless pyplot. Imported by configs/*/run_study.py."""
import csv
import os
import sys

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
