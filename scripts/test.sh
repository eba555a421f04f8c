#!/usr/bin/env bash
# Run every test of attnscope; exit non-zero if any fails. Installs what is
# missing first (CI starts from a fresh machine), then:
#   1. style: `cargo fmt --check` (also of fuzz/) and `leptosfmt --check src/web`
#   2. natively, linted: `cargo test` (the core, the CLI, the kernel checks on
#      every instruction set the CPU has, every fuzz target's committed seeds;
#      model tests use www/models/) and the benchmarks' build (`cargo test
#      --benches --no-run`; scripts/bench.sh runs them), both compiled through
#      clippy-driver with `-D warnings` (below), which lints every target
#      `cargo clippy --all-targets` would
#   3. pytest on the Python package (python/tests, numpy only, in a venv of its
#      own: .tools/python-venv; the example notebook waits for the web build)
#   4. wasm-bindgen-test in headless Chromium: the kernel checks as the plain
#      worker builds the kernels (simd128) and as the fma worker does (relaxed
#      SIMD), and the web components
#   5. `trunk build --release`, each wasm build (index.html: the page without
#      the real models, the worker, the fma worker, the extra workers) linted
#      through the same clippy-driver wrapper with `-D warnings` as it is
#      built (beside stages 2 to 4, into target/web); the Python package's
#      sdist and wheel with the page it made, the wheel installed in a fresh
#      venv and in JupyterLab's; then the end-to-end test of dist/ and of the
#      notebook viewer in JupyterLab, in Chromium
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
ensure_jupyter
ensure_leptosfmt
cargo fetch --locked --quiet # trunk builds offline; a stale Cargo.lock fails here
log "── tools and model files ready ($(($(now) - START)) s)"

# Colour and progress bars only confuse CI logs.
if [[ -n "${CI:-}" ]]; then export CARGO_TERM_COLOR=never CARGO_TERM_PROGRESS_WHEN=never; fi

stage "formatting (cargo fmt --check)" cargo fmt --check || true
stage "formatting of the fuzz crate (cargo fmt --check, fuzz/)" cargo fmt --check --manifest-path fuzz/Cargo.toml || true
stage "formatting of the page's view! macros (leptosfmt --check src/web)" leptosfmt --check src/web || true
# Native lints as the tests build. `cargo clippy` is `cargo check` with
# clippy-driver as the workspace's rustc wrapper; the same wrapper on `cargo
# test` lints the same code while building it, so the dependencies are compiled
# once instead of also being checked (about 2 minutes here). The arguments
# reach clippy-driver as cargo-clippy passes them (CLIPPY_ARGS); a snippet with
# a lint first proves that they still do, so this can never pass silently.
CLIPPY_DRIVER="$(rustup which clippy-driver)"
CLIPPY_DENY="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
LINTED=(env RUSTC_WORKSPACE_WRAPPER="$CLIPPY_DRIVER" CLIPPY_ARGS="$CLIPPY_DENY")
clippy_wrapper_denies() {
    local dir
    dir="$(mktemp -d)"
    printf 'fn main() {\n    let v = vec![1];\n    println!("{}", v.len() == 0);\n}\n' >"$dir/lint.rs"
    if CLIPPY_ARGS="$CLIPPY_DENY" "$CLIPPY_DRIVER" "$(rustup which rustc)" --edition 2021 \
        --crate-name lint "$dir/lint.rs" -o "$dir/lint" 2>"$dir/out"; then
        rm -rf "$dir"
        echo "clippy-driver compiled a len() == 0 comparison without an error: it no longer reads CLIPPY_ARGS" >&2
        return 1
    fi
    grep -q 'len_zero' "$dir/out" || { cat "$dir/out" >&2; rm -rf "$dir"; return 1; }
    rm -rf "$dir"
}
stage "clippy-driver denies a lint when run as below" clippy_wrapper_denies || true

# The web build runs beside the stages below, in a target dir of its own.
# Much of both is one core's work (the big crate's front end, each wasm's fat
# LTO link, wasm-opt, one test binary at a time), so side by side they fill
# the machine's two cores; cargo locks a target dir for a whole build, so one
# shared dir would queue them instead. Its output is printed when it ends.
# The wasm builds are linted as trunk makes them (index.html: the page, the
# worker, the fma worker, the extra worker and its fma build): the same
# clippy-driver wrapper as the native tests, so each build's code is linted
# with its own features without a separate check of every dependency.
WEB_BUILD="web build, linted (trunk build --release through clippy-driver, -D warnings)"
WEB_LOG="$(mktemp)"
log "── $WEB_BUILD: started beside the stages below (its output follows them)"
(
    # The stage's own lines name it; keep the script's exit-on-error off in here.
    set +e
    export CARGO_TARGET_DIR="$ROOT/target/web"
    stage "$WEB_BUILD" "${LINTED[@]}" trunk build --release
) >"$WEB_LOG" 2>&1 &
WEB_PID=$!
trap 'kill "$WEB_PID" 2>/dev/null || true' EXIT

stage "native tests, linted (cargo test through clippy-driver, -D warnings)" "${LINTED[@]}" cargo test --locked || true
# The example notebook (test_notebook.py) writes the page as HTML: it runs once the web build
# has made the page, with the wheel (python_package, below).
stage "Python package tests (pytest)" "$PYTHON_TEST_VENV/bin/python" -m pytest -q -p no:cacheprovider python/tests \
    --ignore=python/tests/test_notebook.py || true
# Built in the test profile, whose library and dependencies the native tests
# just built: `cargo bench --no-run` would build them all again in release.
stage "benchmarks compile, linted (cargo test --benches --no-run through clippy-driver)" \
    "${LINTED[@]}" cargo test --locked --benches --no-run || true

# The kernel checks (src/kernel_checks/) once per wasm build of the kernels:
# simd128 (the plain worker) and relaxed SIMD (the fma worker).
stage "kernel checks in Chromium, simd128 (wasm-bindgen-test)" \
    env CHROMEDRIVER="$CHROMEDRIVER" cargo test --locked --target "$WASM_TARGET" --lib || true
stage "kernel checks in Chromium, relaxed SIMD (wasm-bindgen-test, --features fma)" \
    env CHROMEDRIVER="$CHROMEDRIVER" cargo test --locked --target "$WASM_TARGET" --lib --features fma || true
stage "web component tests in Chromium (wasm-bindgen-test)" \
    env CHROMEDRIVER="$CHROMEDRIVER" cargo test --locked --target "$WASM_TARGET" --bin attnscope-web || true

# The Python package as users get it: an sdist and, built from it, a wheel,
# each with the page the web build just made (static/page/); the wheel
# installed in a fresh venv, where attnscope.show must answer with the page's
# files and a trace's bytes, and into JupyterLab's venv for the notebook's
# end-to-end test (whose attnscope is removed first, so that an old one
# never stands in for a failed build); then the example notebook runs with it.
python_package() {
    local out="$ROOT/target/python-dist" fresh rc=0
    "$JUPYTER_VENV/bin/python" -m pip uninstall --quiet --yes attnscope >/dev/null 2>&1 || true
    rm -rf "$out"
    "$PYTHON_TEST_VENV/bin/python" -m build --no-isolation --outdir "$out" "$ROOT/python" >/dev/null || return 1
    ls -l "$out" >&2
    fresh="$(mktemp -d)"
    python3 -m venv "$fresh/venv" &&
        "$fresh/venv/bin/python" -m pip install --quiet --disable-pip-version-check "$out"/attnscope-*.whl anywidget==0.11.0 numpy==2.4.6 &&
        (cd "$fresh" && "$fresh/venv/bin/python" "$ROOT/scripts/check_wheel.py" "$ROOT/tests/fixtures/tracefile/smollm2_capital.safetensors") || rc=1
    rm -rf "$fresh"
    ((rc == 0)) || return 1
    "$JUPYTER_VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps "$out"/attnscope-*.whl || return 1
    # The example notebook, run by nbclient against the wheel.
    "$PYTHON_TEST_VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps --force-reinstall "$out"/attnscope-*.whl &&
        "$PYTHON_TEST_VENV/bin/python" -m pytest -q -p no:cacheprovider python/tests/test_notebook.py
}

WEB_RC=0
wait "$WEB_PID" || WEB_RC=$?
trap - EXIT
log "── the web build's output:"
cat "$WEB_LOG" >&2
rm -f "$WEB_LOG"
if ((WEB_RC == 0)); then
    stage "Python wheel and sdist with the page (python -m build), installed in a fresh venv; the example notebook" python_package || true
    if [[ ${#FAILED[@]} -gt 0 ]]; then
        stage "end-to-end test of dist/ in Chromium" node --test --test-reporter=spec tests/e2e/*.test.mjs || true
    else
        log "all other stages passed in $(($(now) - START)) s; last, the end-to-end test of dist/:"
        exec node --test --test-reporter=spec tests/e2e/*.test.mjs
    fi
else
    FAILED+=("$WEB_BUILD")
fi

die "failed: $(IFS=,; echo "${FAILED[*]}" | sed 's/,/, /g') (after $(($(now) - START)) s)"
