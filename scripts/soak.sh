#!/usr/bin/env bash
# The soak test (tests/e2e/soak.mjs): ten minutes (SOAK_MINUTES) of typing,
# pasting and switching models, views and heads in headless Chromium on the
# release build, with memory sampled each minute; fails on memory growth
# after the first minute, a console error, or a request off the page's
# origin. Not part of scripts/test.sh (it takes a quarter of an hour).
#   scripts/soak.sh            builds dist/ (trunk build --release) first
#   NO_BUILD=1 scripts/soak.sh uses the dist/ there is
SCRIPT_NAME=soak
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
source "$ROOT/scripts/lib/install.sh"

ensure_web_build_tools
ensure_chromium
ensure_e2e_deps
ensure_models
if [[ -z "${NO_BUILD:-}" ]]; then
    log "building the page (trunk build --release)"
    trunk build --release
fi
log "soaking for ${SOAK_MINUTES:-10} minutes"
exec node tests/e2e/soak.mjs
