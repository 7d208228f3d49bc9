#!/usr/bin/env bash
# CI stage (issue 39): real senders in front of Fleche, each a JUnit test that CI must not skip.
#   - HAProxy (Debian's package) with send-proxy-v2 in front of plain, TLS and HAProxy-terminated TLS listeners,
#     curl as the client (transport-nio: HaproxyTest)
#   - nginx (Debian's package) as a reverse proxy to a Jersey application on a Unix domain socket
#     (jaxrs-bridge: NginxUnixSocketTest)
# Installs haproxy, nginx and curl with apt-get when missing, runs both tests with -Dfleche.requireRealProxies=true
# (a missing tool then fails them instead of skipping), and checks their reports: each ran, none skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
  echo "REAL PROXIES FAILED: $*" >&2
  exit 1
}

missing=()
for tool in haproxy nginx curl; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
    || fail "${missing[*]} missing and apt-get is not available to install them"
  echo "== installing ${missing[*]} (apt-get)"
  apt-get update -q >/dev/null
  # the packages' own services are not wanted: policy-rc.d 101 keeps their postinst from starting them
  policy=/usr/sbin/policy-rc.d
  had_policy=0
  [ -e "$policy" ] && had_policy=1
  if [ $had_policy = 0 ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy"
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null || install_failed=1
  [ $had_policy = 0 ] && rm -f "$policy"
  [ -z "${install_failed:-}" ] || fail "apt-get install ${missing[*]} failed"
fi
echo "   $(haproxy -v | head -1)"
echo "   $(nginx -v 2>&1)"
echo "   $(curl --version | head -1)"

mvn -B -q -pl transport-nio,jaxrs-bridge -am test -Dtest=HaproxyTest,NginxUnixSocketTest \
  -Dsurefire.failIfNoSpecifiedTests=false -Dfleche.requireRealProxies=true \
  || fail "a real-proxy test failed (transport-nio and jaxrs-bridge target/surefire-reports)"

for report in transport-nio/target/surefire-reports/TEST-dev.fleche.transport.HaproxyTest.xml \
              jaxrs-bridge/target/surefire-reports/TEST-dev.fleche.jersey.NginxUnixSocketTest.xml; do
  [ -f "$report" ] || fail "no report $report: the test did not run"
  head -5 "$report" | grep -q 'tests="[1-9]' || fail "$report: no test ran"
  head -5 "$report" | grep -q 'skipped="0"' || fail "$report: a test was skipped"
  head -5 "$report" | grep -q 'failures="0"' || fail "$report: a test failed"
  head -5 "$report" | grep -q 'errors="0"' || fail "$report: a test erred"
  echo "   ok: $(basename "$report" .xml | sed 's/^TEST-//')"
done
