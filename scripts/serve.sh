#!/usr/bin/env bash
# Build attnscope's page and serve it on http://127.0.0.1:8080/ (PORT=… to
# change). Installs what is missing first: the wasm32 target, wasm-bindgen-cli,
# trunk, wasm-opt (binaryen, from npm) and the model files. Rebuilds when a
# source file changes; Ctrl-C stops it.
SCRIPT_NAME=serve
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
source "$ROOT/scripts/lib/install.sh"

PORT="${PORT:-8080}"

ensure_web_build_tools
ensure_models
cargo fetch --quiet # trunk builds offline

log "building (release) and serving; open http://127.0.0.1:$PORT/ once trunk says it is serving"
exec trunk serve --release --address 127.0.0.1 --port "$PORT"
