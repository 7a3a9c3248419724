/**
 * The native provider's generated Go SDK builds: examples/native-go (an explicit `kasm.Provider`,
 * a `kasm.User`, a `kasm.StagingConfig` and a `kasm.UserSet`) compiled with `go build` against the
 * SDK that scripts/sdk/generate.sh (`npm run sdk:generate`) writes, taken with a `replace`. The
 * program is not run: no Go language host is built here (scripts/pulumi-cli/build.sh says why);
 * the Python test runs the same program through the CLI.
 *
 * Go's module and build caches stay where Go keeps them (outside the repository, shared with the
 * CLI's build, so a machine that built the CLI has most of Pulumi's Go SDK already); GOPROXY is
 * the environment's. Skipped without the CLI (the schema comes from `pulumi package get-schema`)
 * or without `go` on PATH.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLES, REPO } from "../e2e/helpers";
import { hasPulumi } from "./pulumi-cli";
import { generateSdks, hasGo, run } from "./sdks";

/** A cold module cache downloads Pulumi's Go SDK and its dependencies: minutes on 2 cores. */
const GO_BUILD_TIMEOUT = 900_000;
const VERSION = (JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string }).version;

describe.skipIf(!hasPulumi || !hasGo)("the native provider's generated Go SDK", () => {
  let dir: string;
  const figures: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "cli-native-go-"));
    const env = { ...process.env, PULUMI_HOME: path.join(dir, "pulumi-home"), PULUMI_SKIP_UPDATE_CHECK: "true" };
    const generated = await generateSdks(path.join(dir, "sdk"), ["go"], env);
    figures.push(`generate the Go SDK: ${generated.seconds.toFixed(1)} s`);
  }, GO_BUILD_TIMEOUT);
  afterAll(() => {
    console.log(`native provider, Go SDK:\n  ${figures.join("\n  ")}`);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("carries package.json's version in its plugin metadata, under the module its import path names", () => {
    expect(JSON.parse(readFileSync(path.join(dir, "sdk", "go", "kasm", "pulumi-plugin.json"), "utf8"))).toEqual({
      resource: true,
      name: "kasm",
      version: VERSION,
    });
    expect(readFileSync(path.join(dir, "sdk", "go", "go.mod"), "utf8")).toMatch(/^module pulumi-kasm\.local\/sdk\/go$/m);
  });

  it("builds the example program with a replace to the generated SDK", { timeout: GO_BUILD_TIMEOUT }, async () => {
    const programDir = path.join(dir, "program");
    cpSync(path.join(EXAMPLES, "native-go"), programDir, { recursive: true });
    // -mod=mod: the example ships no go.sum; Go writes it from the module cache or GOPROXY.
    const env = { ...process.env, GOFLAGS: "-mod=mod" };
    const replaced = await run("go", ["mod", "edit", "-replace", `pulumi-kasm.local/sdk/go=${path.join(dir, "sdk", "go")}`], { cwd: programDir, env });
    expect(replaced.code, replaced.output).toBe(0);
    // -trimpath as build.sh builds the CLI: the packages both use come from Go's build cache.
    const built = await run("go", ["build", "-trimpath", "-o", "kasm-go", "."], { cwd: programDir, env });
    figures.push(`go build: ${built.seconds.toFixed(1)} s`);
    expect(built.code, built.output).toBe(0);
    expect(existsSync(path.join(programDir, "kasm-go"))).toBe(true);
  });
});
