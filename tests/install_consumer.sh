#!/usr/bin/env bash
# Installs collnoc from the build tree into a scratch prefix, then builds and runs the
# examples as a separate project that finds it with find_package(collnoc COMPONENTS config); the
# installed program draws a heat map with the plot script installed beside it.
set -euo pipefail
build_dir=$1 source_dir=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cmake --install "$build_dir" --prefix "$scratch/prefix" > /dev/null
cmake -S "$source_dir/examples" -B "$scratch/consumer" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$scratch/prefix" > /dev/null
cmake --build "$scratch/consumer" -j2 > /dev/null
"$scratch/consumer/mesh4x4_pingpong"
# The configuration-driven example and the program give the same run for the same file.
config="$source_dir/configs/core/mesh_uniform.yaml"
"$scratch/consumer/run_from_config" "$config" topology.k=4 sim.measure_cycles=500 > "$scratch/example.txt"
"$scratch/prefix/bin/collnoc" run "$config" --set topology.k=4 --set sim.measure_cycles=500 \
    --quiet --out "$scratch/program.json"
/usr/bin/python3 - "$scratch/example.txt" "$scratch/program.json" <<'PY'
import json, math, sys
example = dict(line.split(": ", 1) for line in open(sys.argv[1]).read().splitlines())
program = json.load(open(sys.argv[2]))
assert example["status"] == "ok", example
assert int(example["sim.cycles"]) == program["sim"]["cycles"], (example, program["sim"])
assert math.isclose(float(example["latency_cycles.mean"]), program["latency_cycles"]["mean"],
                    rel_tol=1e-5), example
PY
if "$scratch/consumer/run_from_config" "$config" topology.k=1 2> "$scratch/err.txt"; then exit 1; fi
grep -q "topology.k" "$scratch/err.txt"
test -f "$scratch/prefix/share/collnoc/collnoc_plot.py"
"$scratch/prefix/bin/collnoc" run --quiet --set topology.k=2 --out "$scratch/r.json"
"$scratch/prefix/bin/collnoc" plot heatmap "$scratch/r.json" -o "$scratch/r.png"
test -s "$scratch/r.png"
