//go:build tools

// Package tools names the programs this module builds, so that `go mod tidy` keeps their modules.
package tools

import (
	_ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
)
