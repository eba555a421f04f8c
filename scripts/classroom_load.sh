#!/usr/bin/env bash
# The classroom server under a room's load (issue #58): 100 simulated students on loopback
# follow a teacher who changes the state ten times a second and asks a question every second,
# which every student answers (100 answers a second), for SECONDS (default 60). Prints the
# delivery latency (p50, p99, max), the answers counted and the server's memory over the run,
# with this machine's CPU (built as the test command builds: the dependencies at opt-level 2,
# so it reuses that build); fails if a student ends elsewhere than the teacher's final state,
# an answer is lost or counted twice, or the memory grows.
SCRIPT_NAME=classroom-load
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

SECONDS_RUN="${1:-60}"
log "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores"
CLASSROOM_LOAD_SECONDS="$SECONDS_RUN" exec cargo test --locked --test cli \
    classroom::a_hundred_students_follow_and_answer -- --nocapture
