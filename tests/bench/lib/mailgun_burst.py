"""Load client for tests/bench/delivery_webhooks.sh: EVENTS Mailgun "failed (permanent)" webhooks, each signed as
Mailgun signs (hex HMAC-SHA256 of timestamp + token with the signing key) and naming one seeded contact through our
Message-ID, posted over CONNECTIONS threads. A post that gets no 200 (refused connection while the api is down, a
reset, a 5xx) is sent again after a short pause, with the same token and event id, as Mailgun retries. Writes the
contact id of every 200 to ACKED and prints ACKED=, RETRIES=, REFUSED= (4xx), EVENTS_PER_SECOND=."""

import hashlib
import hmac
import http.client
import json
import sys
import threading
import time

base, short, key, client_id, mailing, first, events, connections, acked_path = sys.argv[1:10]
client_id, mailing, first, events, connections = map(int, (client_id, mailing, first, events, connections))
host, port = base.removeprefix("http://").split(":")
path = f"/api/webhooks/delivery/mailgun/{short}"

lock = threading.Lock()
acked, retries, refused = [], [0], [0]


def body(n: int) -> bytes:
    contact = first + n
    timestamp = str(int(time.time()))
    token = f"bench-token-{n:08d}-" + "x" * 24
    signature = hmac.new(key.encode(), (timestamp + token).encode(), hashlib.sha256).hexdigest()
    event = {
        "signature": {"timestamp": timestamp, "token": token, "signature": signature},
        "event-data": {
            "id": f"bench-event-{n}",
            "timestamp": time.time(),
            "event": "failed",
            "severity": "permanent",
            "reason": "bounce",
            "recipient": f"w{n + 1}@bench.example.org",
            "delivery-status": {"code": 550, "message": "5.1.1 The account does not exist."},
            "message": {"headers": {"message-id": f"m{mailing}.c{contact}.k{client_id}@bench.example.org"}},
        },
    }
    return json.dumps(event).encode()


def worker(lane: int) -> None:
    conn = None
    for n in range(lane, events, connections):
        while True:
            try:
                if conn is None:
                    conn = http.client.HTTPConnection(host, int(port), timeout=30)
                # Signed afresh on each try: a retry minutes later still carries a fresh timestamp, as Mailgun's do.
                conn.request("POST", path, body(n), {"content-type": "application/json"})
                response = conn.getresponse()
                response.read()
                status = response.status
            except (OSError, http.client.HTTPException):
                status = None
            if status == 200:
                with lock:
                    acked.append(first + n)
                break
            if status is not None and 400 <= status < 500 and status != 429:
                with lock:
                    refused[0] += 1
                break
            with lock:
                retries[0] += 1
            if conn is not None:
                conn.close()
                conn = None
            time.sleep(0.2)
    if conn is not None:
        conn.close()


started = time.time()
threads = [threading.Thread(target=worker, args=(i,)) for i in range(connections)]
for t in threads:
    t.start()
for t in threads:
    t.join()
elapsed = time.time() - started
with open(acked_path, "w") as f:
    f.write("\n".join(map(str, acked)) + "\n")
print(f"ACKED={len(acked)}")
print(f"RETRIES={retries[0]}")
print(f"REFUSED={refused[0]}")
print(f"EVENTS_PER_SECOND={round(len(acked) / elapsed)}")
