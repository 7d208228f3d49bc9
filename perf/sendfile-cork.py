#!/usr/bin/env python3
"""What a 1 GiB download over plain HTTP/1.1 costs the kernel, by how the server writes it (issue 38).

Fleche sends a large file with FileChannel.transferTo (sendfile) on a socket with TCP_NODELAY; nginx with sendfile
and tcp_nopush (TCP_CORK), which Java cannot set. This replica serves the same file from Python (whose own work is
a few system calls per MiB) in each way, so the kernel's part can be compared without either server:

  sendfile         sendfile of the whole rest, TCP_NODELAY (what Fleche does)
  sendfile+cork    the same under TCP_CORK, uncorked at the end (what nginx's tcp_nopush does)
  read+write       pread into a 256 KiB buffer, then write (two copies)
  mmap+write       write from a memory-mapped file, 1 MiB at a time (what Jetty does)

Each mode is one server process pinned to the server CPU; curl on the other fetches the file --rounds times after one
warm-up (modes rotated per round). Reported: MiB/s (curl) and the server's CPU seconds per GiB (getrusage around
the transfer), medians. Usage:

  perf/sendfile-cork.py [--file /tmp/fleche-staticbench-files/1g.bin] [--rounds 5] [--pin 0:1] [--out DIR]
"""
import argparse
import datetime
import mmap
import os
import resource
import select
import socket
import statistics
import subprocess
import sys

MODES = ["sendfile", "sendfile+cork", "read+write", "mmap+write"]


def serve(mode, port, path):
    """The server: one request per connection, the file as the body, CPU per GiB printed after each."""
    size = os.path.getsize(path)
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(8)
    print("ready", flush=True)
    buffer = bytearray(256 << 10)
    view = memoryview(buffer)
    while True:
        conn, _ = listener.accept()
        request = b""
        while b"\r\n\r\n" not in request:
            data = conn.recv(4096)
            if not data:
                break
            request += data
        if not request:
            conn.close()
            continue
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if mode == "sendfile+cork":
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_CORK, 1)
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % size)
        conn.setblocking(False)
        fd = os.open(path, os.O_RDONLY)
        before = resource.getrusage(resource.RUSAGE_SELF)

        def write(data):
            sent = 0
            while sent < len(data):
                try:
                    sent += conn.send(data[sent:])
                except BlockingIOError:
                    select.select([], [conn], [])

        offset = 0
        if mode.startswith("sendfile"):
            while offset < size:
                try:
                    offset += os.sendfile(conn.fileno(), fd, offset, size - offset)
                except BlockingIOError:
                    select.select([], [conn], [])
            if mode == "sendfile+cork":
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_CORK, 0)
        elif mode == "read+write":
            while offset < size:
                n = os.preadv(fd, [view], offset)
                write(view[:n])
                offset += n
        else:
            mapped = mmap.mmap(fd, size, prot=mmap.PROT_READ)
            whole = memoryview(mapped)
            while offset < size:
                n = min(1 << 20, size - offset)
                write(whole[offset:offset + n])
                offset += n
            whole.release()
            mapped.close()
        after = resource.getrusage(resource.RUSAGE_SELF)
        cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        print("cpu %.6f" % (cpu * (1 << 30) / size), flush=True)
        os.close(fd)
        conn.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--file", default="/tmp/fleche-staticbench-files/1g.bin")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pin", default="0:1", help="server CPU:client CPU")
    parser.add_argument("--port", type=int, default=18601)
    parser.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "results"))
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.port, args.file)
        return
    if not os.path.exists(args.file):
        sys.exit("no file %s: make one (perf/staticbench.sh makes /tmp/fleche-staticbench-files/1g.bin)" % args.file)
    server_cpu, client_cpu = args.pin.split(":")
    started = datetime.datetime.now(datetime.timezone.utc)
    rows = {m: [] for m in MODES}
    for round_no in range(args.rounds):
        order = MODES[round_no % len(MODES):] + MODES[:round_no % len(MODES)]
        for mode in order:
            port = args.port + MODES.index(mode)
            server = subprocess.Popen(["taskset", "-c", server_cpu, sys.executable, os.path.abspath(__file__),
                                       "--serve", mode, "--port", str(port), "--file", args.file],
                                      stdout=subprocess.PIPE, text=True)
            try:
                assert server.stdout.readline().strip() == "ready"
                url = "http://127.0.0.1:%d/" % port
                for warm in (True, False):
                    out = subprocess.run(["taskset", "-c", client_cpu, "curl", "-s", "-o", "/dev/null", "--max-time",
                                          "120", "-w", "%{speed_download} %{size_download}", url],
                                         capture_output=True, text=True, check=True).stdout.split()
                    cpu = float(server.stdout.readline().split()[1])
                    if int(out[1]) != os.path.getsize(args.file):
                        sys.exit("%s: curl got %s bytes" % (mode, out[1]))
                    if not warm:
                        rows[mode].append((float(out[0]) / (1 << 20), cpu))
                        print("round %d %-14s %6.0f MiB/s %.3f CPU s/GiB" % (round_no + 1, mode, rows[mode][-1][0],
                                                                            cpu), flush=True)
            finally:
                server.kill()
                server.wait()
    lines = ["# sendfile, TCP_CORK, read+write and mmap+write from a Python replica (perf/sendfile-cork.py, issue 38)",
             "", "- started %s UTC; %s; kernel %s" % (started.strftime("%Y-%m-%d %H:%M:%S"), sys.version.split()[0],
                                                     os.uname().release),
             "- command: `perf/sendfile-cork.py %s`" % " ".join(sys.argv[1:]),
             "- server on CPU %s, curl on CPU %s; the file: %s (%d bytes); medians of %d rounds, modes rotated" % (
                 server_cpu, client_cpu, args.file, os.path.getsize(args.file), args.rounds),
             "", "| mode | MiB/s | server CPU s/GiB |", "|---|---:|---:|"]
    for mode in MODES:
        lines.append("| %s | %.0f | %.3f |" % (mode, statistics.median(r[0] for r in rows[mode]),
                                               statistics.median(r[1] for r in rows[mode])))
    report = os.path.join(args.out, "sendfile-cork-%s.md" % started.strftime("%Y-%m-%d-%H%M%S"))
    os.makedirs(args.out, exist_ok=True)
    with open(report, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    print("report: " + report)


if __name__ == "__main__":
    main()
