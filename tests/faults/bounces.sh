#!/usr/bin/env bash
# The fault run of issue 30: a burst of EVENTS bounce messages (default 50,000) over CONNECTIONS sessions (32) to
# the bounce listener, which is killed with SIGKILL twice and started again; every message the load client got a
# 250 for must be stored exactly once (EXACT, else MISMATCH and exit 1). See tests/bench/bounces.sh --kill.
#
#   tests/faults/bounces.sh [EVENTS] [CONNECTIONS]     PROFILE=debug uses the debug build (default release)
exec "$(dirname "$0")/../bench/bounces.sh" "${1:-50000}" "${2:-32}" --kill
