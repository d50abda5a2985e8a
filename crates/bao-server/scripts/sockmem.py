# Opens batches of spectator WebSockets to a running bao serve (raw; they read what arrives
# but never answer) and prints the server's RSS after each batch.
# usage: sockmem.py PORT PID GAME_ID BATCH BATCHES
import socket, sys, time
port, pid, gid, n, k = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
def rss():
    for l in open(f"/proc/{pid}/status"):
        if l.startswith("VmRSS"): return int(l.split()[1])
req = (f"GET /api/games/{gid}/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
       "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode()
def one():
    s = socket.create_connection(("127.0.0.1", port)); s.sendall(req); return s
def drain(socks):
    for s in socks:
        s.settimeout(0.05)
        try:
            while s.recv(65536): pass
        except Exception: pass
socks = [one() for _ in range(50)]
time.sleep(1); drain(socks)
prev = rss()
for b in range(k):
    new = [one() for _ in range(n)]
    time.sleep(2); drain(new); time.sleep(1)
    socks += new
    r = rss()
    print(f"batch {b+1}: {len(socks)} sockets, RSS {prev} -> {r} KiB, {(r - prev) / n:.1f} KiB per socket", flush=True)
    prev = r
