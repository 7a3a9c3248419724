#!/usr/bin/env bash
# Build the Pulumi CLI, its YAML, Node.js and Python language hosts and the launchers its
# distribution ships, from their Go modules, for a machine that cannot install the CLI the normal
# way (its installers download prebuilt binaries). Users install the CLI the normal way; this is
# for CI and machines with only a Go toolchain and the Go module proxy.
#
# Prints the folder that holds the binaries: put it first on PATH. The binaries are cached outside
# the repository (PULUMI_KASM_CLI_CACHE, else ~/.cache/pulumi-kasm/pulumi-cli), keyed by the
# release and by the pinned module files, so a second run takes a second. Go's own caches
# (GOMODCACHE, GOCACHE) stay where Go keeps them.
#
# What is built (the versions are pinned in cli/, yaml/ and hosts/, each a go.mod with its go.sum):
# - pulumi: github.com/pulumi/pulumi/pkg/v3/cmd/pulumi at the release, `pulumi version` stamped;
# - pulumi-language-yaml: github.com/pulumi/pulumi-yaml v1.38.0, the newest release the module proxy
#   serves with its requirements (a release bundles a later one; yaml/go.mod says which are refused);
# - pulumi-language-nodejs and pulumi-language-python: from github.com/pulumi/pulumi/sdk/v3 at
#   v3.68.0. Their own modules (sdk/nodejs/cmd/pulumi-language-nodejs/v3 and the Python one) are
#   refused by the module proxy these machines reach, at every release (403 "This module version is
#   not available"), and 3.68.0 is the newest served release whose sdk module still carries both.
#   That host runs programs as the release's does (the program's own @pulumi/pulumi does the
#   work), but it cannot run policy packs: the CLI runs a Node.js pack through the host's
#   RunPlugin, which that host does not implement. The Go host is refused too, and is not built.
#   Today's CLI sends a project's runtime options (`typescript`, `nodeargs`) in the Run request,
#   which the 3.68 hosts do not read: they took them as flags. So `pulumi-language-nodejs` here is
#   a launcher (hosts/nodejs-options) that reads them from Pulumi.yaml with Pulumi's own loader and
#   starts the 3.68 host (`pulumi-language-nodejs-3.68`) with those flags, as a current host
#   honours them. The Python host has no such launcher: its tests name the interpreter instead.
# - pulumi-resource-pulumi-nodejs (the dynamic-provider launcher) from the release's sdk module,
#   and pulumi-language-python-exec from the hosts' one, with their exec bits.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
release="$(awk '$1 == "require" && $2 == "github.com/pulumi/pulumi/pkg/v3" { print $3 }' "$here/cli/go.mod")"
yaml="$(awk '$1 == "require" && $2 == "github.com/pulumi/pulumi-yaml" { print $3 }' "$here/yaml/go.mod")"
cache="${PULUMI_KASM_CLI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-kasm/pulumi-cli}"
pins="$(cat "$here"/*/go.mod "$here"/*/go.sum "$here"/hosts/nodejs-options/main.go "$0" | sha256sum | cut -c1-12)"
bin="$cache/$release-$pins/bin"

if [ -f "$bin/.complete" ]; then
  echo "$bin"
  exit 0
fi
if ! command -v go >/dev/null; then
  echo "build.sh: no 'go' on PATH: the Pulumi CLI is built from Go modules (Go 1.26.6 or later); install Go, or install the Pulumi CLI the normal way" >&2
  exit 1
fi

started=$SECONDS
partial="$bin.partial.$$"
trap 'rm -rf "$partial"' EXIT
mkdir -p "$partial"
echo "build.sh: building the Pulumi CLI $release into $bin (the first build takes about 5 minutes on 2 cores when Go's module cache holds the modules, and longer while it downloads them)" >&2

(cd "$here/cli" && go build -trimpath -o "$partial/pulumi" \
  -ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$release" \
  github.com/pulumi/pulumi/pkg/v3/cmd/pulumi)
(cd "$here/yaml" && go build -trimpath -o "$partial/pulumi-language-yaml" \
  -ldflags "-X github.com/pulumi/pulumi-yaml/pkg/version.Version=$yaml" \
  github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml)
(cd "$here/hosts" && go build -trimpath -o "$partial/pulumi-language-nodejs-3.68" \
  github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs)
(cd "$here/hosts" && go build -trimpath -o "$partial/pulumi-language-nodejs" ./nodejs-options)
(cd "$here/hosts" && go build -trimpath -o "$partial/" \
  github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python)

# The launchers ship in the sdk modules without their exec bits.
release_sdk="$(cd "$here/cli" && go list -m -f '{{.Dir}}' github.com/pulumi/pulumi/sdk/v3)"
hosts_sdk="$(cd "$here/hosts" && go list -m -f '{{.Dir}}' github.com/pulumi/pulumi/sdk/v3)"
install -m 0755 "$release_sdk/nodejs/dist/pulumi-resource-pulumi-nodejs" "$partial/"
install -m 0755 "$hosts_sdk/python/cmd/pulumi-language-python-exec" "$partial/"

"$partial/pulumi" version >/dev/null
touch "$partial/.complete"
rm -rf "$bin"
mv "$partial" "$bin"
trap - EXIT
echo "build.sh: built in $((SECONDS - started)) s" >&2
echo "$bin"
