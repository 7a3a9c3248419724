//go:build tools

// Package tools names the programs this module builds, so that `go mod tidy` keeps their modules.
package tools

import (
	_ "github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs"
	_ "github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python"
)
