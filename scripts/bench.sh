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
#      into .tools (a Python venv with PyTorch, a few GB; onnxruntime-web);
#   4. writing (issue 56): SmolLM2's greedy loop natively on one thread
#      (benches/generate.rs) beside PyTorch's own on one thread
#      (scripts/reference/smollm2_generate_timing.py), as tokens per second
#      and their ratio; writing in the page is timed in the second part
#      (scripts/bench_write.mjs);
#   5. speech (issue 57): Whisper tiny.en natively on one thread on a 5 s
#      clip (benches/transcribe.rs) beside CTranslate2 on one thread, float32
#      (scripts/reference/whisper_timing.py; CTranslate2 is installed into the
#      bench venv, pinned, when this part runs), as milliseconds and their ratio;
#      then the same clip in the page's Speech tab in Chromium
#      (scripts/bench_speech.mjs, the release build in dist/).
#   6. long texts (issue 63): SmolLM2 on a paste cut at 2,048 tokens,
#      natively on one thread (tests/long_texts.rs's timing) beside PyTorch on
#      one thread (smollm2_torch_timing.py with TOKENS=2048, eager
#      attention), as milliseconds and their ratio; then in the page at 1,024
#      and 2,048 tokens (tests/e2e/bench.mjs's section 5), whose roofline
#      table states each forward's multiply-adds against the wasm peak
#      measured in the same Chromium (one core and two). The browser part
#      prints the same table for the forwards it times; one long head is
#      timed in Chromium (src/kernels/fused/timing.rs) and natively
#      (benches/attention.rs), each against its peak.
# `scripts/bench.sh browser` runs only the second part, `scripts/bench.sh
# peers` only the third, `scripts/bench.sh generate` only the fourth,
# `scripts/bench.sh speech` only the fifth, `scripts/bench.sh long` only
# the sixth; the
# browser parts use the release build already in dist/ (DIST=… for
# another; `trunk build --release` first if there is none).
SCRIPT_NAME=bench
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
source "$ROOT/scripts/lib/install.sh"

STAGE="${1:-all}"
case "$STAGE" in
    all | browser | peers | generate | speech | long) ;;
    *) die "unknown stage '$STAGE' (all, browser, peers, generate, speech or long)" ;;
esac

if [[ "$STAGE" == all || "$STAGE" == browser ]]; then
    ensure_web_build_tools
fi
if [[ "$STAGE" == long ]]; then
    ensure_web_build_tools
fi
if [[ "$STAGE" != generate ]]; then
    ensure_chromium
    ensure_e2e_deps
fi
ensure_models
# A figure from a run's output: the last JSON line's value of key $2 in file $1.
figure() { grep -o "\"$2\": [0-9.]*" "$1" | tail -1 | awk '{print $2}'; }
# The criterion run's output, where the writing and speech parts find the native figures.
NATIVE_LOG="$(mktemp)"
trap 'rm -f "$NATIVE_LOG"' EXIT

if [[ "$STAGE" == all || "$STAGE" == browser ]]; then
    cargo fetch --locked --quiet
    if [[ "$STAGE" == all ]]; then
        log "── criterion benchmarks (native, one thread)"
        cargo bench --locked -- --warm-up-time 1 --measurement-time 5 | tee "$NATIVE_LOG"
    fi
    log "── the page in headless Chromium"
    trunk build --release
    node tests/e2e/bench.mjs
    log "── writing in the page (SmolLM2; Qwen2.5 0.5B when models-extra/ has it)"
    node scripts/bench_write.mjs
fi

if [[ "$STAGE" == all || "$STAGE" == peers ]]; then
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

if [[ "$STAGE" == all || "$STAGE" == generate ]]; then
    ensure_bench_peers
    log "── writing: attnscope natively beside PyTorch's greedy loop, one thread each"
    if [[ "$STAGE" == generate ]]; then
        cargo bench --locked --bench generate -- --warm-up-time 1 --measurement-time 5 | tee "$NATIVE_LOG"
    fi
    TORCH_LOG="$(mktemp)"
    "$BENCH_VENV/bin/python" scripts/reference/smollm2_generate_timing.py | tee "$TORCH_LOG"
    ours="$(figure "$NATIVE_LOG" attnscope_generate_tokens_per_s)"
    plain="$(figure "$TORCH_LOG" torch_generate_tokens_per_s)"
    kept="$(figure "$TORCH_LOG" torch_manual_attn_tokens_per_s)"
    rm -f "$TORCH_LOG"
    [[ -n "$ours" && -n "$plain" && -n "$kept" ]] || die "a writing figure is missing (attnscope '$ours', PyTorch '$plain' / '$kept')"
    cpu="$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
    awk -v ours="$ours" -v plain="$plain" -v kept="$kept" -v cpu="$cpu" 'BEGIN {
        printf "SmolLM2-135M, 64 greedy tokens after 10, one thread, on %s:\n", cpu
        printf "  attnscope natively         %7.1f tokens/s\n", ours
        printf "  PyTorch model.generate     %7.1f tokens/s   attnscope / PyTorch = %.2f\n", plain, ours / plain
        printf "  PyTorch with attentions    %7.1f tokens/s   attnscope / PyTorch = %.2f\n", kept, ours / kept
    }'
fi

if [[ "$STAGE" == all || "$STAGE" == speech ]]; then
    ensure_bench_peers
    python3 scripts/fetch_models.py whisper-tiny-en
    if ! "$BENCH_VENV/bin/python" -c "import ctranslate2, sys; sys.exit(ctranslate2.__version__ != '${CT2_VERSION}')" 2>/dev/null; then
        log "installing ctranslate2==$CT2_VERSION into the bench venv"
        "$BENCH_VENV/bin/pip" install --quiet "ctranslate2==$CT2_VERSION" || die "pip could not install ctranslate2==$CT2_VERSION"
    fi
    log "── speech: attnscope natively beside CTranslate2, one thread each"
    if [[ "$STAGE" == speech ]]; then
        cargo bench --locked --bench transcribe -- --warm-up-time 1 --measurement-time 5 | tee "$NATIVE_LOG"
    fi
    CT2_LOG="$(mktemp)"
    "$BENCH_VENV/bin/python" scripts/reference/whisper_timing.py | tee "$CT2_LOG"
    ours="$(figure "$NATIVE_LOG" attnscope_transcribe_5s_ms)"
    transcript="$(figure "$CT2_LOG" ct2_transcript_5s_ms)"
    timed="$(figure "$CT2_LOG" ct2_with_times_5s_ms)"
    rm -f "$CT2_LOG"
    DIST="${DIST:-$ROOT/dist}"
    [[ -f "$DIST/index.html" ]] || die "no release build in $DIST: run \`trunk build --release\` first (or DIST=…)"
    log "── speech in the page: the same clip opened in the Speech tab"
    PAGE_LOG="$(mktemp)"
    DIST="$DIST" node scripts/bench_speech.mjs | tee "$PAGE_LOG"
    page="$(figure "$PAGE_LOG" page_transcribe_5s_ms)"
    inworker="$(figure "$PAGE_LOG" worker_transcribe_5s_ms)"
    rm -f "$PAGE_LOG"
    [[ -n "$ours" && -n "$transcript" && -n "$timed" && -n "$page" ]] || die "a speech figure is missing (attnscope '$ours', page '$page', CTranslate2 '$transcript' / '$timed')"
    cpu="$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
    awk -v ours="$ours" -v transcript="$transcript" -v timed="$timed" -v page="$page" -v inworker="$inworker" -v cpu="$cpu" 'BEGIN {
        printf "Whisper tiny.en, a 5 s clip, one thread, on %s:\n", cpu
        printf "  attnscope (transcript, every head, words)  %7.0f ms\n", ours
        printf "  CTranslate2 transcript                     %7.0f ms   attnscope / CTranslate2 = %.2f\n", transcript, ours / transcript
        printf "  CTranslate2 transcript and words          %7.0f ms   attnscope / CTranslate2 = %.2f\n", timed, ours / timed
        printf "  the page, file to pictures (Chromium)      %7.0f ms   page / CTranslate2 with words = %.2f\n", page, page / timed
        printf "    of which the worker computed         %7.0f ms\n", inworker
    }'
fi

if [[ "$STAGE" == all || "$STAGE" == long ]]; then
    ensure_bench_peers
    log "── a long text: SmolLM2 at 2,048 tokens natively beside PyTorch, one thread each"
    OURS_LOG="$(mktemp)" TORCH_LOG="$(mktemp)"
    cargo test --release --locked --test long_texts -- --ignored --nocapture time_smollm2_at_2048 | tee "$OURS_LOG"
    TOKENS=2048 ROUNDS=3 WARMUP=1 "$BENCH_VENV/bin/python" scripts/reference/smollm2_torch_timing.py 1 | tee "$TORCH_LOG"
    ours="$(figure "$OURS_LOG" smollm2_long_attnscope_ms)"
    torch="$(grep -o '"smollm2_2048_torch_ms": {"1": [0-9.]*' "$TORCH_LOG" | grep -o '[0-9.]*$')"
    rm -f "$OURS_LOG" "$TORCH_LOG"
    [[ -n "$ours" && -n "$torch" ]] || die "a long-text figure is missing (attnscope '$ours', PyTorch '$torch')"
    cpu="$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
    awk -v ours="$ours" -v torch="$torch" -v cpu="$cpu" 'BEGIN {
        printf "SmolLM2-135M, 2,048 tokens, one thread, on %s:\n", cpu
        printf "  attnscope natively   %8.0f ms\n", ours
        printf "  PyTorch, eager       %8.0f ms   attnscope / PyTorch = %.2f\n", torch, ours / torch
    }'
    log "── one long head in Chromium: the fused kernel beside the formula, against the wasm peak"
    CHROMEDRIVER="$CHROMEDRIVER" cargo test --release --locked --target wasm32-unknown-unknown --lib --features fma \
        -- --include-ignored --nocapture fused::timing | grep -E "peak|head,"
    DIST="${DIST:-$ROOT/dist}"
    [[ -f "$DIST/index.html" ]] || die "no release build in $DIST: run \`trunk build --release\` first (or DIST=…)"
    for sentences in 70 130 150; do
        log "── the page at about $((sentences * 15)) tokens (cut at 2,048), with the roofline"
        DIST="$DIST" SECTIONS=5 SENTENCES="$sentences" ROUNDS=3 SOAK_SECONDS=0 node tests/e2e/bench.mjs
    done
fi
