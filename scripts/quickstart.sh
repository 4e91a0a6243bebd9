#!/usr/bin/env bash
# The README's first command: from a fresh clone to a working snodo.
# Installs the pinned pnpm if it is missing, installs the locked dependencies and builds every package.
set -euo pipefail
cd "$(dirname "$0")/.."

pnpm_version=$(node -p "require('./package.json').packageManager.split('@')[1]")
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$pnpm_version" ]; then
  echo "installing pnpm@$pnpm_version (npm install --global)"
  npm install --global --no-audit --no-fund "pnpm@$pnpm_version"
fi
pnpm install --frozen-lockfile
pnpm build
