#!/usr/bin/env bash
# Generate the Python and Go SDKs of the native provider (`pulumi-resource-kasm`) from its package
# schema, into a build folder (default build/sdk, not checked in: the SDKs are derived from the
# kinds' manifests at every build, and a checked-in copy would drift from them):
#   <out>/schema.json   what `pulumi package get-schema bin/pulumi-resource-kasm` answers
#   <out>/python/       the package `pulumi_kasm` (pip install <out>/python)
#   <out>/go/           the module `pulumi-kasm.local/sdk/go` (a program takes it with a `replace`)
# The schema carries package.json's version (the plugin's GetPluginInfo answers the same), and its
# `supportPack` makes each SDK's pulumi-plugin.json and package metadata carry it too.
#
# Each SDK comes from `pulumi package gen-sdk --language <language>`. Where the CLI's language host
# cannot generate (the Python host scripts/pulumi-cli/build.sh builds predates the hosts'
# GeneratePackage call, and no Go host is built there), the same Pulumi code generators run from
# scripts/sdk/codegen, built once with Go and cached like the CLI (PULUMI_KASM_CLI_CACHE's parent,
# else ~/.cache/pulumi-kasm). Needs `pulumi` on PATH and dist/ built (`npm run build`).
#
# Usage: scripts/sdk/generate.sh [out folder] [languages...]   (default: build/sdk python go)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="$(mkdir -p "${1:-$repo/build/sdk}" && cd "${1:-$repo/build/sdk}" && pwd)"
shift || true
languages=("$@")
[ ${#languages[@]} -gt 0 ] || languages=(python go)

if ! command -v pulumi >/dev/null; then
  echo "generate.sh: no 'pulumi' on PATH (install the CLI, or see scripts/pulumi-cli/build.sh)" >&2
  exit 1
fi
if [ ! -f "$repo/dist/provider/native/main.js" ]; then
  echo "generate.sh: dist/ is not built: run 'npm run build' first" >&2
  exit 1
fi

pulumi package get-schema "$repo/bin/pulumi-resource-kasm" >"$out/schema.json"

# The code generators' binary, built on first use and kept by the hash of its sources.
codegen_binary() {
  local cache pins bin
  cache="$(dirname "${PULUMI_KASM_CLI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-kasm/pulumi-cli}")/sdk-codegen"
  pins="$(cat "$here/codegen/go.mod" "$here/codegen/go.sum" "$here/codegen/main.go" | sha256sum | cut -c1-12)"
  bin="$cache/$pins/codegen"
  if [ ! -x "$bin" ]; then
    if ! command -v go >/dev/null; then
      echo "generate.sh: the language host cannot generate and there is no 'go' on PATH to build scripts/sdk/codegen" >&2
      return 1
    fi
    mkdir -p "$cache/$pins"
    # -trimpath as build.sh builds the CLI: the same packages then come from Go's build cache.
    (cd "$here/codegen" && go build -trimpath -o "$bin.partial.$$" .)
    mv "$bin.partial.$$" "$bin"
  fi
  echo "$bin"
}

for language in "${languages[@]}"; do
  log="$(mktemp)"
  if pulumi package gen-sdk "$out/schema.json" --language "$language" --out "$out" >"$log" 2>&1; then
    echo "generate.sh: $language SDK written by pulumi package gen-sdk to $out/$language" >&2
  elif grep -q -e "GeneratePackage not implemented" -e "no language plugin 'pulumi-language-$language' found" "$log"; then
    echo "generate.sh: the CLI's $language host cannot generate ($(grep -o -e 'method GeneratePackage not implemented' -e 'no language plugin [^ ]* found' "$log" | head -1)); running Pulumi's $language generator from scripts/sdk/codegen" >&2
    "$(codegen_binary)" -schema "$out/schema.json" -language "$language" -out "$out/$language"
    echo "generate.sh: $language SDK written to $out/$language" >&2
  else
    cat "$log" >&2
    rm -f "$log"
    exit 1
  fi
  rm -f "$log"
done
