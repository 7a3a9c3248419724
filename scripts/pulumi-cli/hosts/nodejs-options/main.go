// Command pulumi-language-nodejs starts Pulumi 3.68's Node.js language host with the project's
// runtime options, as the CLIs of that release started it.
//
// Why: up to about 3.9x the CLI passed a project's `runtime.options` (Pulumi.yaml) to its language
// host as flags (`-typescript=false`, `-nodeargs=...`); today's CLI sends them in the Run request
// instead, which the 3.68 host does not read. Without this launcher the host built here would
// run every program with ts-node and without its `nodeargs`, whatever Pulumi.yaml says, where a
// current host honours both. The launcher reads the project with Pulumi's own loader, passes the
// options the 3.68 host defines as the flags it takes, and replaces itself with that host
// (`pulumi-language-nodejs-3.68`, beside it). Options that host does not define (a later
// release's `packagemanager`, for example) are left out: it would refuse an unknown flag.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"syscall"

	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
)

// hostOptions are the runtime options Pulumi 3.68's Node.js host takes as flags.
var hostOptions = map[string]bool{"typescript": true, "tsconfig": true, "nodeargs": true}

func main() {
	self, err := os.Executable()
	if err != nil {
		fail(err)
	}
	host := filepath.Join(filepath.Dir(self), "pulumi-language-nodejs-3.68")
	flags, err := optionFlags()
	if err != nil {
		fail(err)
	}
	// The engine's address stays the last argument, as the host expects.
	argv := append(append([]string{host}, flags...), os.Args[1:]...)
	fail(syscall.Exec(host, argv, os.Environ()))
}

// optionFlags are the flags of the project's runtime options, from the Pulumi.yaml found from the
// working directory up (the CLI starts the host in the program's directory); none without one.
func optionFlags() ([]string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	projectPath, err := workspace.DetectProjectPathFrom(dir)
	if err != nil || projectPath == "" {
		return nil, nil
	}
	project, err := workspace.LoadProject(projectPath)
	if err != nil {
		return nil, err
	}
	options := project.Runtime.Options()
	names := make([]string, 0, len(options))
	for name := range options {
		if hostOptions[name] {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	flags := make([]string, 0, len(names))
	for _, name := range names {
		flags = append(flags, fmt.Sprintf("-%s=%v", name, options[name]))
	}
	return flags, nil
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "pulumi-language-nodejs launcher: %v\n", err)
	os.Exit(1)
}
