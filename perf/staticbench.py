#!/usr/bin/env python3
"""Static files and uploads benchmark behind perf/staticbench.sh (issue 38). Run it through the script, which builds.

Static targets (Fleche's StaticContent, Grizzly's StaticHttpHandler, Jetty 12's ResourceHandler, nginx) serve the
same directory at /files/: a 1 KiB, a 1 MiB and a 1 GiB file (random bytes, made once). For each round (target order
rotated every round), for each target: one process over clear text (HTTP/1.1), one over TLS (ALPN h2 and
http/1.1); each file checked once with curl; then every cell measured, sampling the server's CPU (utime+stime from
/proc/PID/stat, nginx: master and workers) around it:

  1k-*, 1m-*   h2load -D (after --warmup s of the same load): requests/s and MiB/s, CPU us/request and s/GiB
  1g-*         one curl download after --big-warmup unmeasured ones (JIT): MiB/s, CPU s/GiB
  modes        h1 (clear text), h1-tls (--h1 over TLS), h2 (TLS, ALPN)

Upload targets (Fleche + Jersey, Jersey on Grizzly; the shared BenchApplication's POST /upload, an InputStream read
to its end) get --big-bytes (1 GiB) with curl -T, -Xms64m -Xmx64m: up-h1 (Content-Length), up-h1-chunked, up-h1-tls,
up-h2 (TLS; Grizzly with its HTTP/2 add-on). Medians over rounds go to results/staticbench-<UTC>.{md,json}, with each
Fleche figure's ratio to the best peer. Only processes this script started are stopped, by PID; every wait is
bounded.
"""
import argparse
import hashlib
import json
import os
import platform
import re
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PEERS = os.path.join(HERE, "peers")
FLECHE_JAR = os.path.join(HERE, "target", "fleche-perf.jar")
CLK_TCK = os.sysconf("SC_CLK_TCK")
PASSWORD = "changeit"
STATIC_TARGETS = ["fleche", "grizzly", "jetty", "nginx"]
UPLOAD_TARGETS = ["fleche-jersey", "jersey-grizzly"]
MODES = ["h1", "h1-tls", "h2"]
UPLOAD_CELLS = ["up-h1", "up-h1-chunked", "up-h1-tls", "up-h2"]


def log(message):
    print("[staticbench %s] %s" % (datetime.now(timezone.utc).strftime("%H:%M:%S"), message), flush=True)


def parse_bytes(text):
    m = re.fullmatch(r"(\d+)([kmg]?)", text.lower())
    if not m:
        raise argparse.ArgumentTypeError("a size such as 1g, 64m, 512k: " + text)
    return int(m.group(1)) << {"": 0, "k": 10, "m": 20, "g": 30}[m.group(2)]


# ------------------------------------------------------------------------------------------------ processes and CPU

def cpu_seconds(pid):
    """utime+stime of pid and of its children processes (nginx's workers), in seconds."""
    total = 0
    pids = [pid] + children(pid)
    for p in pids:
        try:
            with open("/proc/%d/stat" % p) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return total / CLK_TCK


def children(pid):
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open("/proc/%s/stat" % entry) as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return found


def box_cpu():
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    return sum(values) - values[3] - values[4], sum(values)  # busy, all (jiffies)


def free_port(first, last):
    for port in range(first, last + 1):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
                return port
            except OSError:
                continue
    raise RuntimeError("no free port in %d-%d" % (first, last))


def wait_listening(port, process, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("the server ended (exit %s)" % process.returncode)
        with socket.socket() as s:
            s.settimeout(0.5)
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError("not listening on %d within %d s" % (port, timeout))


def stop(process):
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


# ------------------------------------------------------------------------------------------------ setup

def make_files(directory, big):
    os.makedirs(directory, exist_ok=True)
    files = {"1k": 1024, "1m": 1 << 20, "1g": big}
    for name, size in files.items():
        path = os.path.join(directory, name + ".bin")
        if not os.path.exists(path) or os.path.getsize(path) != size:
            log("making %s (%d bytes of random data)" % (path, size))
            with open(path, "wb") as out:
                left = size
                while left > 0:
                    chunk = min(left, 4 << 20)
                    out.write(os.urandom(chunk))
                    left -= chunk
    return files


def make_keys(work):
    key, cert, store = (os.path.join(work, n) for n in ("key.pem", "cert.pem", "server.p12"))
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], check=True, capture_output=True)
    subprocess.run(["openssl", "pkcs12", "-export", "-in", cert, "-inkey", key, "-out", store, "-name", "server",
                    "-passout", "pass:" + PASSWORD], check=True, capture_output=True)
    return key, cert, store


def nginx_version():
    out = subprocess.run(["nginx", "-v"], capture_output=True, text=True).stderr
    m = re.search(r"nginx/(\d+)\.(\d+)", out)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def nginx_conf(work, port, tls, files_dir, keys):
    prefix = os.path.join(work, "nginx-%d" % port)
    os.makedirs(os.path.join(prefix, "logs"), exist_ok=True)
    modern = nginx_version() >= (1, 25)
    listen = "listen 127.0.0.1:%d%s;" % (port, (" ssl" if modern else " ssl http2") if tls else "")
    extra = ""
    if tls:
        extra = "ssl_certificate %s; ssl_certificate_key %s; %s" % (keys[1], keys[0], "http2 on;" if modern else "")
    conf = """
worker_processes auto;
daemon off;
pid %(prefix)s/nginx.pid;
error_log %(prefix)s/logs/error.log warn;
events { worker_connections 8192; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    default_type application/octet-stream;
    client_body_temp_path %(prefix)s/body; proxy_temp_path %(prefix)s/proxy; fastcgi_temp_path %(prefix)s/fcgi;
    uwsgi_temp_path %(prefix)s/uwsgi; scgi_temp_path %(prefix)s/scgi;
    server {
        %(listen)s
        %(extra)s
        location /files/ { alias %(dir)s/; }
    }
}
""" % {"prefix": prefix, "listen": listen, "extra": extra, "dir": files_dir}
    path = os.path.join(prefix, "nginx.conf")
    with open(path, "w") as f:
        f.write(conf)
    return ["nginx", "-p", prefix, "-c", path]


def command(target, port, tls, args, files_dir, keys):
    java = [args.java] + args.flags.split()
    tls_args = ["--tls", keys[2], PASSWORD] if tls else []
    if target == "fleche":
        return java + ["-cp", FLECHE_JAR, "dev.fleche.perf.fleche.FlecheStaticPeer", str(port), "--dir",
                       files_dir] + tls_args
    if target in ("fleche-alt", "fleche-alt2"):  # other builds' perf jars, to compare builds in one run (rotated)
        return java + ["-cp", os.environ[target.upper().replace("-", "_") + "_JAR"], "dev.fleche.perf.fleche.FlecheStaticPeer", str(port),
                       "--dir", files_dir] + tls_args
    if target in ("grizzly", "jetty"):
        jar = os.path.join(PEERS, target + "-static", "target", target + "-static-peer.jar")
        return java + ["-jar", jar, str(port), "--dir", files_dir] + tls_args
    if target == "nginx":
        return nginx_conf(args.work, port, tls, files_dir, keys)
    upload_java = [args.java] + args.upload_flags.split()
    if target == "fleche-jersey":
        return upload_java + ["-cp", FLECHE_JAR, "dev.fleche.perf.fleche.FlecheJerseyPeer", str(port)] + tls_args
    if target == "jersey-grizzly":
        jar = os.path.join(PEERS, "jersey-grizzly", "target", "jersey-grizzly-peer.jar")
        return upload_java + ["-jar", jar, str(port)] + tls_args + (["--h2"] if tls else [])
    raise ValueError(target)


def pinned(cmd, cpus):
    return ["taskset", "-c", cpus] + cmd if cpus else cmd


# ------------------------------------------------------------------------------------------------ cells

def url(port, tls, path):
    return "%s://127.0.0.1:%d%s" % ("https" if tls else "http", port, path)


def run_h2load(args, port, mode, name, connections, streams, duration, warmup, server_pid):
    tls = mode != "h1"
    cmd = ["h2load", "-c", str(connections), "-m", str(streams), "-t", str(args.h2load_threads), "-D", str(duration),
           "--warm-up-time", str(warmup)]
    if mode != "h2":
        cmd.append("--h1")
    cmd.append(url(port, tls, "/files/%s.bin" % name))
    cmd = pinned(cmd, args.generator_cpus)
    process = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    # h2load's measured window opens after its warm-up: read the server's CPU then and when it ends.
    time.sleep(warmup)
    cpu0, box0, t0 = cpu_seconds(server_pid), box_cpu(), time.monotonic()
    out, _ = process.communicate(timeout=duration + warmup + 60)
    cpu1, box1, t1 = cpu_seconds(server_pid), box_cpu(), time.monotonic()
    done = re.search(r"requests: \d+ total, \d+ started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored",
                     out)
    traffic = re.search(r"traffic: [\d.]+\w* \((\d+)\) total", out)
    if not done or not traffic:
        raise RuntimeError("h2load said: " + out[-800:])
    ok, failed = int(done.group(2)), int(done.group(3)) + int(done.group(4))
    status = re.search(r"status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx", out)
    bad = sum(int(x) for x in status.groups()[1:]) if status else 0
    cpu = cpu1 - cpu0
    return {"requests": ok, "failed": failed + bad, "seconds": duration, "bytes": int(traffic.group(1)),
            "req_s": ok / duration, "mib_s": int(traffic.group(1)) / duration / (1 << 20),
            "cpu_us_req": cpu / ok * 1e6 if ok else None,
            "cpu_s_gib": cpu / (int(traffic.group(1)) / (1 << 30)) if ok else None,
            "other_load": other_load(box0, box1, cpu, t1 - t0), "command": " ".join(cmd)}


def other_load(box0, box1, server_cpu, seconds):
    busy = (box1[0] - box0[0]) / CLK_TCK
    cpus = os.cpu_count() or 1
    return max(0.0, (busy - server_cpu) / (seconds * cpus) * 100) if seconds > 0 else None


def run_curl(args, cmd, expect_bytes, server_pid, timeout, check_body=None, moved=None):
    """One curl transfer; expect_bytes: what curl must count (None: not checked); moved: the body's bytes."""
    cmd = pinned(cmd, args.generator_cpus)
    usage0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu0, box0, t0 = cpu_seconds(server_pid), box_cpu(), time.monotonic()
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    cpu1, box1, t1 = cpu_seconds(server_pid), box_cpu(), time.monotonic()
    usage1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    fields = result.stdout.strip().split()
    if result.returncode != 0 or len(fields) < 3:
        raise RuntimeError("curl failed (%d): %s %s" % (result.returncode, result.stdout[-300:], result.stderr[-300:]))
    status, size, seconds = int(fields[0]), int(fields[1]), float(fields[2])
    if status != 200 or (expect_bytes is not None and size != expect_bytes):
        raise RuntimeError("curl got %d with %d bytes (expected %s)" % (status, size, expect_bytes))
    if check_body is not None:
        check_body()
    cpu = cpu1 - cpu0
    client = (usage1.ru_utime + usage1.ru_stime) - (usage0.ru_utime + usage0.ru_stime)
    moved = moved if moved is not None else expect_bytes
    return {"seconds": seconds, "bytes": moved, "mib_s": moved / seconds / (1 << 20),
            "cpu_s_gib": cpu / (moved / (1 << 30)), "client_cpu_s": client, "version": fields[3] if len(fields) > 3
            else "", "other_load": other_load(box0, box1, cpu + client, t1 - t0), "command": " ".join(cmd)}


def download(args, port, mode, files, server_pid):
    tls = mode != "h1"
    cmd = ["curl", "-s", "-k", "-o", "/dev/null", "--max-time", str(args.transfer_timeout),
           "-w", "%{http_code} %{size_download} %{time_total} %{http_version}",
           "--http2" if mode == "h2" else "--http1.1", url(port, tls, "/files/1g.bin")]
    for _ in range(args.big_warmup):  # the same download, not measured: the servers on the JVM compile its path
        run_curl(args, cmd, files["1g"], server_pid, args.transfer_timeout + 30)
    row = run_curl(args, cmd, files["1g"], server_pid, args.transfer_timeout + 30)
    expected = "2" if mode == "h2" else "1.1"
    if row["version"] != expected:
        raise RuntimeError("curl spoke HTTP/%s, not %s" % (row["version"], expected))
    return row


def upload(args, port, cell, big_file, server_pid):
    tls = cell in ("up-h1-tls", "up-h2")
    out = os.path.join(args.work, "upload-answer.txt")
    cmd = ["curl", "-s", "-k", "-o", out, "--max-time", str(args.transfer_timeout), "-X", "POST",
           "-H", "Content-Type: application/octet-stream", "-T", big_file,
           "-w", "%{http_code} %{size_upload} %{time_total} %{http_version}",
           "--http2" if cell == "up-h2" else "--http1.1", url(port, tls, "/upload")]
    if cell == "up-h1-chunked":
        cmd[cmd.index("-T"):cmd.index("-T")] = ["-H", "Transfer-Encoding: chunked"]
    size = os.path.getsize(big_file)

    def answered():
        with open(out) as f:
            text = f.read().strip()
        if text != str(size):
            raise RuntimeError("the server counted %r bytes of %d" % (text, size))

    # curl's size_upload counts a chunked body's framing too: the server's own count is the check
    row = run_curl(args, cmd, None if cell == "up-h1-chunked" else size, server_pid, args.transfer_timeout + 30,
                   answered, moved=size)
    expected = "2" if cell == "up-h2" else "1.1"
    if row["version"] != expected:
        raise RuntimeError("curl spoke HTTP/%s, not %s" % (row["version"], expected))
    return row


def check_files(port, tls, files, digests):
    for name in ("1k", "1m"):
        for proto in (["--http1.1"] + (["--http2"] if tls else [])):
            result = subprocess.run(["curl", "-s", "-k", proto, "--max-time", "20", url(port, tls,
                                                                                         "/files/%s.bin" % name)],
                                    capture_output=True, timeout=30)
            if hashlib.sha256(result.stdout).hexdigest() != digests[name]:
                raise RuntimeError("/files/%s.bin over %s is not the file" % (name, proto))


# ------------------------------------------------------------------------------------------------ the run

def serve(args, target, tls, files_dir, keys, work_rows, round_no, files, digests):
    port = free_port(args.port_first, args.port_last)
    cmd = pinned(command(target, port, tls, args, files_dir, keys), args.server_cpus)
    logfile = open(os.path.join(args.logs, "%s-%s-r%d.log" % (target, "tls" if tls else "plain", round_no)), "w")
    process = subprocess.Popen(cmd, stdout=logfile, stderr=subprocess.STDOUT, cwd=ROOT)
    try:
        wait_listening(port, process, args.ready_timeout)
        pid = process.pid
        if target in UPLOAD_TARGETS:
            cells = [c for c in args.upload_cells if (c in ("up-h1-tls", "up-h2")) == tls]
            for cell in cells:
                log("round %d %s %s" % (round_no, target, cell))
                record(work_rows, target, cell, round_no, lambda: upload(args, port, cell, args.upload_file, pid))
            return
        check_files(port, tls, files, digests)
        modes = [m for m in args.modes if (m != "h1") == tls]
        for mode in modes:
            for size in args.sizes:
                cell = "%s-%s" % (size, mode)
                log("round %d %s %s" % (round_no, target, cell))
                if size == "1g":
                    record(work_rows, target, cell, round_no, lambda: download(args, port, mode, files, pid))
                else:
                    c, m = (args.connections, 1 if mode != "h2" else args.streams) if size == "1k" \
                        else (args.big_connections, 1)
                    record(work_rows, target, cell, round_no, lambda: run_h2load(
                        args, port, mode, size, c, m, args.duration, args.warmup, pid))
    except Exception as e:  # the target failed to start: every cell of it is an error this round
        work_rows.append({"target": target, "cell": "(start %s)" % ("tls" if tls else "plain"), "round": round_no,
                          "error": str(e)})
        log("error: %s %s: %s" % (target, "tls" if tls else "plain", e))
    finally:
        stop(process)
        logfile.close()


def record(rows, target, cell, round_no, measure):
    try:
        row = measure()
    except Exception as e:
        row = {"error": str(e)}
        log("error: %s %s: %s" % (target, cell, e))
    row.update({"target": target, "cell": cell, "round": round_no})
    rows.append(row)


def medians(rows):
    table = {}
    for row in rows:
        if "error" in row:
            continue
        table.setdefault((row["target"], row["cell"]), []).append(row)
    out = {}
    for key, runs in table.items():
        summary = {"rounds": len(runs), "errors": sum(r.get("failed", 0) for r in runs)}
        for field in ("req_s", "mib_s", "cpu_us_req", "cpu_s_gib", "other_load"):
            values = [r[field] for r in runs if r.get(field) is not None]
            summary[field] = statistics.median(values) if values else None
        out[key] = summary
    return out


def markdown(args, rows, med, started):
    lines = ["# Static files and uploads (perf/staticbench.sh, issue 38)", "",
             "- started %s UTC, %s, %d CPUs, load average at end %s" % (started, platform.processor() or
                                                                           platform.machine(), os.cpu_count(),
                                                                           os.getloadavg()),
             "- command: `%s`" % args.original_command,
             "- java: `%s`, static targets `%s`, upload targets `%s`" % (args.java, args.flags, args.upload_flags),
             "- h2load: `%s`, curl: `%s`" % (tool_version(["h2load", "--version"]), tool_version(["curl", "--version"])),
             "- nginx: `%s`" % tool_version(["nginx", "-v"]), ""]
    errors = [r for r in rows if "error" in r]
    cells = []
    for size in args.sizes:
        for mode in args.modes:
            cells.append("%s-%s" % (size, mode))
    peers = [t for t in args.targets if t != "fleche"]
    lines += ["## Static files", "",
              "Medians over rounds; `÷ best` is Fleche's figure over the best peer's (req/s, MiB/s: higher is "
              "better; CPU: lower is better). CPU per request (1 KiB) and per GiB (1 MiB, 1 GiB) is the server's "
              "utime+stime in the window. `other %` is the box's CPU used by neither the server nor the client: "
              "above a few % the round was not quiet.", "",
              "| cell | target | req/s | MiB/s | CPU µs/req | CPU s/GiB | other % | rounds | failed |",
              "|---|---|---|---|---|---|---|---|---|"]
    for cell in cells:
        for target in args.targets:
            m = med.get((target, cell))
            if not m:
                lines.append("| %s | %s | error | | | | | 0 | |" % (cell, target))
                continue
            lines.append("| %s | %s | %s | %s | %s | %s | %s | %d | %s |" % (
                cell, "**%s**" % target if target == "fleche" else target, fmt(m["req_s"], 0), fmt(m["mib_s"], 1),
                fmt(m["cpu_us_req"], 1), fmt(m["cpu_s_gib"], 3), fmt(m["other_load"], 1), m["rounds"],
                "FLAG %d" % m["errors"] if m["errors"] else "0"))
        lines.append(ratio_line(med, cell, "fleche", peers))
    if args.upload_targets:
        lines += ["", "## Uploads (POST /upload, an InputStream read to its end; -Xms64m -Xmx64m)", "",
                  "| cell | target | MiB/s | CPU s/GiB | client CPU s | other % | rounds |", "|---|---|---|---|---|---|---|"]
        for cell in args.upload_cells:
            for target in args.upload_targets:
                m = med.get((target, cell))
                runs = [r for r in rows if r["target"] == target and r["cell"] == cell and "error" not in r]
                client = statistics.median([r["client_cpu_s"] for r in runs]) if runs else None
                lines.append("| %s | %s | %s | %s | %s | %s | %d |" % (
                    cell, target, fmt(m and m["mib_s"], 1), fmt(m and m["cpu_s_gib"], 3), fmt(client, 2),
                    fmt(m and m["other_load"], 1), m["rounds"] if m else 0))
            lines.append(ratio_line(med, cell, "fleche-jersey", ["jersey-grizzly"]))
    if errors:
        lines += ["", "## Errors", ""] + ["- round %s %s %s: %s" % (e["round"], e["target"], e["cell"], e["error"])
                                         for e in errors]
    return "\n".join(lines) + "\n"


def ratio_line(med, cell, ours, peers):
    m = med.get((ours, cell))
    parts = []
    for field, higher in (("req_s", True), ("mib_s", True), ("cpu_us_req", False), ("cpu_s_gib", False)):
        values = [med[(p, cell)][field] for p in peers if (p, cell) in med and med[(p, cell)][field]]
        if not m or not m[field] or not values:
            continue
        best = max(values) if higher else min(values)
        parts.append("%s %.2f" % (field, m[field] / best))
    return "| %s | ÷ best | %s | | | | | | |" % (cell, ", ".join(parts) or "—")


def fmt(value, digits):
    return "" if value is None else ("{:,.%df}" % digits).format(value)


def tool_version(cmd):
    try:
        result = subprocess.run(cmd, capture_output=True, text=True, timeout=10)
        return (result.stdout or result.stderr).strip().splitlines()[0]
    except (OSError, IndexError, subprocess.TimeoutExpired):
        return "missing"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--java", default=shutil.which("java"))
    parser.add_argument("--flags", default="-Xms512m -Xmx512m")
    parser.add_argument("--upload-flags", default="-Xms64m -Xmx64m")
    parser.add_argument("--targets", default=",".join(STATIC_TARGETS))
    parser.add_argument("--upload-targets", default=",".join(UPLOAD_TARGETS), help="empty: no upload cells")
    parser.add_argument("--upload-cells", default=",".join(UPLOAD_CELLS))
    parser.add_argument("--sizes", default="1k,1m,1g")
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--connections", type=int, default=16, help="1 KiB cells")
    parser.add_argument("--streams", type=int, default=10, help="1 KiB h2 cells: streams per connection")
    parser.add_argument("--big-connections", type=int, default=4, help="1 MiB cells")
    parser.add_argument("--h2load-threads", type=int, default=1)
    parser.add_argument("--big", type=parse_bytes, default=1 << 30, help="the big file and upload (1g)")
    parser.add_argument("--big-warmup", type=int, default=2, help="1g cells: unmeasured downloads before the one")
    parser.add_argument("--files", default=os.path.join(tempfile.gettempdir(), "fleche-staticbench-files"))
    parser.add_argument("--pin", default="", help="S:W, taskset CPUs of the servers and of the clients")
    parser.add_argument("--port-first", type=int, default=19200)
    parser.add_argument("--port-last", type=int, default=19299)
    parser.add_argument("--ready-timeout", type=int, default=60)
    parser.add_argument("--transfer-timeout", type=int, default=600)
    parser.add_argument("--out", default=os.path.join(HERE, "results"))
    parser.add_argument("--original-command", default=" ".join(sys.argv))
    args = parser.parse_args()
    args.targets = [t for t in args.targets.split(",") if t]
    args.upload_targets = [t for t in args.upload_targets.split(",") if t]
    args.upload_cells = [c for c in args.upload_cells.split(",") if c]
    args.sizes = [s for s in args.sizes.split(",") if s]
    args.modes = [m for m in args.modes.split(",") if m]
    args.server_cpus, args.generator_cpus = (args.pin.split(":") + [""])[:2] if args.pin else ("", "")
    started = datetime.now(timezone.utc)
    stamp = started.strftime("%Y-%m-%d-%H%M%S")
    os.makedirs(args.out, exist_ok=True)
    args.logs = os.path.join(args.out, "tmp", "staticbench-" + stamp)
    os.makedirs(args.logs, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="staticbench-") as work:
        args.work = work
        files = make_files(args.files, args.big)
        digests = {}
        for name in ("1k", "1m"):
            with open(os.path.join(args.files, name + ".bin"), "rb") as f:
                digests[name] = hashlib.sha256(f.read()).hexdigest()
        args.upload_file = os.path.join(args.files, "1g.bin")
        keys = make_keys(work)
        rows = []
        order = list(args.targets)
        uploads = list(args.upload_targets)
        for round_no in range(1, args.rounds + 1):
            for target in order:
                for tls in (False, True):
                    if any((m != "h1") == tls for m in args.modes):
                        serve(args, target, tls, os.path.abspath(args.files), keys, rows, round_no, files, digests)
            for target in uploads:
                for tls in (False, True):
                    if any((c in ("up-h1-tls", "up-h2")) == tls for c in args.upload_cells):
                        serve(args, target, tls, os.path.abspath(args.files), keys, rows, round_no, files, digests)
            order = order[1:] + order[:1]
            uploads = uploads[1:] + uploads[:1]
    med = medians(rows)
    report = markdown(args, rows, med, started.strftime("%Y-%m-%d %H:%M:%S"))
    base = os.path.join(args.out, "staticbench-" + stamp)
    with open(base + ".md", "w") as f:
        f.write(report)
    with open(base + ".json", "w") as f:
        json.dump({"args": {k: v for k, v in vars(args).items() if isinstance(v, (str, int, list))}, "rows": rows,
                   "medians": [dict(target=k[0], cell=k[1], **v) for k, v in med.items()]}, f, indent=1)
    print(report)
    log("wrote %s.md and .json" % base)
    return 3 if any("error" in r for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
