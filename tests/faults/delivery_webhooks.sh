#!/usr/bin/env bash
# The fault run of issue 30 for relay webhooks: EVENTS signed Mailgun events (default 10,000) over CONNECTIONS
# connections (16) to the api, which is killed with SIGKILL twice and started again; every event the load client got
# a 200 for must be stored exactly once, with its suppression and its recipient row bounced (EXACT, else MISMATCH and
# exit 1). See tests/bench/delivery_webhooks.sh --kill.
#
#   tests/faults/delivery_webhooks.sh [EVENTS] [CONNECTIONS]     PROFILE=debug uses the debug build (default release)
exec "$(dirname "$0")/../bench/delivery_webhooks.sh" "${1:-10000}" "${2:-16}" --kill
