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
# databases are copied from), the services and the test files are compiled, then the test files
# run, each a plain node process started by scripts/run-tests.mjs:
#   - every test file, as many at once as the machine's cores (TEST_JOBS), except
#   - the one file that runs from source (`// npm test: runs from source (why)`), through tsx, and
#   - the files that need the machine to themselves (timing bounds, killed processes, heap
#     measures), which say so in a line `// npm test: runs alone (why)` and run one by one after.
# The gateway's tests whose behaviour depends on its store run on both stores within the first
# run (eachStore, mcp-gateway/test/helpers.ts); nothing runs a second time.
# Each run ends with its own `# { total: … }` line; .ci/run adds them up.
# `npm test -- <files or tap options>` runs tap with those alone, as `npx tap` would.
set -u
cd "$(dirname "$0")/.."
# each step's start, as seconds since npm test began (bash's SECONDS; no program needed before the
# programs are checked): where the run's time goes (docs/testing.md)
SECONDS=0
step() { echo "# step: $1 (at ${SECONDS} s)"; }
step "programs and servers"
scripts/test-prerequisites.sh || exit 1
step "lint"
echo "# lint: npm run lint"
if npm run --silent lint; then
  lint=0
else
  lint=1
  echo "# lint: failed (the findings above; npm run format fixes the layout ones)"
fi
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
# the type check (tsc, one core for some 40 s) runs beside the steps after it, which do not need
# it (esbuild only strips the types); its findings and result are printed at the end, and a
# failure fails the run, counted like a lint finding (`# type check: failed`)
step "type check, in the background"
npm run --silent typecheck >"$logs/typecheck" 2>&1 &
typecheck_pid=$!
typecheck_result() {
  if wait "$typecheck_pid"; then
    typecheck=0
  else
    typecheck=1
    cat "$logs/typecheck"
    echo "# type check: failed (the findings above)"
  fi
}
step "test database"
npx tsx scripts/test-setup.ts || exit 1
export TEST_SETUP_DONE=1
if [ "$#" -gt 0 ]; then
  npx tap "$@" | tee "$logs/tap"
  first=${PIPESTATUS[0]}
  second=0
  node scripts/slowest-tests.mjs "tap=$logs/tap"
else
  # the services' compiled build, so that every process a test starts (the ledger and gateway
  # commands, npm start, the e2e stacks) runs it instead of loading the sources through tsx
  step "compiled build"
  node scripts/build.mjs || exit 1
  # the test files compiled (scripts/build-tests.mjs), but those marked to run from source
  node scripts/build-tests.mjs || exit 1
  mapfile -t alone < <(grep -rl --include='*.test.ts' '^// npm test: runs alone' shared ledger-service mcp-gateway e2e \
    | grep -v node_modules | sort)
  mapfile -t source < <(grep -rl --include='*.test.ts' '^// npm test: runs from source' shared ledger-service \
    mcp-gateway e2e | grep -v node_modules | sort)
  compiled() { for file in "$@"; do echo ".test-build/${file%.ts}.js"; done; }
  mapfile -t together < <(node --input-type=module -e "
    import { partition } from './scripts/build-tests.mjs';
    const alone = new Set(process.argv.slice(1));
    for (const file of partition().compiled)
      if (!alone.has(file)) console.log('.test-build/' + file.replace(/ts\$/, 'js'));
  " "${alone[@]}")
  # every file as a plain node process (scripts/run-tests.mjs: tap's own runner adds two module hooks
  # to each), as many at once as TEST_JOBS says (default: the machine's cores)
  step "the compiled files, side by side"
  node scripts/run-tests.mjs "${together[@]}" | tee "$logs/together"
  first=${PIPESTATUS[0]}
  second=0
  if [ "${#source[@]}" -gt 0 ]; then
    step "the files that run from source, through tsx"
    node scripts/run-tests.mjs --node-arg=--import=tsx "${source[@]}" | tee "$logs/source"
    [ "${PIPESTATUS[0]}" -eq 0 ] || first=1
  fi
  if [ "${#alone[@]}" -gt 0 ]; then
    step "the files that need the machine to themselves, one by one"
    node scripts/run-tests.mjs --jobs=1 $(compiled "${alone[@]}") | tee "$logs/alone"
    second=${PIPESTATUS[0]}
  fi
  step "done"
  node scripts/slowest-tests.mjs "together=$logs/together" "source=$logs/source" "alone=$logs/alone"
fi
typecheck_result
[ "$lint" -eq 1 ] && echo "# lint: failed (see the top of this run)"
[ "$lint" -eq 0 ] && [ "$typecheck" -eq 0 ] && [ "$first" -eq 0 ] && [ "$second" -eq 0 ]
