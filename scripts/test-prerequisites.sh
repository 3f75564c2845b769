#!/usr/bin/env bash
# What the test suite runs besides Node and the npm packages, checked before anything runs
# (scripts/test.sh calls this first). As root on Debian the missing packages are installed
# with apt-get; anywhere else they are named and npm test stops, so a missing program is one
# clear line instead of a few hundred failing tests. Debian package names, and why:
#   chromium        the browser tests (playwright-core drives it; e2e/test/support/chromium.ts)
#   openssl         the TLS tests make a throw-away CA with the openssl command
#   poppler-utils   the PDF tests read text and render pages (pdftotext, pdftoppm, pdfinfo)
#   redis-server    the gateway's limits in Redis: the store-dependent gateway tests, the replica
#                   and Redis-failure tests start their own redis-server and ask it with redis-cli
#   haproxy         the cluster test puts haproxy in front of two ledgers and two gateways
#   docker-compose  checks docker-compose.yml (`config`; no container engine is needed)
#   hledger         the tie-out test balances the books in an independent accounting engine and
#                   compares its balances with the ledger's reports (reports/hledger.test.ts)
# CHROMIUM_PATH names another browser instead of the chromium command.
# Then Postgres and Redis must answer (the suite uses them, it does not start them); with
# --programs only the programs are checked (.ci/run, before it starts Redis).
set -u

have() { command -v "$1" >/dev/null 2>&1; }

missing() {
  local need=()
  if [ -z "${CHROMIUM_PATH:-}" ]; then
    have chromium || need+=(chromium)
  fi
  have openssl || need+=(openssl)
  { have pdftotext && have pdftoppm && have pdfinfo; } || need+=(poppler-utils)
  { have redis-server && have redis-cli; } || need+=(redis-server)
  have haproxy || need+=(haproxy)
  have docker-compose || need+=(docker-compose)
  have hledger || need+=(hledger)
  echo "${need[*]}"
}

if [ -n "${CHROMIUM_PATH:-}" ] && [ ! -x "${CHROMIUM_PATH}" ]; then
  echo "npm test: CHROMIUM_PATH=${CHROMIUM_PATH} is not an executable file" >&2
  exit 1
fi

need=$(missing)
if [ -n "$need" ] && [ "${EUID}" -eq 0 ] && [ -f /etc/debian_version ] && have apt-get; then
  echo "npm test: installing ${need} (apt-get)"
  # without recommends: docker-compose would bring a whole container engine the tests never start
  # shellcheck disable=SC2086 # one word per package
  if ! { apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${need}; } >/dev/null 2>&1; then
    echo "npm test: apt-get could not install ${need}" >&2
  fi
  need=$(missing)
fi
if [ -n "$need" ]; then
  echo "npm test needs programs that are not installed: ${need// /, } (Debian packages)." >&2
  echo "Install them (Debian/Ubuntu: sudo apt-get install ${need}; npm test installs them itself when run as root" \
    "on Debian) and run npm test again." >&2
  exit 1
fi

[ "${1:-}" = --programs ] && exit 0

# The two servers the suite uses and does not start: said here once rather than by every test.
# A URL this cannot read (a Unix socket, an IPv6 literal) is left to the tests themselves.
reachable() {
  local url=$1 default_port=$2
  [[ $url =~ ^[a-z]+://([^@/]*@)?([A-Za-z0-9.-]+)(:([0-9]+))? ]] || return 0
  (exec 3<>"/dev/tcp/${BASH_REMATCH[2]}/${BASH_REMATCH[4]:-$default_port}") 2>/dev/null
}
down=()
reachable "${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/ledger_test}" 5432 ||
  down+=("Postgres at ${TEST_DATABASE_URL:-127.0.0.1:5432}")
reachable "${GATEWAY_TEST_REDIS_URL:-redis://127.0.0.1:6379}" 6379 ||
  down+=("Redis at ${GATEWAY_TEST_REDIS_URL:-127.0.0.1:6379}")
if [ ${#down[@]} -gt 0 ]; then
  printf 'npm test needs %s: not reachable (TEST_DATABASE_URL / GATEWAY_TEST_REDIS_URL name others).\n' "${down[@]}" >&2
  exit 1
fi
