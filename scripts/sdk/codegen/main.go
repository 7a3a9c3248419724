// Command codegen writes the Python, Go or Node.js SDK of a package schema with Pulumi's own code
// generators, as `pulumi package gen-sdk --language <language>` does through the language host.
// generate.sh runs it only where the host cannot: the Python and Node.js hosts built by
// scripts/pulumi-cli/build.sh predate the hosts' GeneratePackage call, and no Go host is built.
// It does what those hosts' GeneratePackage does: bind the schema (dangling references allowed),
// generate, write the files under the output folder.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	nodejsgen "github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	pygen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

func main() {
	schemaPath := flag.String("schema", "", "the package schema (JSON), as `pulumi package get-schema` writes it")
	language := flag.String("language", "", "python, go or nodejs")
	out := flag.String("out", "", "the folder to write the SDK into (emptied first, as gen-sdk does)")
	flag.Parse()
	if err := generate(*schemaPath, *language, *out); err != nil {
		fmt.Fprintf(os.Stderr, "codegen: %v\n", err)
		os.Exit(1)
	}
}

func generate(schemaPath, language, out string) error {
	if schemaPath == "" || out == "" {
		return fmt.Errorf("-schema and -out are required")
	}
	text, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return fmt.Errorf("%s: %w", schemaPath, err)
	}
	// The schema refers to no other package: a loader that refuses every load is enough.
	loader := schema.NewNullLoader()
	pkg, diags, err := schema.BindSpec(spec, loader, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		return diags
	}

	var files map[string][]byte
	switch language {
	case "python":
		// The loader resolves the schema's package dependencies: it has none.
		files, err = pygen.GeneratePackage("pulumi-language-python", pkg, nil, nil)
	case "go":
		files, err = gogen.GeneratePackage("pulumi-language-go", pkg, nil)
	case "nodejs":
		// As `gen-sdk` without --local: a package that its own `tsc` builds into bin/; no extra
		// files, no local dependencies, and no loader (the schema depends on no other package).
		files, err = nodejsgen.GeneratePackage("pulumi-language-nodejs", pkg, nil, nil, false, nil)
	default:
		return fmt.Errorf("-language must be python, go or nodejs, not %q", language)
	}
	if err != nil {
		return err
	}

	if err := os.RemoveAll(out); err != nil {
		return err
	}
	for name, data := range files {
		target := filepath.Join(out, name)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
