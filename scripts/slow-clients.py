#!/usr/bin/env python3
"""Slow clients against `harness serve` on 127.0.0.1: N connections each send full headers of a
POST with `Content-Length: 60000`, then one byte of body a second; beside them, one ordinary
request a second (GET /api/info on a fresh connection). Stops by itself after --seconds.

Prints one line a second (slow connections still open, the ordinary request's answer, the
server's RSS from /proc/PID/status) and a summary. Only ever connects to 127.0.0.1.

    harness serve --port 8099 & python3 scripts/slow-clients.py --port 8099 --pid $!
"""
import argparse
import socket
import time

HOST = "127.0.0.1"


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def ordinary(port):
    """Status of GET /api/info on a new connection (2 s to answer), or the error's name."""
    try:
        with socket.create_connection((HOST, port), timeout=2) as s:
            s.sendall(b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            head = s.recv(64)
        return head.split(b" ")[1].decode() if head.startswith(b"HTTP/") else "no answer"
    except OSError as e:
        return type(e).__name__


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--pid", type=int, help="the server's process id, for its RSS")
    ap.add_argument("--clients", type=int, default=1024)
    ap.add_argument("--seconds", type=int, default=30)
    args = ap.parse_args()
    before = rss_kib(args.pid) if args.pid else None
    headers = (
        "POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Content-Length: 60000\r\n\r\n"
    ).encode()
    slow, answers = [], {}
    for _ in range(args.clients):
        try:
            s = socket.create_connection((HOST, args.port), timeout=2)
            s.sendall(headers)
            s.setblocking(False)
            slow.append(s)
        except OSError as e:
            answers[type(e).__name__] = answers.get(type(e).__name__, 0) + 1
    start = time.monotonic()
    peak, first_ok, tick = before or 0, None, 0
    print(f"{len(slow)} slow connections open; RSS before: {before} KiB")
    while time.monotonic() - start < args.seconds:
        still = []
        for s in slow:
            try:
                head = s.recv(64)
                # An answer (408, 503) or end of file: the server let this client go.
                status = head.split(b" ")[1].decode() if head.startswith(b"HTTP/") else "closed"
                answers[status] = answers.get(status, 0) + 1
                s.close()
                continue
            except BlockingIOError:
                pass
            except OSError as e:
                answers[type(e).__name__] = answers.get(type(e).__name__, 0) + 1
                s.close()
                continue
            try:
                s.send(b" ")
                still.append(s)
            except OSError as e:
                answers[type(e).__name__] = answers.get(type(e).__name__, 0) + 1
                s.close()
        slow = still
        got = ordinary(args.port)
        t = time.monotonic() - start
        if got == "200" and first_ok is None:
            first_ok = t
        rss = rss_kib(args.pid) if args.pid else None
        peak = max(peak, rss or 0)
        print(f"t={t:5.1f} s  slow open {len(slow):4}  ordinary request: {got:>4}  RSS {rss} KiB")
        tick += 1
        time.sleep(max(0.0, start + tick - time.monotonic()))
    for s in slow:
        s.close()
    time.sleep(3)
    after = rss_kib(args.pid) if args.pid else None
    print(f"slow clients' answers: {answers}")
    print(f"RSS KiB: before {before}, peak during {peak}, 3 s after {after}")
    print("first ordinary 200 at " + (f"{first_ok:.1f} s" if first_ok is not None else "never"))


if __name__ == "__main__":
    main()
