#!/usr/bin/env bash
# Run every test of attnscope; exit non-zero if any fails. Installs what is
# missing first (CI starts from a fresh machine), then:
#   1. style: `cargo fmt --check` (also of fuzz/) and `leptosfmt --check src/web`
#   2. `trunk build --release` starts in the background: its release builds
#      lock target/release-*/ only, and the fat-LTO links of its five wasm
#      builds leave a core idle for minutes, which the native stages use
#   3. meanwhile, natively: clippy with `-D warnings` (all targets), `cargo test`
#      (the core, the CLI, the kernel checks on every instruction set the CPU
#      has, every fuzz target's committed seeds; model tests use www/models/),
#      pytest on the Python package (python/tests, numpy only, in a venv of its
#      own: .tools/python-venv), and the benchmarks compile (`cargo test
#      --benches --no-run`, sharing the tests' build; scripts/bench.sh runs them)
#   4. when the build is done (its output is printed then): clippy for each
#      wasm build trunk makes (index.html: the page without the real models,
#      the worker, the fma worker, the extra workers), then wasm-bindgen-test
#      in headless Chromium: the kernel checks as the plain worker builds the
#      kernels (simd128) and as the fma worker does (relaxed SIMD), and the web
#      components
#   5. the end-to-end test of dist/ in Chromium
# Every stage runs even when one fails; the e2e test needs the build.
# Fuzzing proper (libFuzzer, minutes to hours) is scripts/fuzz.sh.
# The output ends with the e2e runner's summary when everything passed.
SCRIPT_NAME=test
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
source "$ROOT/scripts/lib/install.sh"

START=$(now)
FAILED=()

# The run needs about 15 GB for target/, the tools and the model files; a
# full disk shows up much later as a linker's bus error, so say it first.
AVAIL_GB=$(($(df -Pk "$ROOT" | awk 'NR == 2 { print $4 }') / 1024 / 1024))
log "── disk: ${AVAIL_GB} GB free where the repository is"
if ((AVAIL_GB < 20)); then
    log "── warning: less than 20 GB free; the builds below may fail with 'No space left on device'"
fi
# Incremental state only helps the next edit-and-build, never this run, and
# it is gigabytes.
export CARGO_INCREMENTAL=0

# stage NAME COMMAND...: run it, time it, remember a failure and go on.
stage() {
    local name="$1" t0 rc=0
    shift
    log "── $name"
    t0=$(now)
    "$@" || rc=$?
    if ((rc == 0)); then
        log "── $name: ok ($(($(now) - t0)) s)"
    else
        log "── $name: FAILED with exit code $rc ($(($(now) - t0)) s)"
        FAILED+=("$name")
    fi
    return "$rc"
}

# Not a `stage`: `set -e` must stop the run at the first install step that fails.
log "── install tools and model files"
ensure_web_build_tools
ensure_chromium
ensure_e2e_deps
ensure_models
# The real Gemma 3 270M, Qwen2.5 0.5B and all-mpnet-base-v2 files, for
# tests/extra_reference.rs (about 1.2 GB into models-extra/; a minute).
python3 "$ROOT/scripts/fetch_models.py" --extra
ensure_python_test_deps
ensure_leptosfmt
cargo fetch --locked --quiet # trunk builds offline; a stale Cargo.lock fails here
log "── tools and model files ready ($(($(now) - START)) s)"

# Colour and progress bars only confuse CI logs.
if [[ -n "${CI:-}" ]]; then export CARGO_TERM_COLOR=never CARGO_TERM_PROGRESS_WHEN=never; fi

stage "formatting (cargo fmt --check)" cargo fmt --check || true
stage "formatting of the fuzz crate (cargo fmt --check, fuzz/)" cargo fmt --check --manifest-path fuzz/Cargo.toml || true
stage "formatting of the page's view! macros (leptosfmt --check src/web)" leptosfmt --check src/web || true
# The build in the background; `cat` shows its output when it is done.
TRUNK_LOG="$ROOT/target/trunk-build.log"
mkdir -p "$ROOT/target"
log "── web build (trunk build --release), in the background beside the native stages (output: target/trunk-build.log)"
TRUNK_T0=$(now)
trunk build --release >"$TRUNK_LOG" 2>&1 &
TRUNK_PID=$!

stage "lints, native (cargo clippy --all-targets)" cargo clippy --locked --all-targets -- -D warnings || true
stage "native tests (cargo test)" cargo test --locked || true
stage "Python package tests (pytest)" "$PYTHON_TEST_VENV/bin/python" -m pytest -q -p no:cacheprovider python/tests || true
# Built in the test profile, whose library and dependencies the native tests
# just built: `cargo bench --no-run` would build them all again in release.
stage "benchmarks compile (cargo test --benches --no-run)" cargo test --locked --benches --no-run || true

log "── waiting for the web build"
TRUNK_RC=0
wait "$TRUNK_PID" || TRUNK_RC=$?
cat "$TRUNK_LOG" >&2
if ((TRUNK_RC == 0)); then
    log "── web build (trunk build --release): ok ($(($(now) - TRUNK_T0)) s, beside the native stages)"
else
    log "── web build (trunk build --release): FAILED with exit code $TRUNK_RC ($(($(now) - TRUNK_T0)) s)"
    FAILED+=("web build (trunk build --release)")
fi

# Each wasm build as index.html has trunk make it.
stage "lints, the page's wasm (clippy --no-default-features)" \
    cargo clippy --locked --target "$WASM_TARGET" --bin attnscope-web --no-default-features -- -D warnings || true
stage "lints, the worker's wasm (clippy --no-default-features --features pretrained)" \
    cargo clippy --locked --target "$WASM_TARGET" --bin attnscope-worker --no-default-features --features pretrained -- -D warnings || true
stage "lints, the fma worker's wasm (clippy --no-default-features --features fma)" \
    cargo clippy --locked --target "$WASM_TARGET" --bin attnscope-worker-fma --no-default-features --features fma -- -D warnings || true
stage "lints, the extra worker's wasm (clippy --features extras)" \
    cargo clippy --locked --target "$WASM_TARGET" --bin attnscope-worker-extra --features extras -- -D warnings || true
stage "lints, the extra fma worker's wasm (clippy --features extras,fma)" \
    cargo clippy --locked --target "$WASM_TARGET" --bin attnscope-worker-extra-fma --features extras,fma -- -D warnings || true
# The kernel checks (src/kernel_checks/) once per wasm build of the kernels:
# simd128 (the plain worker) and relaxed SIMD (the fma worker).
stage "kernel checks in Chromium, simd128 (wasm-bindgen-test)" \
    env CHROMEDRIVER="$CHROMEDRIVER" cargo test --locked --target "$WASM_TARGET" --lib || true
stage "kernel checks in Chromium, relaxed SIMD (wasm-bindgen-test, --features fma)" \
    env CHROMEDRIVER="$CHROMEDRIVER" cargo test --locked --target "$WASM_TARGET" --lib --features fma || true
stage "web component tests in Chromium (wasm-bindgen-test)" \
    env CHROMEDRIVER="$CHROMEDRIVER" cargo test --locked --target "$WASM_TARGET" --bin attnscope-web || true

if ((TRUNK_RC == 0)); then
    if [[ ${#FAILED[@]} -gt 0 ]]; then
        stage "end-to-end test of dist/ in Chromium" node --test --test-reporter=spec tests/e2e/*.test.mjs || true
    else
        log "all other stages passed in $(($(now) - START)) s; last, the end-to-end test of dist/:"
        exec node --test --test-reporter=spec tests/e2e/*.test.mjs
    fi
fi

die "failed: $(IFS=,; echo "${FAILED[*]}" | sed 's/,/, /g') (after $(($(now) - START)) s)"
