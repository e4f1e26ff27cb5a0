#!/usr/bin/env python3
"""The attack of scripts/hostile-load, and the client it must not lock out.

    hostile_load.py PORT SERVER_PID [options]

An attacker (asyncio, bound to --attacker-address, 127.0.0.2 by default, so
the server tells it from the client) holds --idle connections that send
nothing and --slow connections that send a request head one byte every
--slow-interval seconds, and opens a new one whenever one is closed, for
--seconds. Meanwhile a client on 127.0.0.1 makes /lookup requests one after
another, each on a new connection. The server's RSS and open sockets are
sampled from /proc. At the end one line of figures, `RESULT key=value ...`,
and a nonzero exit status when --max-p99-ms, --max-rss-mb or the slow
senders' deadline (--header-timeout + 1 s) is not met.
"""

import argparse
import asyncio
import http.client
import multiprocessing
import os
import resource
import socket
import statistics
import sys
import threading
import time

HEAD = b"GET /lookup?id=364709193 HTTP/1.1\r\nHost: attacker\r\nUser-Agent: slow\r\n\r\n"


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def open_sockets(pid):
    count = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:"):
                count += 1
        except OSError:
            pass
    return count


class Attack:
    def __init__(self, args):
        self.args = args
        self.stop = False
        self.opened = 0
        # A connection closed in less than half the header timeout was
        # refused (the server closes those at once; a busy attacker notices
        # late); one closed later was held, then closed by the timeout.
        self.refused_threshold = args.header_timeout / 2
        self.refused = 0
        self.lifetimes = {"idle": [], "slow": []}  # held, then closed
        self.open_at_end = {"idle": [], "slow": []}  # held when the attack stopped
        self.connect_errors = 0

    async def connect(self):
        while not self.stop:
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", self.args.port, local_addr=(self.args.attacker_address, 0))
                self.opened += 1
                return reader, writer
            except OSError:
                self.connect_errors += 1
                await asyncio.sleep(0.05)
        return None

    def ended(self, kind, opened, stopped):
        lifetime = time.monotonic() - opened
        if stopped:
            self.open_at_end[kind].append(lifetime)
        elif lifetime < self.refused_threshold:
            self.refused += 1
        else:
            self.lifetimes[kind].append(lifetime)

    async def hold(self, kind, talk):
        """Opens connections one after another (a new one whenever the
        server closes one) and runs `talk(reader, writer)` on each until
        it ends; records how each ended."""
        while not self.stop:
            pair = await self.connect()
            if pair is None:
                return
            reader, writer = pair
            opened = time.monotonic()
            try:
                await talk(reader, writer)
            except asyncio.CancelledError:
                self.ended(kind, opened, True)
                writer.close()
                raise
            except OSError:
                pass
            self.ended(kind, opened, self.stop)
            writer.close()

    async def idle(self):
        async def nothing(reader, writer):
            await reader.read()  # until the server closes it

        await self.hold("idle", nothing)

    async def slow(self):
        async def byte_by_byte(reader, writer):
            closed = asyncio.ensure_future(reader.read())
            try:
                sent = 0
                while not self.stop and not closed.done():
                    writer.write(HEAD[sent:sent + 1])
                    sent = (sent + 1) % (len(HEAD) - 1)  # never the last byte
                    await writer.drain()
                    await asyncio.wait([closed], timeout=self.args.slow_interval)
                await closed
            finally:
                closed.cancel()

        await self.hold("slow", byte_by_byte)

    async def run(self):
        tasks = [asyncio.ensure_future(self.idle()) for _ in range(self.args.idle)]
        tasks += [asyncio.ensure_future(self.slow()) for _ in range(self.args.slow)]
        await asyncio.sleep(self.args.seconds)
        self.stop = True
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def client(args, until, results):
    """The lookups, in a process of their own: the attacker's event loop
    holds its process's interpreter, and must not delay them."""
    latencies, failures = [], []
    while time.monotonic() < until:
        started = time.monotonic()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", args.port, timeout=10)
            connection.request("GET", "/lookup?id=364709193")
            response = connection.getresponse()
            response.read()
            connection.close()
            if response.status != 200:
                failures.append(f"HTTP {response.status}")
        except Exception as error:  # a timeout or a reset is a failure
            failures.append(type(error).__name__)
        latencies.append(time.monotonic() - started)
        time.sleep(args.client_pause)
    results.send((latencies, failures))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("port", type=int)
    parser.add_argument("pid", type=int)
    parser.add_argument("--idle", type=int, default=5000)
    parser.add_argument("--slow", type=int, default=500)
    parser.add_argument("--slow-interval", type=float, default=2.0)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--attacker-address", default="127.0.0.2")
    parser.add_argument("--client-pause", type=float, default=0.01)
    parser.add_argument("--header-timeout", type=float, default=10.0)
    parser.add_argument("--max-p99-ms", type=float, default=0, help="fail above it (0: report only)")
    parser.add_argument("--max-rss-mb", type=float, default=0, help="fail above it (0: report only)")
    args = parser.parse_args()

    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if args.idle + args.slow + 100 > hard:
        sys.exit(f"hostile_load.py: {args.idle + args.slow} connections need more descriptors than the limit {hard}")

    before_rss, before_sockets = rss_mb(args.pid), open_sockets(args.pid)
    samples = []
    sampling = True

    def sample():
        while sampling:
            samples.append((rss_mb(args.pid), open_sockets(args.pid)))
            time.sleep(0.5)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    attack = Attack(args)
    until = time.monotonic() + args.seconds
    receiving, sending = multiprocessing.Pipe(duplex=False)
    lookups = multiprocessing.Process(target=client, args=(args, until, sending))
    lookups.start()
    asyncio.run(attack.run())
    latencies, failures = receiving.recv()
    lookups.join()
    # What is left once the attacker is gone: its connections closed, the
    # server back where it was.
    time.sleep(3)
    sampling = False
    sampler.join()
    after_rss, after_sockets = rss_mb(args.pid), open_sockets(args.pid)

    latencies.sort()
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000 if latencies else 0
    peak_rss = max((s[0] for s in samples), default=0)
    peak_sockets = max((s[1] for s in samples), default=0)
    # The longest a slow sender was held: closed by the server, or still
    # open when the attack stopped.
    slowest = max(attack.lifetimes["slow"] + attack.open_at_end["slow"], default=0)
    held_longest = max(attack.lifetimes["idle"] + attack.open_at_end["idle"] + [slowest], default=0)
    figures = {
        "lookups": len(latencies), "failures": len(failures), "p50_ms": round(p(0.5), 2), "p99_ms": round(p(0.99), 2),
        "max_ms": round(p(1.0), 2), "attacker_connections": attack.opened, "refused": attack.refused,
        "connect_errors": attack.connect_errors, "idle_closed": len(attack.lifetimes["idle"]),
        "slow_closed": len(attack.lifetimes["slow"]), "open_at_end": len(attack.open_at_end["idle"]) + len(attack.open_at_end["slow"]),
        "slow_held_max_s": round(slowest, 2),
        "slow_closed_median_s": round(statistics.median(attack.lifetimes["slow"]), 2) if attack.lifetimes["slow"] else 0,
        "held_max_s": round(held_longest, 2),
        "rss_before_mb": round(before_rss, 1), "rss_peak_mb": round(peak_rss, 1), "rss_after_mb": round(after_rss, 1),
        "sockets_before": before_sockets, "sockets_peak": peak_sockets, "sockets_after": after_sockets,
    }
    print("RESULT " + " ".join(f"{key}={value}" for key, value in figures.items()))
    if failures:
        print(f"failed lookups: {sorted(set(failures))}", file=sys.stderr)
    problems = []
    if failures:
        problems.append(f"{len(failures)} lookup(s) failed")
    if args.max_p99_ms and p(0.99) > args.max_p99_ms:
        problems.append(f"p99 {p(0.99):.1f} ms > {args.max_p99_ms} ms")
    if args.max_rss_mb and peak_rss > args.max_rss_mb:
        problems.append(f"peak RSS {peak_rss:.0f} MB > {args.max_rss_mb} MB")
    if held_longest > args.header_timeout + 1:
        problems.append(f"an attacker's connection was held {held_longest:.1f} s > header timeout {args.header_timeout} + 1 s")
    if after_sockets > before_sockets + 2:
        problems.append(f"{after_sockets - before_sockets} socket(s) still open after the attack")
    if problems:
        print("hostile_load.py: " + "; ".join(problems), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
