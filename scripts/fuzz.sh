#!/usr/bin/env bash
# Runs each fuzz target (fuzz/fuzz_targets/) for SECONDS (default 20) with
# libFuzzer, under a 2 GB memory limit; exits non-zero on the first finding.
#   scripts/fuzz.sh [SECONDS] [TARGET...]
# Installs cargo-fuzz and the nightly toolchain if missing. The committed
# seeds (fuzz/corpus/<target>/) are read, never written: what libFuzzer
# learns goes to target/fuzz-corpus/<target>/, a finding to
# fuzz/artifacts/<target>/ (both gitignored). A finding becomes a
# regression test with its input (see fuzz/README.md).
# Env: SANITIZER (cargo fuzz's -s: address by default; none builds in two
# thirds of the time and still finds panics and hangs, not memory errors in
# unsafe code). The test command does not fuzz: tests/fuzz_corpus.rs replays
# the committed seeds through the same bodies (fuzz/src/).
SCRIPT_NAME=fuzz
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
source "$ROOT/scripts/lib/install.sh"

SECONDS_EACH="${1:-20}"
SANITIZER="${SANITIZER:-address}"
[[ "$SECONDS_EACH" =~ ^[0-9]+$ ]] || die "usage: scripts/fuzz.sh [SECONDS] [TARGET...]"
shift || true
ensure_cargo_fuzz
# The tokenizer target reads the real tokenizers from www/models/.
ensure_models

TARGETS=("$@")
if ((${#TARGETS[@]} == 0)); then
    mapfile -t TARGETS < <(cargo +nightly fuzz list)
fi

log "building the fuzz targets (cargo +nightly fuzz build -s $SANITIZER)"
cargo +nightly fuzz build -s "$SANITIZER"

for target in "${TARGETS[@]}"; do
    work="$ROOT/target/fuzz-corpus/$target"
    mkdir -p "$work"
    dict=()
    [[ -f "$ROOT/fuzz/$target.dict" ]] && dict=("-dict=$ROOT/fuzz/$target.dict")
    log "── $target: ${SECONDS_EACH} s"
    cargo +nightly fuzz run -s "$SANITIZER" "$target" "$work" "$ROOT/fuzz/corpus/$target" -- \
        -max_total_time="$SECONDS_EACH" -rss_limit_mb=2048 -timeout=30 -print_final_stats=1 "${dict[@]}" ||
        die "fuzz target $target found a failing input (saved in fuzz/artifacts/$target/)"
done
log "every fuzz target ran ${SECONDS_EACH} s without a finding"
