#!/usr/bin/env bash
# Render a collnoc waveform to a PNG without a display: GTKWave under a virtual X server.
#
#   waves/render.sh VCD [PNG]
#
# VCD   the dump written by `collnoc run --vcd VCD` (or an FST made from it with vcd2fst).
# PNG   output image; default: VCD without its .vcd/.fst suffix, plus .png.
#
# The save file VCD.gtkw next to the dump gives the signals and their grouping (for X.fst,
# X.fst.gtkw or X.vcd.gtkw); without one every signal of the dump is shown, ungrouped.
#
# Environment (optional):
#   WAVES_FROM, WAVES_TO   time window, see grab.tcl (default 0..200 ns; WAVES_TO=full: all)
#   WAVES_WIDTH            window width in pixels                     (default 1600)
#   WAVES_HEIGHT           window height in pixels (default: tall enough for every row of
#                          the save file, at most 8000)
#   WAVES_TIMEOUT          give up after this many seconds            (default 120)
#
# Exit status: 0 ok; 1 GTKWave failed or wrote no PNG; 2 usage error or gtkwave/xvfb-run
# missing; 3 PNG written but signals of the save file are missing from the dump.
# Needs `apt-get install gtkwave xvfb` (not installed by the project's build).
set -euo pipefail

die() { echo "render.sh: $*" >&2; exit "${code:-1}"; }
usage() { echo "usage: $0 VCD [PNG]" >&2; exit 2; }

[[ $# -ge 1 && $# -le 2 ]] || usage
case $1 in -h | --help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;; esac

for tool in gtkwave xvfb-run timeout; do
  command -v "$tool" >/dev/null 2>&1 ||
    code=2 die "$tool not found; install the wave tools with: sudo apt-get install gtkwave xvfb"
done

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
script=$here/grab.tcl
[[ -r $script ]] || code=2 die "cannot read $script"

dump=$1
[[ -f $dump && -r $dump ]] || code=2 die "no such dump file: $dump"
dump=$(realpath "$dump")
base=${dump%.vcd}
base=${base%.fst}
png=${2:-$base.png}
[[ -d $(dirname "$png") ]] || code=2 die "no such directory for $png"
png=$(realpath -m "$png")

save=
for candidate in "$dump.gtkw" "$base.vcd.gtkw" "$base.gtkw"; do
  if [[ -f $candidate ]]; then save=$candidate; break; fi
done
[[ -n $save ]] || echo "render.sh: no save file next to $dump; showing every signal, ungrouped" >&2

# Size the window so every row of the save file fits (GTKWave rows are 21 px with the
# default font; ~110 px go to the title bar, toolbar and time ruler).
width=${WAVES_WIDTH:-1600}
if [[ -n ${WAVES_HEIGHT:-} ]]; then
  height=$WAVES_HEIGHT
elif [[ -n $save ]]; then
  rows=$(grep -cv '^[@*[]' "$save" || true)
  height=$((21 * (rows + 2) + 110))
  ((height >= 480)) || height=480
  ((height <= 8000)) || height=8000
else
  height=1200
fi
[[ $width =~ ^[0-9]+$ && $height =~ ^[0-9]+$ && $width -ge 320 && $height -ge 240 ]] ||
  code=2 die "WAVES_WIDTH/WAVES_HEIGHT must be whole pixel counts (at least 320x240)"

log=$(mktemp "${TMPDIR:-/tmp}/render-waves.XXXXXX")
trap 'rm -f "$log"' EXIT
rm -f "$png"

status=0
WAVES_PNG=$png NO_AT_BRIDGE=1 timeout "${WAVES_TIMEOUT:-120}" \
  xvfb-run -a -s "-screen 0 $((width + 64))x$((height + 128))x24" \
  gtkwave --rcvar 'hide_sst on' --rcvar 'splash_disable on' \
  --rcvar "initial_window_x $width" --rcvar "initial_window_y $height" \
  -S "$script" "$dump" ${save:+"$save"} >"$log" 2>&1 || status=$?

if ((status == 124)); then
  cat "$log" >&2
  die "GTKWave did not finish within ${WAVES_TIMEOUT:-120} s"
fi
if [[ ! -s $png ]] || grep -q '^waves: error' "$log"; then
  cat "$log" >&2
  die "no PNG written (gtkwave exit status $status)"
fi
grep '^waves: wrote' "$log" || true
missing=$(grep -c '^waves: missing signal' "$log" || true)
if ((missing > 0)); then
  grep '^waves: missing signal' "$log" | head -20 >&2
  code=3 die "$missing signal(s) of $save are not in $dump; the PNG lacks them: $png"
fi
echo "$png"
