#!/usr/bin/env bash
# npm test: the type check and the whole suite, the slowest files named at the end (docs/testing.md).
# First the programs the suite runs (chromium, openssl, poppler-utils, redis-server, haproxy,
# docker-compose) and the Postgres and Redis it uses: installed as root on Debian, otherwise
# named, and nothing runs without them (scripts/test-prerequisites.sh).
# Then the lint (npm run lint: Biome's format and lint checks, failing on any warning, and no
# line over 120 characters; docs/architecture.md "Lint and format"). A finding does not stop the
# suite: the tests still run, then the run fails and its last line says so — as `# lint: failed`,
# which .ci/run counts as one failed test (so `tests: N passed, N failed` stays right).
# The test database is set up once (scripts/test-setup.ts: migrations run once, on a template the
# databases are copied from), then two tap runs:
#   - every test file, as many at once as tap's jobs (the machine's cores), except
#   - the files that need the machine to themselves (timing bounds, killed processes, heap
#     measures), which say so in a line `// npm test: runs alone (why)` and run one by one after.
# The gateway's tests whose behaviour depends on its store run on both stores within the first
# run (eachStore, mcp-gateway/test/helpers.ts); nothing runs a second time.
# Each tap run ends with its own `# { total: … }` line; .ci/run adds them up.
# `npm test -- <files or tap options>` runs tap with those alone, as `npx tap` would.
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
npx tsx scripts/test-setup.ts || exit 1
export TEST_SETUP_DONE=1
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
if [ "$#" -gt 0 ]; then
  npx tap "$@" | tee "$logs/tap"
  first=${PIPESTATUS[0]}
  second=0
  node scripts/slowest-tests.mjs "tap=$logs/tap"
else
  mapfile -t alone < <(grep -rl --include='*.test.ts' '^// npm test: runs alone' ledger-service mcp-gateway e2e | sort)
  # tap's default exclusion, then the files that run alone
  exclude=(--exclude='**/@(fixture*(s)|dist)/**')
  for file in "${alone[@]}"; do exclude+=(--exclude="$file"); done
  # TEST_JOBS: how many files at once (default: tap's, the machine's cores)
  jobs=()
  [ -n "${TEST_JOBS:-}" ] && jobs=(--jobs="$TEST_JOBS")
  npx tap "${jobs[@]}" "${exclude[@]}" | tee "$logs/together"
  first=${PIPESTATUS[0]}
  second=0
  if [ "${#alone[@]}" -gt 0 ]; then
    echo "# the files that need the machine to themselves, one by one"
    npx tap --jobs=1 "${alone[@]}" | tee "$logs/alone"
    second=${PIPESTATUS[0]}
  fi
  node scripts/slowest-tests.mjs "together=$logs/together" "alone=$logs/alone"
fi
[ "$lint" -eq 1 ] && echo "# lint: failed (see the top of this run)"
[ "$lint" -eq 0 ] && [ "$first" -eq 0 ] && [ "$second" -eq 0 ]
