#!/bin/sh
# Peak memory of a trace replay against the trace's length (docs/traffic.md#traces).
#
# Usage: bench/trace_memory.sh [path/to/collnoc] [MESSAGES ...]   (default: 1000000 10000000)
#
# For each length, writes a gzip'd uniform trace on a 4x4 mesh (a 64-byte message from every node
# every 40 cycles, each answering the message its node sent 16 lines before: a dependency per
# message) to a scratch folder, then measures with /usr/bin/time -v the check alone
# (`collnoc run --check`: the reader streams the whole file) and the replay, and prints the
# message count, the simulated cycles, the feed's most held messages (trace.max_held_messages),
# the replay's wall time and the peak resident memory of both. The traces are removed at the end.
set -eu
COLLNOC=${1:-build/collnoc}
[ $# -gt 0 ] && shift
SIZES=${*:-1000000 10000000}
DIR=$(mktemp -d /tmp/collnoc_trace_bench_XXXXXX)
trap 'rm -rf "$DIR"' EXIT

printf '%-10s %-10s %-6s %-9s %-15s %s\n' messages cycles held wall check_peak_MB replay_peak_MB
for n in $SIZES; do
  awk -v n="$n" 'BEGIN {
    srand(1);
    for (i = 0; i < n; i++) {
      node = i % 16; round = int(i / 16);
      dst = (node + 1 + int(rand() * 15)) % 16;
      if (i >= 16) printf "%d %d %d 64 0 %d 1\n", round * 40, node, dst, i - 16;
      else printf "%d %d %d 64\n", round * 40, node, dst;
    }
  }' | gzip -1 > "$DIR/trace.gz"
  /usr/bin/time -v "$COLLNOC" run --check --set topology.k=4 --set workload.kind=trace \
    --set trace.file="$DIR/trace.gz" > /dev/null 2> "$DIR/check.txt"
  check_kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$DIR/check.txt")
  /usr/bin/time -v "$COLLNOC" run --quiet --set topology.k=4 --set workload.kind=trace \
    --set trace.file="$DIR/trace.gz" --set sim.max_cycles=1000000000 \
    --set stats.series_interval_cycles=0 --out "$DIR/r.json" 2> "$DIR/time.txt"
  rss_kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$DIR/time.txt")
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$DIR/time.txt")
  /usr/bin/python3 - "$DIR/r.json" "$n" "$wall" "$rss_kb" "$check_kb" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["trace"]["messages"] == int(sys.argv[2]), "not every message was replayed"
print("%-10d %-10d %-6d %-9s %-15.0f %.0f" % (r["trace"]["messages"], r["sim"]["cycles"],
      r["trace"]["max_held_messages"], sys.argv[3], int(sys.argv[5]) / 1024,
      int(sys.argv[4]) / 1024))
EOF
done
