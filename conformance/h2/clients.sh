#!/usr/bin/env bash
# Installs the real HTTP/2 clients the tests use, from Debian, when missing, and prints their versions:
#   curl (built with HTTP/2: --http2, --http2-prior-knowledge), nghttp and h2load (nghttp2-client),
#   python3-h2 (hyper-h2 for Debian's /usr/bin/python3; a python3 earlier on PATH may not see it).
# Exits non-zero when one of them is still missing or curl lacks HTTP/2.
set -euo pipefail

PY=/usr/bin/python3
missing=()
command -v curl >/dev/null || missing+=(curl)
command -v nghttp >/dev/null && command -v h2load >/dev/null || missing+=(nghttp2-client)
[[ -x "$PY" ]] && "$PY" -c 'import h2' 2>/dev/null || missing+=(python3-h2)
if ((${#missing[@]})); then
    echo "installing ${missing[*]}"
    if [[ $(id -u) -eq 0 ]]; then SUDO=; else SUDO=sudo; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

status=0
echo "curl:       $(curl --version | head -1)"
if ! curl --version | grep -q '^Features:.* HTTP2'; then
    echo "curl has no HTTP/2 support" >&2
    status=1
fi
echo "nghttp:     $(nghttp --version)"
echo "h2load:     $(h2load --version)"
echo "python3-h2: $("$PY" -c 'import h2, hpack, sys; print("h2", h2.__version__, "hpack", hpack.__version__, "on python", sys.version.split()[0])')"
exit $status
