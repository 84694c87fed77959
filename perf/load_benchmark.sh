#!/usr/bin/env bash
# Nuclear-data loading benchmark: the text library (one file per nuclide) against the HDF5 library under
# each load strategy, at several rank counts (oversubscribed when there are more ranks than cores).
#
#   perf/load_benchmark.sh                      # Hoogenboom-Martin large: 355 nuclides x 11,303 points
#   perf/load_benchmark.sh --gridpoints 50000   # the larger grid
#
# options: --nuclides N (355), --gridpoints G (11303), --ranks "1 2 4 8", --repeats R (5),
#          --scratch DIR (libraries; default /tmp/keff-load-bench), --build DIR (default build or
#          $KEFF_BUILD_DIR), --out NAME (perf/results/NAME.csv and .png; default load_benchmark, or
#          load_benchmark_<G> for another grid)
# Each load is barrier-synchronised (barrier; t0; load; barrier; t1) and the median of the repeats is
# kept. The libraries are generated once per size into the scratch directory (never committed). Output:
# perf/results/<NAME>.csv (one row per format, strategy and rank count, with text/HDF5 ratios) and
# perf/results/<NAME>.png, and the table printed as Markdown for perf/RESULTS.md.
set -euo pipefail
source "$(dirname "$0")/common.sh"

nuclides=355 gridpoints=11303 ranks="1 2 4 8" repeats=5
scratch=/tmp/keff-load-bench build=$KEFF_BUILD_DIR out=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --nuclides) nuclides=$2; shift 2 ;;
    --gridpoints) gridpoints=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    --repeats) repeats=$2; shift 2 ;;
    --scratch) scratch=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "load_benchmark.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
if [[ -z "$out" ]]; then
  out=load_benchmark
  [[ "$nuclides" == 355 && "$gridpoints" == 11303 ]] || out=load_benchmark_${nuclides}x${gridpoints}
fi

if [[ ! -x "$build/bin/load_bench" || ! -x "$build/bin/keff" ]]; then
  [[ -f "$build/CMakeCache.txt" ]] || cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
  cmake --build "$build" --target keff load_bench
fi

export OMP_NUM_THREADS=1 OMP_PROC_BIND=false

lib="$scratch/${nuclides}x${gridpoints}"
mkdir -p "$lib"
for format in h5 text; do
  target="$lib/library.h5"; [[ $format == text ]] && target="$lib/text"
  if [[ ! -e "$target" || ( $format == text && ! -e "$target/index.txt" ) ]]; then
    "$build/bin/keff" data generate --format $format --nuclides "$nuclides" --gridpoints "$gridpoints" --out "$target"
  fi
done

csv="perf/results/$out.raw.csv"
mkdir -p perf/results
echo "format,strategy,readers,ranks,repeats,median_s,min_s,max_s,megabytes,checksum" > "$csv"
bench() {  # ranks, library, load_bench arguments...
  local n=$1 path=$2; shift 2
  mpiexec -n "$n" "${mpiexec_flags[@]}" "$build/bin/load_bench" --library "$path" --repeats "$repeats" "$@" |
    tee -a "$csv"
}
for n in $ranks; do
  bench "$n" "$lib/text" --load all
  for strategy in all root node; do bench "$n" "$lib/library.h5" --load $strategy; done
  for k in 2 4; do
    if (( k <= n )); then bench "$n" "$lib/library.h5" --load readers --readers $k; fi
  done
done

python=$(plot_python "$build")
$python perf/plot_load_benchmark.py "$csv" "perf/results/$out.csv" "perf/results/$out.png" \
  "HDF5 vs text nuclear-data library: $nuclides nuclides x $gridpoints points"
rm -f "$csv"
