# Bursts of sign-ups and logins against a running bao serve, several at once, printing the
# server's RSS before and after each burst (docs/api.md, "Accounts", "Measured"). Argon2id
# takes 19 MiB per hash: what matters is that the server's memory returns to where it was
# and a second burst adds nothing.
# The server must not rate-limit one address: `bao serve ... --limit-account 0 --limit-account-name 0`.
# usage: loginmem.py PORT PID [SIGNUPS [LOGINS [AT_ONCE [BURSTS]]]]   (defaults 40 80 8 2)
import json, random, string, sys, time, urllib.error, urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

port, pid = int(sys.argv[1]), int(sys.argv[2])
signups, logins, at_once, bursts = [int(a) for a in sys.argv[3:7]] + [40, 80, 8, 2][len(sys.argv[3:7]):]
base = f"http://127.0.0.1:{port}"


def status(key):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(key):
            return int(line.split()[1])


def mib(kib):
    return f"{kib / 1024:.1f} MiB"


def post(path, body):
    req = urllib.request.Request(base + path, json.dumps(body).encode(), {"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


tag = "".join(random.choices(string.ascii_lowercase, k=5))
start = status("VmRSS")
print(f"start: RSS {mib(start)}", flush=True)
for b in range(bursts):
    names = [f"m{tag}{b}_{i}" for i in range(signups)]
    before = status("VmRSS")
    t0 = time.time()
    with ThreadPoolExecutor(at_once) as pool:
        codes = Counter(pool.map(lambda n: post("/api/account/signup", {"username": n, "password": "memory-check-1"}), names))
        wanted = [names[i % signups] for i in range(logins)]
        codes += Counter(pool.map(lambda n: post("/api/account/login", {"username": n, "password": "memory-check-1"}), wanted))
    took = time.time() - t0
    after = status("VmRSS")
    time.sleep(2)
    settled = status("VmRSS")
    print(f"burst {b + 1}: {signups} sign-ups and {logins} logins, {at_once} at once, in {took:.1f} s "
          f"(answers {dict(sorted(codes.items()))}); RSS {mib(before)} -> {mib(after)}, "
          f"{mib(settled)} 2 s later; since start {settled - start:+d} KiB", flush=True)
print(f"peak RSS (VmHWM) {mib(status('VmHWM'))}", flush=True)
