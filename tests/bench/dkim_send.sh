#!/usr/bin/env bash
# Benchmark: the cost of DKIM signing on a send (issue 30). Runs tests/bench/mailing_send.sh with the same
# RECIPIENTS (default 100,000): unsigned, then signed with each key of ALGORITHMS (default "rsa ed25519": RSA 2048 and
# Ed25519), and prints the send times, each signed send's ratio to the unsigned one (target <= 1.2) and the load
# average. Each run prints its own floor, so a machine that slowed down between the runs shows in the floors.
#
#   tests/bench/dkim_send.sh [RECIPIENTS]          ALGORITHMS=rsa for one key type
set -euo pipefail
cd "$(dirname "$0")"
RECIPIENTS=${1:-100000}
ALGORITHMS=${ALGORITHMS:-${ALGORITHM:-rsa ed25519}}
LOGS=$(mktemp -d)
OPENS=0 ./mailing_send.sh "$RECIPIENTS" | tee "$LOGS/unsigned.txt"
for alg in $ALGORITHMS; do
  OPENS=0 DKIM=$alg ./mailing_send.sh "$RECIPIENTS" | tee "$LOGS/$alg.txt"
done
real() { sed -n 's/^real  *\([0-9.]*\) s.*/\1/p' "$1"; }
floor() { sed -n 's/^floor  *\([0-9.]*\) s.*/\1/p' "$1"; }
exact() { grep -c 'EXACT' "$1" || true; }
echo
printf 'unsigned send   %s s (floor %s s)\n' "$(real "$LOGS/unsigned.txt")" "$(floor "$LOGS/unsigned.txt")"
for alg in $ALGORITHMS; do
  python3 - "$(real "$LOGS/unsigned.txt")" "$(real "$LOGS/$alg.txt")" "$(floor "$LOGS/$alg.txt")" "$RECIPIENTS" "$alg" <<'PY'
import sys
unsigned, signed, fs, n, alg = float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
print(f"signed ({alg:7}) {signed:.2f} s  ({n / signed:,.0f} messages/s; floor {fs:.2f} s)  ratio {signed / unsigned:.2f}  (target <= 1.2)")
PY
  [ "$(exact "$LOGS/$alg.txt")" -ge 1 ] || { echo "the $alg send lost or doubled a message"; exit 1; }
done
[ "$(exact "$LOGS/unsigned.txt")" -ge 1 ] || { echo "the unsigned send lost or doubled a message"; exit 1; }
printf 'load average    %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
