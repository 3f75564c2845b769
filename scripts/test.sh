#!/usr/bin/env bash
# npm test: the type check, the whole suite (the gateway on SQLite with its limits in memory),
# then the gateway's tests again on Postgres with their limits in Redis — the replica setup
# (GATEWAY_DATABASE_URL, REDIS_URL; mcp-gateway/test/helpers.ts). Files that pick their store
# themselves (codeStore, replicas) or whose subject does not touch it (the browser, docs, the
# tool-by-tool suites *Tools.test.ts, HTTP edge cases of the server and the proxy, client
# metadata fetches) run once, to keep the second run short.
# Each tap run ends with its own `# { total: … }` line; .ci/run adds them up.
set -u
cd "$(dirname "$0")/.."
npm run typecheck || exit 1
npx tap "$@"
first=$?
mapfile -t again < <(grep -l 'startStack' mcp-gateway/test/*.test.ts | grep -v -E '/(browser|replicas|codeStore|docsPage|clientError|drainCap|errorShapes|proxyRetry|proxy|cimd)\.test|Tools\.test')
GATEWAY_TEST_STORE=postgres GATEWAY_TEST_REDIS_URL="${GATEWAY_TEST_REDIS_URL:-redis://127.0.0.1:6379}" npx tap "${again[@]}"
second=$?
[ "$first" -eq 0 ] && [ "$second" -eq 0 ]
