# Shared by scripts/serve.sh and scripts/test.sh (sourced, not run).
#
# Tool versions live here and only here, except wasm-bindgen, whose version
# is whatever Cargo.lock resolved: the CLI must match the library exactly or
# the generated JS glue does not fit the wasm.

set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

TRUNK_VERSION="0.21.14"      # 0.22 needs a newer rustc than stable 1.95 ships
BINARYEN_VERSION="132"       # Debian's binaryen 108 wasm-opt silently breaks the wasm
CARGO_FUZZ_VERSION="0.13.1"  # scripts/fuzz.sh (libFuzzer, on the nightly toolchain)
LEPTOSFMT_VERSION="0.1.33"   # the view! macros' format (leptosfmt.toml)
WASM_TARGET="wasm32-unknown-unknown"
TOOLS_DIR="$ROOT/.tools"     # gitignored; holds the npm binaryen build

# Tools the scripts install land in ~/.cargo/bin and .tools; put both first so
# a stale system copy (e.g. Debian's wasm-opt) is never picked up.
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$TOOLS_DIR/node_modules/.bin:$PATH"

# Bold on a terminal, plain in CI logs.
if [[ -t 2 ]]; then BOLD=$'\033[1m' RED=$'\033[1;31m' PLAIN=$'\033[0m'; else BOLD='' RED='' PLAIN=''; fi
log() { printf '%s[%s]%s %s\n' "$BOLD" "${SCRIPT_NAME:-attnscope}" "$PLAIN" "$*" >&2; }
die() { printf '%s[%s] error:%s %s\n' "$RED" "${SCRIPT_NAME:-attnscope}" "$PLAIN" "$*" >&2; exit 1; }

# The version of a package as Cargo.lock pinned it.
locked_version() {
    awk -v name="$1" '
        $0 == "name = \"" name "\"" { found = 1; next }
        found && /^version = / { gsub(/"/, "", $3); print $3; exit }
    ' "$ROOT/Cargo.lock"
}

WASM_BINDGEN_VERSION="$(locked_version wasm-bindgen)"
[[ -n "$WASM_BINDGEN_VERSION" ]] || die "no wasm-bindgen in Cargo.lock"

# Trunk.toml pins the same versions so that trunk, offline, accepts the
# binaries on PATH instead of trying to download its own.
check_trunk_toml() {
    grep -q "^wasm_bindgen = \"$WASM_BINDGEN_VERSION\"" "$ROOT/Trunk.toml" ||
        die "Trunk.toml [tools] wasm_bindgen must be \"$WASM_BINDGEN_VERSION\" (Cargo.lock's wasm-bindgen)"
    grep -q "^wasm_opt = \"version_$BINARYEN_VERSION\"" "$ROOT/Trunk.toml" ||
        die "Trunk.toml [tools] wasm_opt must be \"version_$BINARYEN_VERSION\""
}

# Seconds since the epoch, for stage timings.
now() { date +%s; }
