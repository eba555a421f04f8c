#!/usr/bin/env bash
# Speed figures, for the issues' targets (not part of the tests; nothing here
# passes or fails on time):
#   1. criterion benchmarks of the core, natively on one thread
#      (benches/forward.rs, minilm.rs, smollm2.rs);
#   2. the built page timed in headless Chromium (tests/e2e/bench.mjs):
#      bundle size, first heatmap, keystroke latency, forwards in the worker,
#      overview redraws, the worker's memory.
# `scripts/bench.sh browser` runs only the second part.
SCRIPT_NAME=bench
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
source "$ROOT/scripts/lib/install.sh"

ensure_web_build_tools
ensure_chromium
ensure_e2e_deps
ensure_models
cargo fetch --locked --quiet

if [[ "${1:-all}" != browser ]]; then
    log "── criterion benchmarks (native, one thread)"
    cargo bench --locked -- --warm-up-time 1 --measurement-time 5
fi
log "── the page in headless Chromium"
trunk build --release
node tests/e2e/bench.mjs
