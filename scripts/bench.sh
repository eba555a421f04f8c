#!/usr/bin/env bash
# Speed figures, for the issues' targets (not part of the tests; nothing here
# passes or fails on time):
#   1. criterion benchmarks of the core, natively on one thread
#      (benches/forward.rs, minilm.rs, smollm2.rs);
#   2. the built page timed in headless Chromium (tests/e2e/bench.mjs):
#      bundle size, first heatmap, keystroke latency, forwards in the worker,
#      overview redraws, the worker's memory;
#   3. the peers, in one run on this machine (scripts/bench_peers.mjs):
#      MiniLM in the same Chromium beside onnxruntime-web (npm) on 1 and 2
#      threads, on the same weights exported to ONNX with every attention as
#      an output (scripts/reference/minilm_onnx_export.py; the run fails if
#      its attention differs from ours), and SmolLM2 beside PyTorch natively
#      (scripts/reference/smollm2_torch_timing.py). Installs the peers once
#      into .tools (a Python venv with PyTorch, a few GB; onnxruntime-web).
# `scripts/bench.sh browser` runs only the second part, `scripts/bench.sh
# peers` only the third, on the release build already in dist/ (DIST=… for
# another; `trunk build --release` first if there is none).
SCRIPT_NAME=bench
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
source "$ROOT/scripts/lib/install.sh"

STAGE="${1:-all}"
case "$STAGE" in
    all | browser | peers) ;;
    *) die "unknown stage '$STAGE' (all, browser or peers)" ;;
esac

if [[ "$STAGE" != peers ]]; then
    ensure_web_build_tools
fi
ensure_chromium
ensure_e2e_deps
ensure_models

if [[ "$STAGE" != peers ]]; then
    cargo fetch --locked --quiet
    if [[ "$STAGE" == all ]]; then
        log "── criterion benchmarks (native, one thread)"
        cargo bench --locked -- --warm-up-time 1 --measurement-time 5
    fi
    log "── the page in headless Chromium"
    trunk build --release
    node tests/e2e/bench.mjs
fi

if [[ "$STAGE" != browser ]]; then
    ensure_bench_peers
    DIST="${DIST:-$ROOT/dist}"
    [[ -f "$DIST/index.html" ]] || die "no release build in $DIST: run \`trunk build --release\` first (or DIST=…)"
    ONNX_MODEL="$TOOLS_DIR/bench/minilm-attn.onnx"
    EXPORT_SCRIPT="$ROOT/scripts/reference/minilm_onnx_export.py"
    if [[ ! -f "$ONNX_MODEL" || "$EXPORT_SCRIPT" -nt "$ONNX_MODEL" ]]; then
        log "exporting MiniLM to ONNX with every layer's attention as an output"
        "$BENCH_VENV/bin/python" "$EXPORT_SCRIPT" "$ONNX_MODEL"
    fi
    log "── attnscope beside onnxruntime-web and PyTorch"
    DIST="$DIST" ONNX_MODEL="$ONNX_MODEL" BENCH_PYTHON="$BENCH_VENV/bin/python" node scripts/bench_peers.mjs
fi
