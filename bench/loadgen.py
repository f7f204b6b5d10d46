"""Closed-loop HTTP/1.1 load generator for the benchmark (its own process, no shared GIL).

``python bench/loadgen.py --port P --path /v1/... [--clients 32] [--duration 20]``

Each of ``clients`` keep-alive connections sends a GET, waits for the whole response and
sends the next one, for ``duration`` seconds (and at most ``--max-requests``). One thread
drives every connection with ``selectors`` on non-blocking sockets, so the client spends a
few tens of microseconds per request and the figures are the server's. Loopback only: the
host is fixed to 127.0.0.1. Prints one JSON object: requests, errors, throughput and the
p50/p95/p99/max latency in milliseconds.
"""

import argparse
import json
import selectors
import socket
import time

HOST = "127.0.0.1"


class Connection:
    def __init__(self, port: int, request: bytes):
        self.port = port
        self.request = request
        self.sock = None
        self.buffer = b""
        self.started = 0.0
        self.connect()

    def connect(self) -> None:
        if self.sock is not None:
            self.sock.close()
        self.sock = socket.create_connection((HOST, self.port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.setblocking(False)
        self.buffer = b""

    def send(self) -> None:
        self.started = time.perf_counter()
        self.sock.sendall(self.request)  # small request: fits the socket buffer at once

    def receive(self):
        """``None`` while incomplete; else ``(status, keep_alive)`` of a complete response."""
        chunk = self.sock.recv(1 << 20)
        if not chunk:
            raise ConnectionError("server closed the connection")
        self.buffer += chunk
        head_end = self.buffer.find(b"\r\n\r\n")
        if head_end < 0:
            return None
        head = self.buffer[:head_end].decode("latin-1").lower()
        length = 0
        for line in head.split("\r\n")[1:]:
            name, _, value = line.partition(":")
            if name == "content-length":
                length = int(value)
        if len(self.buffer) < head_end + 4 + length:
            return None
        status = int(head.split(" ", 2)[1])
        self.buffer = self.buffer[head_end + 4 + length :]
        return status, "connection: close" not in head


def run(port: int, path: str, clients: int, duration: float, max_requests: int) -> dict:
    request = (
        f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nAccept: application/json\r\nConnection: keep-alive\r\n\r\n"
    ).encode()
    selector = selectors.DefaultSelector()
    latencies, statuses, errors = [], {}, 0
    connections = [Connection(port, request) for _ in range(clients)]
    start = time.perf_counter()
    deadline = start + duration
    for conn in connections:
        selector.register(conn.sock, selectors.EVENT_READ, conn)
        conn.send()
    in_flight = len(connections)
    while in_flight:
        for key, _ in selector.select(timeout=1.0):
            conn = key.data
            try:
                done = conn.receive()
            except OSError:
                errors += 1
                done = (0, False)
            if done is None:
                continue
            now = time.perf_counter()
            status, keep_alive = done
            latencies.append(now - conn.started)
            statuses[status] = statuses.get(status, 0) + 1
            if now >= deadline or len(latencies) >= max_requests:
                selector.unregister(conn.sock)
                conn.sock.close()
                in_flight -= 1
                continue
            if not keep_alive or status == 0:
                selector.unregister(conn.sock)
                conn.connect()
                selector.register(conn.sock, selectors.EVENT_READ, conn)
            conn.send()
        if time.perf_counter() > deadline + 30:  # a stuck server: give up
            break
    elapsed = time.perf_counter() - start
    latencies.sort()

    def pct(q):
        return latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1e3 if latencies else None

    return {
        "requests": len(latencies),
        "errors": errors,
        "statuses": statuses,
        "seconds": elapsed,
        "throughput": len(latencies) / elapsed,
        "p50_ms": pct(0.50),
        "p95_ms": pct(0.95),
        "p99_ms": pct(0.99),
        "max_ms": latencies[-1] * 1e3 if latencies else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="closed-loop keep-alive HTTP load on 127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--path", required=True)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--duration", type=float, default=20.0)
    parser.add_argument("--max-requests", type=int, default=2_000_000)
    args = parser.parse_args()
    print(json.dumps(run(args.port, args.path, args.clients, min(args.duration, 120.0), args.max_requests)))


if __name__ == "__main__":
    main()
