#!/usr/bin/env bash
# Generate the Python, Go and Node.js SDKs of the native provider (`pulumi-resource-kasm`) from its
# package schema, into a build folder (default build/sdk, not checked in: the SDKs are derived from
# the kinds' manifests at every build, and a checked-in copy would drift from them):
#   <out>/schema.json   what `pulumi package get-schema bin/pulumi-resource-kasm` answers
#   <out>/python/       the package `pulumi_kasm` (pip install <out>/python)
#   <out>/go/           the module `pulumi-kasm.local/sdk/go` (a program takes it with a `replace`)
#   <out>/nodejs/       the TypeScript sources of the npm package `@pulumi-kasm/native`, built into
#                       <out>/nodejs/bin and packed as <out>/pulumi-kasm-native-<version>.tgz
#                       (npm install <that tarball>): its dependencies are installed by npm,
#                       from npm's cache where it has them (--prefer-offline), and it is compiled
#                       with its own `tsc`, as Pulumi builds the Node.js SDKs it generates
# The schema carries package.json's version (the plugin's GetPluginInfo answers the same), and its
# `supportPack` makes each SDK's pulumi-plugin.json and package metadata carry it too.
#
# Each SDK comes from `pulumi package gen-sdk --language <language>`. Where the CLI's language host
# cannot generate (the Python and Node.js hosts scripts/pulumi-cli/build.sh builds predate the
# hosts' GeneratePackage call, and no Go host is built there), the same Pulumi code generators run
# from scripts/sdk/codegen, built once with Go and cached like the CLI (PULUMI_KASM_CLI_CACHE's
# parent, else ~/.cache/pulumi-kasm). Needs `pulumi` on PATH and dist/ built (`npm run build`);
# the Node.js SDK's build needs npm, and the npm registry for what npm's cache lacks.
#
# Usage: scripts/sdk/generate.sh [out folder] [languages...]   (default: build/sdk python go nodejs)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="$(mkdir -p "${1:-$repo/build/sdk}" && cd "${1:-$repo/build/sdk}" && pwd)"
shift || true
languages=("$@")
[ ${#languages[@]} -gt 0 ] || languages=(python go nodejs)

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

# The Node.js SDK as a package: its dependencies, its build into bin/ (package.json and README
# beside the compiled files, which makes bin/ the package's root), and its tarball in <out>.
build_nodejs() {
  local sdk="$out/nodejs" log tarball
  # npm's name for the tarball of the package: @scope/name-version.tgz as scope-name-version.tgz.
  tarball="$out/$(cd "$sdk" && node -p 'const p = require("./package.json"); `${p.name.replace(/^@/, "").replace("/", "-")}-${p.version}.tgz`')"
  rm -f "$tarball"
  log="$(mktemp)"
  if ! (cd "$sdk" &&
    npm install --prefer-offline --no-audit --no-fund --ignore-scripts --no-package-lock &&
    npm run build &&
    cp package.json README.md bin/ &&
    cd bin && npm pack --pack-destination "$out") >"$log" 2>&1 || [ ! -f "$tarball" ]; then
    echo "generate.sh: the nodejs SDK did not build (npm install, then its tsc, in $sdk):" >&2
    cat "$log" >&2
    rm -f "$log"
    return 1
  fi
  rm -f "$log"
  echo "generate.sh: nodejs SDK built in $sdk/bin and packed as $tarball" >&2
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
  if [ "$language" = nodejs ]; then build_nodejs; fi
done
