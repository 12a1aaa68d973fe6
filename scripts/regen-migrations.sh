#!/usr/bin/env bash
# Development only, before the first release: regenerates the single initial migration from
# src/db/schema. Serialised with flock because several people may run it at once.
set -euo pipefail
cd "$(dirname "$0")/.."
exec 9>/tmp/boardroom-regen.lock
flock 9
rm -rf src/db/migrations
npx drizzle-kit generate --name init 2>&1 | grep -E "✓|rror" || true
