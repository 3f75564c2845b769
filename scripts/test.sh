#!/usr/bin/env bash
# npm test: the type check, the whole suite (the gateway on SQLite with its limits in memory),
# then the gateway's tests again on Postgres with their limits in Redis — the replica setup
# (GATEWAY_DATABASE_URL, REDIS_URL; mcp-gateway/test/helpers.ts). Files that pick their store
# themselves (codeStore, replicas) or whose subject does not touch it (the browser, docs, the
# tool-by-tool suites *Tools.test.ts, HTTP edge cases of the server and the proxy, client
# metadata fetches) run once, to keep the second run short.
# Each tap run ends with its own `# { total: … }` line; .ci/run adds them up.
# First the programs the suite runs (chromium, openssl, poppler-utils, redis-server, haproxy,
# docker-compose) and the Postgres and Redis it uses: installed as root on Debian, otherwise
# named, and nothing runs without them (scripts/test-prerequisites.sh).
# Then the lint (npm run lint: Biome's format and lint checks, failing on any warning, and no
# line over 120 characters; docs/architecture.md "Lint and format"). A finding does not stop the
# suite: the tests still run, then the run fails and its last line says so — as `# lint: failed`,
# which .ci/run counts as one failed test (so `tests: N passed, N failed` stays right).
set -u
cd "$(dirname "$0")/.."
scripts/test-prerequisites.sh || exit 1
echo "# lint: npm run lint"
if npm run --silent lint; then
  lint=0
else
  lint=1
  echo "# lint: failed (the findings above; npm run format fixes the layout ones)"
fi
npm run typecheck || exit 1
npx tap "$@"
first=$?
once='browser|replicas|codeStore|docsPage|clientError|drainCap|errorShapes|proxyRetry|proxy|cimd'
mapfile -t again < <(grep -l 'startStack' mcp-gateway/test/*.test.ts | grep -v -E "/($once)\.test|Tools\.test")
GATEWAY_TEST_STORE=postgres GATEWAY_TEST_REDIS_URL="${GATEWAY_TEST_REDIS_URL:-redis://127.0.0.1:6379}" \
  npx tap "${again[@]}"
second=$?
[ "$lint" -eq 1 ] && echo "# lint: failed (see the top of this run)"
[ "$lint" -eq 0 ] && [ "$first" -eq 0 ] && [ "$second" -eq 0 ]
