#!/usr/bin/env bash
# Benchmark: the cost of DKIM signing on a send (issue 30). Runs tests/bench/mailing_send.sh twice with the same
# RECIPIENTS (default 100,000), unsigned and then signed with an RSA 2048 key (DKIM=rsa; ALGORITHM=ed25519 for the
# other), and prints both send times, their ratio (target <= 1.2) and the load average. Each run prints its own
# floor, so a machine that slowed down between the two shows in the floors.
#
#   tests/bench/dkim_send.sh [RECIPIENTS]
set -euo pipefail
cd "$(dirname "$0")"
RECIPIENTS=${1:-100000}
ALGORITHM=${ALGORITHM:-rsa}
LOGS=$(mktemp -d)
OPENS=0 ./mailing_send.sh "$RECIPIENTS" | tee "$LOGS/unsigned.txt"
OPENS=0 DKIM=$ALGORITHM ./mailing_send.sh "$RECIPIENTS" | tee "$LOGS/signed.txt"
real() { sed -n 's/^real  *\([0-9.]*\) s.*/\1/p' "$1"; }
floor() { sed -n 's/^floor  *\([0-9.]*\) s.*/\1/p' "$1"; }
exact() { grep -c 'EXACT' "$1" || true; }
python3 - "$(real "$LOGS/unsigned.txt")" "$(real "$LOGS/signed.txt")" "$(floor "$LOGS/unsigned.txt")" \
  "$(floor "$LOGS/signed.txt")" "$RECIPIENTS" "$ALGORITHM" <<'PY'
import sys
unsigned, signed, fu, fs, n, alg = float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
print()
print(f"unsigned send   {unsigned:.2f} s  ({n / unsigned:,.0f} messages/s; floor {fu:.2f} s)")
print(f"signed ({alg})    {signed:.2f} s  ({n / signed:,.0f} messages/s; floor {fs:.2f} s)")
print(f"ratio           {signed / unsigned:.2f}  (target <= 1.2); load average {open('/proc/loadavg').read().split()[0]}")
PY
[ "$(exact "$LOGS/unsigned.txt")" -ge 1 ] && [ "$(exact "$LOGS/signed.txt")" -ge 1 ] || { echo "a send lost or doubled a message"; exit 1; }
