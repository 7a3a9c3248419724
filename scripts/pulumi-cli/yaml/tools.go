//go:build tools

// Package tools names the program this module builds, so that `go mod tidy` keeps its module.
package tools

import _ "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml"
