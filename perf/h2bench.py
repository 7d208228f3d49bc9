#!/usr/bin/env python3
"""HTTP/2 benchmark runner behind perf/h2bench.sh (issue 25). Run it through the script, which builds first.

For each round (the target order rotated every round), for each target, for each transport it has cells in (clear
text, then TLS): start the target (same JVM flags), wait for READY, check the body once with curl, warm up, then
measure each cell with h2load -D, sampling the server's CPU (utime+stime from /proc/PID/stat) around the measured
window. Idle cells open N idle HTTP/2 connections with the client in this file (`idle-client`) and read the
server's used heap after a full GC, with and without them. Writes results/h2bench-<UTC>.{md,json}.

Only processes this script started are stopped, by their PID; every wait is bounded.
"""
import argparse
import json
import os
import platform
import re
import resource
import selectors
import shutil
import signal
import socket
import ssl
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PEERS = os.path.join(HERE, "peers")
FLECHE_JAR = os.path.join(HERE, "target", "fleche-perf.jar")
BODY = "Hello, World!"
CLK_TCK = os.sysconf("SC_CLK_TCK")
PORT_FIRST, PORT_LAST = 19100, 19199
OVERSTAY_S = 30  # h2load may run this long past its window, then is killed (-D can hang mid-handshake)


def peer_jar(name):
    return os.path.join(PEERS, name, "target", name + "-peer.jar")


# name: kind (raw | jersey), how it starts (args after the JVM flags), its extra args in clear text and over TLS
# (None: no such transport), and a note for the report.
TARGETS = {
    "fleche-raw": dict(kind="raw", cmd=["-cp", FLECHE_JAR, "dev.fleche.perf.fleche.FlecheRawPeer"],
                       clear=[], tls=[], note="Fleche's transport, raw handler (HTTP/2 on by default)"),
    "netty-h2": dict(kind="raw", cmd=["-jar", peer_jar("netty-h2")], clear=[], tls=[],
                     note="Netty 4.2 Http2ConnectionHandler + frame listener"),
    "vertx-h2": dict(kind="raw", cmd=["-jar", peer_jar("vertx")], clear=["--h2"], tls=["--h2"],
                     note="Vert.x 5.1 (vertx-web Router), h2c + ALPN"),
    "jetty-h2": dict(kind="raw", cmd=["-jar", peer_jar("jetty-h2")], clear=[], tls=[],
                     note="Jetty 12.1 core Handler, HTTP2C / ALPN + HTTP2"),
    "helidon-h2": dict(kind="raw", cmd=["-jar", peer_jar("helidon-h2")], clear=[], tls=[],
                       note="Helidon SE 4.5 webserver + http2 module (Java 21+)"),
    "fleche-jersey": dict(kind="jersey", cmd=["-cp", FLECHE_JAR, "dev.fleche.perf.fleche.FlecheJerseyPeer"],
                          clear=[], tls=[], note="Fleche + Jersey, shared BenchApplication"),
    "jersey-jetty-h2": dict(kind="jersey", cmd=["-jar", peer_jar("jersey-jetty")], clear=["--h2"], tls=["--h2"],
                            note="Jersey 4.0.2 jetty container (Jetty 12.0) + Jetty's HTTP/2 connector, h2c + ALPN"),
    "jersey-netty-h2": dict(kind="jersey", cmd=["-jar", peer_jar("jersey-netty")], clear=None, tls=["--h2"],
                            note="Jersey 4.0.2 netty container, createHttp2Server (h2 over TLS only)"),
}

# Cells: mode (h1 | h2c | h2 = TLS | idle-h2c | idle-h2), connections, streams per connection (-m; for h1 the
# pipelining depth). Which cells a target gets follows from its kind and its transports.
RAW_CELLS = [(mode, c, m) for mode in ("h2c", "h2") for m in (1, 100) for c in (16, 256)]
JERSEY_CELLS = [(mode, 16, m) for mode in ("h1", "h2c", "h2") for m in (1, 10)]
IDLE_CELLS = [("idle-h2c", None, None), ("idle-h2", None, None)]


def cell_id(cell):
    mode, c, m = cell
    return mode if c is None else f"{mode}-c{c}-m{m}"


def is_tls(mode):
    return mode in ("h2", "idle-h2")


def cells_for(name, wanted):
    t = TARGETS[name]
    base = (RAW_CELLS if t["kind"] == "raw" else JERSEY_CELLS) + IDLE_CELLS
    out = []
    for cell in base:
        if not any(w(cell) for w in wanted):
            continue
        if (t["tls"] if is_tls(cell[0]) else t["clear"]) is None:
            continue
        if cell[0] == "h1" and t["clear"] is None:
            continue
        out.append(cell)
    return out


def cell_filter(spec):
    """--cells: comma-separated ids or globs-ish prefixes ('h2c', 'h2-c16', 'idle', 'all', 'load')."""
    out = []
    for part in spec.split(","):
        part = part.strip()
        if part in ("all", ""):
            out.append(lambda cell: True)
        elif part == "load":
            out.append(lambda cell: cell[1] is not None)
        else:
            out.append(lambda cell, p=part: cell_id(cell) == p or cell_id(cell).startswith(p + "-"))
    return out


def log(msg):
    print(f"[h2bench {datetime.now(timezone.utc).strftime('%H:%M:%S')}] {msg}", flush=True)


# ---------------------------------------------------------------------------------------------------------------
# processes

class Server:
    """One started target: its java process (started here, stopped here by its PID)."""

    def __init__(self, java, jvm_flags, name, port, tls, keystore, logdir):
        t = TARGETS[name]
        extra = t["tls"] if tls else t["clear"]
        self.argv = [java] + jvm_flags + t["cmd"] + [str(port)] + extra
        if tls:
            self.argv += ["--tls", keystore[0], keystore[1]]
        self.port = port
        self.log_path = os.path.join(logdir, f"{name}-{'tls' if tls else 'clear'}-{port}.log")
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen(self.argv, stdout=subprocess.PIPE, stderr=self.log, text=True,
                                     start_new_session=True)
        self.pid = self.proc.pid

    def wait_ready(self, timeout):
        deadline = time.monotonic() + timeout
        sel = selectors.DefaultSelector()
        sel.register(self.proc.stdout, selectors.EVENT_READ)
        try:
            while time.monotonic() < deadline:
                if not sel.select(max(0.0, deadline - time.monotonic())):
                    break
                line = self.proc.stdout.readline()
                if not line:
                    raise RuntimeError(f"exited with {self.proc.wait(5)} before READY (see {self.log_path})")
                self.log.write(line)
                if line.startswith("READY"):
                    self.proc.stdout.close()  # the rest of stdout is not read; peers print nothing more
                    return
        finally:
            sel.close()
        raise RuntimeError(f"no READY in {timeout} s (see {self.log_path})")

    def cpu_ticks(self):
        with open(f"/proc/{self.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of the whole line)

    def stop(self):
        if self.proc.poll() is None:
            os.kill(self.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.kill(self.pid, signal.SIGKILL)
                self.proc.wait(10)
        self.log.close()


STARTED = []  # every Server and helper Popen this run started, stopped at exit


def cleanup(*_):
    for p in reversed(STARTED):
        try:
            if isinstance(p, Server):
                p.stop()
            elif p.poll() is None:
                p.kill()
                p.wait(5)
        except Exception:  # noqa: BLE001 - best effort at exit
            pass


def run(argv, timeout, **kw):
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, **kw)


def url(port, tls):
    return f"{'https' if tls else 'http'}://127.0.0.1:{port}/hello"


def check_body(port, mode):
    tls = is_tls(mode)
    argv = ["curl", "-sS", "--max-time", "10", "-o", "-", "-w", "\n%{http_code} %{http_version} %{content_type}"]
    if mode == "h1":
        argv += ["--http1.1"]
    elif tls:
        argv += ["-k", "--http2"]
    else:
        argv += ["--http2-prior-knowledge"]
    r = run(argv + [url(port, tls)], 20)
    body, _, meta = r.stdout.rpartition("\n")
    want_version = "1.1" if mode == "h1" else "2"
    parts = meta.split(" ", 2)
    ok = (r.returncode == 0 and body == BODY and len(parts) == 3 and parts[0] == "200"
          and parts[1] == want_version and parts[2].startswith("text/plain"))
    return ok, f"curl rc={r.returncode} status/version/type={meta!r} body={body[:40]!r} {r.stderr.strip()[:200]}"


def h2load_argv(port, mode, c, m, seconds, threads, warmup=0, log_file=None):
    argv = ["h2load", "-D", str(seconds), "-c", str(c), "-m", str(m), "-t", str(min(threads, c))]
    if warmup > 0:
        argv.append(f"--warm-up-time={warmup}")
    if mode == "h1":
        argv.append("--h1")
    if log_file:
        argv.append(f"--log-file={log_file}")
    return argv + [url(port, is_tls(mode))]


def h2load(port, mode, c, m, seconds, threads):
    """A warm-up run: its figures are not kept; a run that overstays is killed (bounded wait)."""
    try:
        run(h2load_argv(port, mode, c, m, seconds, threads), seconds + 60)
    except subprocess.TimeoutExpired:
        log(f"    warm-up h2load {mode} -c {c} -m {m} overstayed {seconds + 60} s: killed")


def handshakes(port, c, threads):
    """Warms the TLS handshake path before the cells with many connections: c connections at once, 4 requests
    each, counted (-n) rather than timed, since h2load -D can hang when handshakes outlast its window."""
    try:
        run(["h2load", "-n", str(4 * c), "-c", str(c), "-m", "1", "-t", str(min(threads, c)), url(port, True)], 60)
    except subprocess.TimeoutExpired:
        log(f"    handshake warm-up with {c} connections overstayed 60 s: killed")


def parse_h2load(out):
    res = {}
    m = re.search(r"finished in ([\d.]+)(m?s), ([\d.]+) req/s", out)
    if m:
        res["seconds"] = float(m.group(1)) / (1000 if m.group(2) == "ms" else 1)
        res["h2load_rps"] = float(m.group(3))
    m = re.search(r"requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, "
                  r"(\d+) errored, (\d+) timeout", out)
    if m:
        for k, v in zip(("total", "started", "done", "succeeded", "failed", "errored", "timeout"), m.groups()):
            res[k] = int(v)
    m = re.search(r"status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx", out)
    if m:
        res["non2xx"] = sum(int(x) for x in m.groups()[1:])
    m = re.search(r"time for request:\s+(\S+)\s+(\S+)\s+(\S+)", out)
    if m:
        res["req_time_min"], res["req_time_max"], res["req_time_mean"] = m.groups()
    return res


def percentiles(log_file):
    """p50/p99/p99.9 in ms from h2load's --log-file (tab-separated: start µs, status, duration µs)."""
    try:
        with open(log_file) as f:
            d = sorted(int(line.split("\t")[2]) for line in f if line.count("\t") >= 2)
    except (OSError, ValueError, IndexError):
        return {}
    if not d:
        return {}
    pick = lambda q: d[min(len(d) - 1, int(q * len(d)))] / 1000.0  # noqa: E731
    return {"p50_ms": pick(0.50), "p99_ms": pick(0.99), "p999_ms": pick(0.999)}


def jcmd(java, pid, *cmd):
    tool = os.path.join(os.path.dirname(java), "jcmd")
    return run([tool, str(pid)] + list(cmd), 60).stdout


def used_heap_kib(java, pid):
    """Used heap after three full GCs, in KiB (jcmd GC.heap_info's first 'used' figure)."""
    for _ in range(3):
        jcmd(java, pid, "GC.run")
    out = jcmd(java, pid, "GC.heap_info")
    m = re.search(r"used (\d+)K", out)
    if not m:
        raise RuntimeError("no 'used NK' in GC.heap_info: " + out[:300])
    return int(m.group(1))


# ---------------------------------------------------------------------------------------------------------------
# the idle client: N HTTP/2 connections, each sends the preface and SETTINGS, acknowledges the server's SETTINGS and
# PINGs, and sits until SIGTERM; it prints "HELD <n>" once every connection has the server's SETTINGS, and
# "ALIVE <n>" at the end (connections the server had not closed).

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
SETTINGS, PING = 4, 6


def frame(ftype, flags, payload=b"", stream=0):
    return struct.pack(">I", len(payload))[1:] + bytes([ftype, flags]) + struct.pack(">I", stream) + payload


def idle_client(args):
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    ctx = None
    if args.tls:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
        ctx.set_alpn_protocols(["h2"])
    sel = selectors.DefaultSelector()
    conns = {}
    deadline = time.monotonic() + args.timeout
    for _ in range(args.connections):
        s = socket.create_connection(("127.0.0.1", args.port), timeout=10)
        if ctx:
            s = ctx.wrap_socket(s)
            if s.selected_alpn_protocol() != "h2":
                print(f"ERROR alpn={s.selected_alpn_protocol()}", flush=True)
                return 2
        s.sendall(PREFACE + frame(SETTINGS, 0))
        s.setblocking(False)
        st = {"buf": b"", "settings": False}
        conns[s] = st
        sel.register(s, selectors.EVENT_READ, st)
    held = False
    alive = len(conns)
    try:
        while True:
            if not held and all(st["settings"] for st in conns.values()):
                held = True
                print(f"HELD {alive}", flush=True)
            if not held and time.monotonic() > deadline:
                print(f"ERROR only {sum(st['settings'] for st in conns.values())} of {len(conns)} got SETTINGS",
                      flush=True)
                return 2
            for key, _ in sel.select(1.0):
                s, st = key.fileobj, key.data
                try:
                    data = s.recv(65536)
                except (ssl.SSLWantReadError, BlockingIOError):
                    continue
                except OSError:
                    data = b""
                if not data:
                    sel.unregister(s)
                    s.close()
                    alive -= 1
                    st["settings"] = True  # closed: not waited for
                    continue
                st["buf"] += data
                while len(st["buf"]) >= 9:
                    n = int.from_bytes(st["buf"][:3], "big")
                    if len(st["buf"]) < 9 + n:
                        break
                    ftype, flags, payload = st["buf"][3], st["buf"][4], st["buf"][9:9 + n]
                    st["buf"] = st["buf"][9 + n:]
                    if ftype == SETTINGS and not flags & 1:
                        s.sendall(frame(SETTINGS, 1))
                        st["settings"] = True
                    elif ftype == PING and not flags & 1:
                        s.sendall(frame(PING, 1, payload))
    except KeyboardInterrupt:
        pass
    print(f"ALIVE {alive}", flush=True)
    return 0


def idle_cell(java, server, mode, n, timeout):
    base = used_heap_kib(java, server.pid)
    argv = [sys.executable, os.path.abspath(__file__), "idle-client", "--port", str(server.port),
            "--connections", str(n), "--timeout", str(timeout)] + (["--tls"] if mode == "idle-h2" else [])
    client = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              start_new_session=True)
    STARTED.append(client)
    try:
        line = read_line(client, timeout + 30)
        if not line.startswith("HELD"):
            return {"error": "idle client: " + line.strip()}
        time.sleep(1)
        loaded = used_heap_kib(java, server.pid)
        client.send_signal(signal.SIGTERM)
        rest = client.communicate(timeout=30)[0]
        m = re.search(r"ALIVE (\d+)", rest)
        alive = int(m.group(1)) if m else -1
        return {"connections": n, "alive": alive, "heap_base_kib": base, "heap_loaded_kib": loaded,
                "bytes_per_conn": (loaded - base) * 1024.0 / n,
                "failed": n - alive if alive >= 0 else n}
    finally:
        if client.poll() is None:
            client.kill()
            client.wait(5)
        STARTED.remove(client)


def read_line(proc, timeout):
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    try:
        if not sel.select(timeout):
            return "timed out"
        return proc.stdout.readline() or "exited"
    finally:
        sel.close()


# ---------------------------------------------------------------------------------------------------------------
# the run

def measure_cell(server, cell, opts, tmp):
    """One h2load run: --warm-up-time (connections open and handshakes happen then; h2load resets its counts when
    it ends), then -D seconds measured. The server's CPU is sampled when h2load's main window starts and ends
    (timed from h2load's start, the way h2load times it)."""
    mode, c, m = cell
    log_file = os.path.join(tmp, "h2load-requests.log") if opts.latency_log else None
    argv = h2load_argv(server.port, mode, c, m, opts.duration, opts.h2load_threads, opts.cell_warmup, log_file)
    t0 = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    STARTED.append(proc)
    try:
        time.sleep(max(0.0, t0 + opts.cell_warmup - time.monotonic()))
        before = server.cpu_ticks()
        time.sleep(max(0.0, t0 + opts.cell_warmup + opts.duration - time.monotonic()))
        after = server.cpu_ticks()
        try:
            out, err = proc.communicate(timeout=OVERSTAY_S + max(0.0, t0 + opts.cell_warmup + opts.duration
                                                                             - time.monotonic()))
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate(timeout=10)
            err = f"h2load overstayed its window by {OVERSTAY_S} s (killed); {err}"
    finally:
        STARTED.remove(proc)
    res = parse_h2load(out)
    res["cmd"] = " ".join(argv)
    res["cpu_s"] = (after - before) / CLK_TCK
    ok = res.get("succeeded", 0)
    if ok:
        res["rps"] = ok / opts.duration
        res["cpu_us_per_req"] = res["cpu_s"] * 1e6 / ok
    res["failures"] = sum(res.get(k, 0) for k in ("failed", "errored", "timeout", "non2xx"))
    if proc.returncode != 0 or not ok:
        res["failures"] = max(res["failures"], 1)
        res["error"] = f"h2load rc={proc.returncode}, {ok} succeeded: {(err or out).strip()[-300:]}"
    if log_file and os.path.exists(log_file):
        res.update(percentiles(log_file))
        os.remove(log_file)
    return res


def run_target(name, tls, cells, opts, port, record, tmp):
    server = Server(opts.java, opts.jvm_flags, name, port, tls, opts.keystore, opts.logdir)
    STARTED.append(server)
    done = []
    try:
        server.wait_ready(opts.ready_timeout)
        modes = sorted({c[0] for c in cells if c[1] is not None}) or (["h2"] if tls else ["h2c"])
        for mode in modes:
            ok, detail = check_body(port, mode)
            if not ok:
                raise RuntimeError(f"wrong answer over {mode}: {detail}")
        log(f"  {name} ({'tls' if tls else 'clear'}) pid {server.pid} port {port}: body ok over {', '.join(modes)}")
        load = [c for c in cells if c[1] is not None]
        warm = start_warmup(name, opts)
        if load and warm > 0:
            h2load(port, *load[0], warm, opts.h2load_threads)
            most = max(c for _, c, _ in load)
            if tls and most > load[0][1]:
                handshakes(port, most, opts.h2load_threads)
        elif warm > 0:  # an idle cell: its own start, a light warm-up (classes loaded, JIT past the handshake)
            h2load(port, modes[0], 16, 1, min(warm, 5), opts.h2load_threads)
        for cell in cells:
            done.append(cell)
            if cell[1] is None:
                res = idle_cell(opts.java, server, cell[0], opts.idle_connections, opts.ready_timeout + 60)
            else:
                res = measure_cell(server, cell, opts, tmp)
            record(name, cell, res)
    except Exception as e:  # noqa: BLE001 - a target that fails is reported, the run goes on
        log(f"  {name}: FAILED: {e}")
        for cell in cells:
            if cell not in done or cell == done[-1]:
                record(name, cell, {"error": str(e), "failures": 1})
    finally:
        server.stop()
        STARTED.remove(server)


def main_run(opts):
    for t in opts.targets:
        if t not in TARGETS:
            sys.exit(f"unknown target {t}; known: {', '.join(TARGETS)}")
    wanted = cell_filter(opts.cells)
    plan = {t: cells_for(t, wanted) for t in opts.targets}
    plan = {t: c for t, c in plan.items() if c}
    if not plan:
        sys.exit("no cells to run for these targets and --cells")
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d-%H%M%S")
    outdir = os.path.abspath(opts.out)
    opts.logdir = os.path.join(HERE, "results", "tmp", f"h2bench-{stamp}")  # git-ignored
    os.makedirs(opts.logdir, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="h2bench-")
    opts.keystore = make_keystore(opts.java, tmp)
    try:
        estimate(plan, opts)
        run_rounds(plan, opts, stamp, outdir, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run_rounds(plan, opts, stamp, outdir, tmp):
    rows = []
    rnd = 0

    def record(name, cell, res):
        res.update(target=name, cell=cell_id(cell), round=rnd)
        rows.append(res)
        if "bytes_per_conn" in res:
            log(f"    {name} {cell_id(cell)}: {res['bytes_per_conn']:.0f} B/conn ({res['alive']} alive)")
        elif "rps" in res:
            log(f"    {name} {cell_id(cell)}: {res['rps']:.0f} req/s, {res['cpu_us_per_req']:.1f} µs/req, "
                f"p99 {res.get('p99_ms', float('nan')):.2f} ms, failures {res['failures']}")
        else:
            log(f"    {name} {cell_id(cell)}: {res.get('error', 'no result')}")

    port = PORT_FIRST
    names = list(plan)
    for rnd in range(1, opts.rounds + 1):
        order = names[(rnd - 1) % len(names):] + names[:(rnd - 1) % len(names)]
        log(f"round {rnd}/{opts.rounds}: {' '.join(order)}")
        for name in order:
            for tls, cells in phases(plan[name]):
                run_target(name, tls, cells, opts, port, record, tmp)
                port = port + 1 if port < PORT_LAST else PORT_FIRST
    report(rows, plan, opts, stamp, outdir)


def start_warmup(name, opts):
    if opts.warmup is not None:
        return opts.warmup
    return 25 if TARGETS[name]["kind"] == "jersey" else 15


def phases(cells):
    """A target's cells in the server starts that run them: clear-text load, TLS load, then each idle cell alone
    (a fresh process, so that the load cells' leftovers do not blur its heap reading)."""
    out = []
    for tls in (False, True):
        load = [c for c in cells if c[1] is not None and is_tls(c[0]) == tls]
        if load:
            out.append((tls, load))
    out += [(is_tls(c[0]), [c]) for c in cells if c[1] is None]
    return out


def make_keystore(java, tmp):
    path, password = os.path.join(tmp, "h2bench.p12"), "h2bench"
    keytool = os.path.join(os.path.dirname(java), "keytool")
    r = run([keytool, "-genkeypair", "-alias", "localhost", "-keyalg", "EC", "-groupname", "secp256r1",
             "-sigalg", "SHA256withECDSA", "-dname", "CN=localhost", "-ext", "san=dns:localhost,ip:127.0.0.1",
             "-validity", "30", "-storetype", "PKCS12", "-keystore", path, "-storepass", password,
             "-keypass", password], 60)
    if r.returncode != 0:
        sys.exit("keytool failed: " + r.stderr)
    return path, password


def estimate(plan, opts):
    total = 0
    for name, cells in plan.items():
        warm = start_warmup(name, opts)
        load = sum(1 for c in cells if c[1] is not None)
        idle = len(cells) - load
        starts = len(phases(cells)) - idle
        total += starts * (warm + 4) + load * (opts.cell_warmup + opts.duration + 1) + idle * (min(warm, 5) + 20)
    total *= opts.rounds
    log(f"{sum(len(c) for c in plan.values())} cells on {len(plan)} targets x {opts.rounds} rounds: "
        f"about {total // 60} min {total % 60} s")


# ---------------------------------------------------------------------------------------------------------------
# the report

def med(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def fmt(v, nd=0):
    return "—" if v is None else f"{v:,.{nd}f}"


def kind(target):
    return TARGETS[target]["kind"]


LOAD_HEAD = ["| cell | target | req/s | CPU µs/req | p50 ms | p99 ms | failures | {} |",
             "|---|---|---|---|---|---|---|---|"]


def load_row(s, extra):
    return (f"| {s['cell']} | {s['target']} | {fmt(s['rps'])} | {fmt(s['cpu_us_per_req'], 1)} | "
            f"{fmt(s['p50_ms'], 2)} | {fmt(s['p99_ms'], 2)} | {flag(s)} | {extra} |")


def ratio(a, b):
    return "—" if a is None or not b else f"{a / b:.2f}"


def raw_tables(summary):
    """Raw targets, one table per mode; the last column is req/s over the best non-Fleche peer's in that cell."""
    md = []
    for mode, title in (("h2c", "Raw transports, clear-text HTTP/2 (h2c, prior knowledge)"),
                        ("h2", "Raw transports, HTTP/2 over TLS (ALPN h2)")):
        cells = [s for s in summary if kind(s["target"]) == "raw" and s["cell"].startswith(mode + "-")]
        if not cells:
            continue
        md += ["", f"## {title}", "", LOAD_HEAD[0].format("req/s ÷ best peer"), LOAD_HEAD[1]]
        for s in sorted(cells, key=lambda s: (cell_sort(s["cell"]), -(s["rps"] or 0))):
            peers = [p["rps"] for p in cells if p["cell"] == s["cell"] and not p["target"].startswith("fleche")
                     and p["rps"] and not p["failures"]]
            md.append(load_row(s, ratio(s["rps"], max(peers, default=None))))
    return md


def jersey_tables(summary):
    """Jersey targets, every mode in one table; the last column is req/s over the same target's h1 at the same -m
    (issue 25: Fleche + Jersey over h2 >= 0.9x its HTTP/1.1 figure)."""
    cells = [s for s in summary if kind(s["target"]) == "jersey" and not s["cell"].startswith("idle")]
    if not cells:
        return []
    md = ["", "## Jersey over HTTP/1.1 (h2load --h1, -m = pipelining depth), h2c and h2 (TLS)", "",
          LOAD_HEAD[0].format("÷ its h1 at this -m"), LOAD_HEAD[1]]
    order = {"h1": 0, "h2c": 1, "h2": 2}
    for s in sorted(cells, key=lambda s: (cell_sort(s["cell"])[1], s["target"], order[s["cell"].split("-")[0]])):
        mode, rest = s["cell"].split("-", 1)
        h1 = next((h["rps"] for h in cells if h["target"] == s["target"] and h["cell"] == "h1-" + rest), None)
        md.append(load_row(s, "—" if mode == "h1" else ratio(s["rps"], h1)))
    return md


def idle_table(summary):
    cells = [s for s in summary if s["cell"].startswith("idle")]
    if not cells:
        return []
    md = ["", "## Idle HTTP/2 connections (used heap after full GC, with minus without, per connection)", "",
          "| cell | target | heap B/conn | failures |", "|---|---|---|---|"]
    for s in sorted(cells, key=lambda s: (s["cell"], s["bytes_per_conn"] if s["bytes_per_conn"] is not None
                                          else float("inf"))):
        md.append(f"| {s['cell']} | {s['target']} | {fmt(s['bytes_per_conn'])} | {flag(s)} |")
    return md


def report(rows, plan, opts, stamp, outdir):
    git = run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], 10).stdout.strip()
    dirty = run(["git", "-C", ROOT, "status", "--porcelain"], 10).stdout.strip()
    jv = run([opts.java, "-version"], 30).stderr.strip().splitlines()
    head = {
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": f"{platform.node()} {platform.machine()} {os.cpu_count()} CPUs, "
                   f"{cpu_model()}, load average {os.getloadavg()[0]:.2f}",
        "jdk": jv[0] if jv else opts.java,
        "java": opts.java,
        "jvm_flags": " ".join(opts.jvm_flags),
        "commit": git + (" (dirty)" if dirty else ""),
        "command": opts.command,
        "h2load": run(["h2load", "--version"], 10).stdout.strip(),
        "rounds": opts.rounds, "duration_s": opts.duration, "warmup_s": opts.warmup,
        "cell_warmup_s": opts.cell_warmup, "idle_connections": opts.idle_connections,
    }
    summary = []
    keys = []
    for r in rows:
        k = (r["cell"], r["target"])
        if k not in keys:
            keys.append(k)
    for cell, target in keys:
        rs = [r for r in rows if r["cell"] == cell and r["target"] == target]
        summary.append({
            "cell": cell, "target": target, "rounds": len(rs),
            "rps": med(r.get("rps") for r in rs),
            "cpu_us_per_req": med(r.get("cpu_us_per_req") for r in rs),
            "p50_ms": med(r.get("p50_ms") for r in rs),
            "p99_ms": med(r.get("p99_ms") for r in rs),
            "bytes_per_conn": med(r.get("bytes_per_conn") for r in rs),
            "failures": sum(r.get("failures", 0) for r in rs),
            "errors": sorted({r["error"] for r in rs if r.get("error")}),
        })
    base = os.path.join(outdir, f"h2bench-{stamp}")
    with open(base + ".json", "w") as f:
        json.dump({"header": head, "targets": {t: TARGETS[t]["note"] for t in plan}, "summary": summary,
                   "runs": rows}, f, indent=1)
    md = [f"# HTTP/2 benchmark {head['date']}", ""]
    for k in ("machine", "jdk", "jvm_flags", "commit", "command", "h2load"):
        md.append(f"- {k}: `{head[k]}`")
    md.append(f"- rounds {opts.rounds} (target order rotated), {opts.duration} s measured per cell after a "
              f"{opts.cell_warmup} s cell warm-up; start warm-up "
              f"{'%s s' % opts.warmup if opts.warmup is not None else '15 s raw, 25 s Jersey'}; medians across rounds")
    md.append("- CPU µs/req = server utime+stime over the measured h2load run / succeeded requests; p50/p99 from "
              "h2load's per-request log; failures = failed + errored + timeout + non-2xx, summed over rounds "
              "(**FLAG** when > 0)")
    md += ["", "Targets:", ""] + [f"- `{t}`: {TARGETS[t]['note']}" for t in plan]
    md += raw_tables(summary) + jersey_tables(summary) + idle_table(summary)
    errs = [s for s in summary if s["errors"]]
    if errs:
        md += ["", "## Errors", ""] + [f"- {s['target']} {s['cell']}: {'; '.join(s['errors'])}" for s in errs]
    logs = os.path.relpath(opts.logdir, HERE)
    md += ["", f"Raw numbers: `{os.path.basename(base)}.json`; server logs: `perf/{logs}`."]
    with open(base + ".md", "w") as f:
        f.write("\n".join(md) + "\n")
    log(f"report: {base}.md and .json")
    if any(s["failures"] for s in summary):
        log("some cells had failures (flagged in the report)")


def cell_sort(cell):
    m = re.match(r"(\w+)-c(\d+)-m(\d+)", cell)
    return (m.group(1), int(m.group(3)), int(m.group(2))) if m else (cell, 0, 0)


def flag(s):
    return f"**FLAG {s['failures']}**" if s["failures"] else "0"


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            m = re.search(r"model name\s*:\s*(.*)", f.read())
        return m.group(1).strip() if m else "?"
    except OSError:
        return "?"


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "idle-client":
        p = argparse.ArgumentParser(prog="h2bench.py idle-client")
        p.add_argument("--port", type=int, required=True)
        p.add_argument("--connections", type=int, default=1000)
        p.add_argument("--timeout", type=float, default=60)
        p.add_argument("--tls", action="store_true")
        a = p.parse_args(sys.argv[2:])
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        sys.exit(idle_client(a))
    p = argparse.ArgumentParser(prog="h2bench.sh", description="HTTP/2 benchmark (see perf/README.md)")
    p.add_argument("--java", required=True)
    p.add_argument("--targets", default=",".join(TARGETS))
    p.add_argument("--cells", default="all",
                   help="comma-separated: all | load | idle | a mode (h2c, h2, h1) | a prefix such as h2c-c16 | "
                        "an id such as h2-c256-m100 or idle-h2c")
    p.add_argument("--duration", type=int, default=10)
    p.add_argument("--warmup", type=int, default=None, help="start warm-up s (default 15 raw, 25 Jersey)")
    p.add_argument("--cell-warmup", type=int, default=3)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--h2load-threads", type=int, default=2)
    p.add_argument("--idle-connections", type=int, default=1000)
    p.add_argument("--ready-timeout", type=int, default=60)
    p.add_argument("--out", default=os.path.join(HERE, "results"), help="report folder (default perf/results)")
    p.add_argument("--no-latency-log", dest="latency_log", action="store_false")
    p.add_argument("--command", default=" ".join(sys.argv))
    opts = p.parse_args()
    opts.targets = [t.strip() for t in opts.targets.split(",") if t.strip()]
    opts.jvm_flags = ["-Xms512m", "-Xmx512m"]
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda *_: (cleanup(), sys.exit(130)))
    try:
        main_run(opts)
    finally:
        cleanup()


if __name__ == "__main__":
    main()
