#!/usr/bin/env bash
# Installs collnoc from the build tree into a scratch prefix, then builds and runs the example
# as a separate project that finds it with find_package(collnoc); the installed program draws a
# heat map with the plot script installed beside it.
set -euo pipefail
build_dir=$1 source_dir=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cmake --install "$build_dir" --prefix "$scratch/prefix" > /dev/null
cmake -S "$source_dir/examples" -B "$scratch/consumer" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$scratch/prefix" > /dev/null
cmake --build "$scratch/consumer" -j2 > /dev/null
"$scratch/consumer/mesh4x4_pingpong"
test -f "$scratch/prefix/share/collnoc/collnoc_plot.py"
"$scratch/prefix/bin/collnoc" run --quiet --set topology.k=2 --out "$scratch/r.json"
"$scratch/prefix/bin/collnoc" plot heatmap "$scratch/r.json" -o "$scratch/r.png"
test -s "$scratch/r.png"
