#!/usr/bin/env bash
# The README's first command: from a fresh clone to a finished, audited snodo run, offline.
#  1. installs the pinned pnpm if it is missing, the locked dependencies, and builds every package;
#  2. makes a sample repository (a package.json whose tests run with `node --test`) in a temporary directory;
#  3. runs `snodo init`, commits the protocol, runs a task end to end with the mock coder and mock judges,
#     then shows `snodo meta` and `snodo audit verify`.
# No network is needed after step 1 and nothing outside the temporary directory is touched by step 3: the
# demo uses its own $SNODO_HOME. Set SNODO_QUICKSTART_SKIP_BUILD=1 to reuse an existing build.
set -euo pipefail
cd "$(dirname "$0")/.."
workspace=$(pwd)

if [ "${SNODO_QUICKSTART_SKIP_BUILD:-}" != "1" ]; then
  pnpm_version=$(node -p "require('./package.json').packageManager.split('@')[1]")
  if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$pnpm_version" ]; then
    echo "installing pnpm@$pnpm_version (npm install --global)"
    npm install --global --no-audit --no-fund "pnpm@$pnpm_version"
  fi
  pnpm install --frozen-lockfile
  pnpm build
fi

snodo() { node "$workspace/apps/cli/dist/cli.js" "$@"; }
step() {
  if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then printf '\n\033[1m$ %s\033[0m\n' "$*"; else printf '\n$ %s\n' "$*"; fi
}

demo=$(mktemp -d "${TMPDIR:-/tmp}/snodo-quickstart.XXXXXX")
export SNODO_HOME="$demo/snodo-home"
sample="$demo/sample"
mkdir -p "$sample/test"
cd "$sample"
git init --quiet --initial-branch main
# The sample's own commits need an identity; use yours when git has one.
git config user.name >/dev/null 2>&1 || git config user.name 'snodo quickstart'
git config user.email >/dev/null 2>&1 || git config user.email 'quickstart@snodo.invalid'
cat > package.json <<'JSON'
{
  "name": "snodo-quickstart-sample",
  "private": true,
  "type": "module",
  "scripts": { "test": "node --test" }
}
JSON
cat > test/sum.test.js <<'JS'
import assert from 'node:assert/strict';
import test from 'node:test';

test('adds two numbers', () => {
  assert.equal(1 + 2, 3);
});
JS
git add --all
git commit --quiet -m 'Sample project'

step snodo init
snodo init
git add .snodo/protocol.yml
git commit --quiet -m 'Add the snodo protocol'

step snodo run '"Add a CONTRIBUTING.md with setup steps"' --mock
snodo run "Add a CONTRIBUTING.md with setup steps" --mock

step snodo meta last
snodo meta last

step snodo audit verify
snodo audit verify

cat <<EOF2

Done. The sample repository is $sample. To keep exploring it:
  cd $sample
  alias snodo='SNODO_HOME=$SNODO_HOME node $workspace/apps/cli/dist/cli.js'
  snodo task list; snodo run "Add a short README section" --mock -m mock/warn   # an escalation to approve
EOF2
