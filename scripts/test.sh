#!/usr/bin/env bash
# Run every test of attnscope; exit non-zero if any fails. Installs what is
# missing first (CI starts from a fresh machine), then:
#   1. style: `cargo fmt --check`, `leptosfmt --check src/web`, and clippy with `-D warnings` natively
#      (all targets) and for each wasm build trunk makes (index.html: the
#      page without the real models, the worker, the fma worker)
#   2. native `cargo test` (the core, the CLI, the kernel checks on every
#      instruction set the CPU has; model tests use www/models/)
#   3. pytest on the Python package (python/tests, numpy only, in a venv of
#      its own: .tools/python-venv), its notebook widget and example notebook
#   4. the benchmarks compile (`cargo test --benches --no-run`, sharing the
#      tests' build; they are not run: scripts/bench.sh runs them)
#   5. wasm-bindgen-test in headless Chromium: the kernel checks as the plain
#      worker builds the kernels (simd128) and as the fma worker does (relaxed
#      SIMD), and the web components
#   6. fuzzing: each cargo-fuzz target (fuzz/) for 10 s, unsanitized (scripts/fuzz.sh)
#   7. `trunk build --release`, then the end-to-end test of dist/ in Chromium
# Stages 1-6 all run even when one fails; the e2e test needs the build.
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
ensure_cargo_fuzz
ensure_leptosfmt
cargo fetch --locked --quiet # trunk builds offline; a stale Cargo.lock fails here
log "── tools and model files ready ($(($(now) - START)) s)"

# Colour and progress bars only confuse CI logs.
if [[ -n "${CI:-}" ]]; then export CARGO_TERM_COLOR=never CARGO_TERM_PROGRESS_WHEN=never; fi

stage "formatting (cargo fmt --check)" cargo fmt --check || true
stage "formatting of the fuzz crate (cargo fmt --check, fuzz/)" cargo fmt --check --manifest-path fuzz/Cargo.toml || true
stage "formatting of the page's view! macros (leptosfmt --check src/web)" leptosfmt --check src/web || true
stage "lints, native (cargo clippy --all-targets)" cargo clippy --locked --all-targets -- -D warnings || true
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

stage "native tests (cargo test)" cargo test --locked || true
stage "Python package tests (pytest)" "$PYTHON_TEST_VENV/bin/python" -m pytest -q -p no:cacheprovider python/tests || true
# Built in the test profile, whose library and dependencies the native tests
# just built: `cargo bench --no-run` would build them all again in release.
stage "benchmarks compile (cargo test --benches --no-run)" cargo test --locked --benches --no-run || true
# The kernel checks (src/kernel_checks/) once per wasm build of the kernels:
# simd128 (the plain worker) and relaxed SIMD (the fma worker).
stage "kernel checks in Chromium, simd128 (wasm-bindgen-test)" \
    env CHROMEDRIVER="$CHROMEDRIVER" cargo test --locked --target "$WASM_TARGET" --lib || true
stage "kernel checks in Chromium, relaxed SIMD (wasm-bindgen-test, --features fma)" \
    env CHROMEDRIVER="$CHROMEDRIVER" cargo test --locked --target "$WASM_TARGET" --lib --features fma || true
stage "web component tests in Chromium (wasm-bindgen-test)" \
    env CHROMEDRIVER="$CHROMEDRIVER" cargo test --locked --target "$WASM_TARGET" --bin attnscope-web || true

# Short, so that CI catches a regression, and without AddressSanitizer, whose
# build takes half as long again (435 s against 290 here); long runs are
# scripts/fuzz.sh SECONDS, sanitized.
stage "fuzzing, 10 s per target (SANITIZER=none scripts/fuzz.sh 10)" env SANITIZER=none scripts/fuzz.sh 10 || true

if stage "web build (trunk build --release)" trunk build --release; then
    if [[ ${#FAILED[@]} -gt 0 ]]; then
        stage "end-to-end test of dist/ in Chromium" node --test --test-reporter=spec tests/e2e/*.test.mjs || true
    else
        log "all other stages passed in $(($(now) - START)) s; last, the end-to-end test of dist/:"
        exec node --test --test-reporter=spec tests/e2e/*.test.mjs
    fi
fi

die "failed: $(IFS=,; echo "${FAILED[*]}" | sed 's/,/, /g') (after $(($(now) - START)) s)"
