#!/usr/bin/env bash
# Lighthouse 12.2.3 (desktop preset) on the built page (dist/), in headless
# Chromium: prints the performance, accessibility, best-practices and SEO
# scores and writes the full report to tests/e2e/artifacts/lighthouse.{json,html}.
# A report, not a test: scripts/test.sh does not run it.
#   scripts/lighthouse.sh            # builds dist/ first if there is none
# Env: LIGHTHOUSE_DIR (where lighthouse is installed; default .tools/lighthouse-12.2.3).
SCRIPT_NAME=lighthouse
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
source "$ROOT/scripts/lib/install.sh"

LIGHTHOUSE_VERSION="12.2.3"
LIGHTHOUSE_DIR="${LIGHTHOUSE_DIR:-$TOOLS_DIR/lighthouse-$LIGHTHOUSE_VERSION}"

ensure_chromium
ensure_e2e_deps
if [[ ! -f "$ROOT/dist/index.html" ]]; then
    ensure_web_build_tools
    ensure_models
    cargo fetch --locked --quiet
    trunk build --release
fi
if [[ ! -x "$LIGHTHOUSE_DIR/node_modules/.bin/lighthouse" ]]; then
    log "installing lighthouse $LIGHTHOUSE_VERSION (npm) into $LIGHTHOUSE_DIR"
    mkdir -p "$LIGHTHOUSE_DIR"
    npm install --prefix "$LIGHTHOUSE_DIR" --no-audit --no-fund --loglevel=error "lighthouse@$LIGHTHOUSE_VERSION"
fi
LIGHTHOUSE="$LIGHTHOUSE_DIR/node_modules/.bin/lighthouse" node "$ROOT/scripts/lighthouse.mjs"
