/**
 * Where `pulumi refresh` and `pulumi destroy` of a native stack find an installation: in the
 * provider's settings the state recorded at the last `up`, not in the stack configuration of now,
 * unless `--run-program` runs the program first (Pulumi's own rule for every provider; the README
 * says so under "A native provider plugin"). Through the real `pulumi` CLI, a YAML program whose
 * explicit provider reads its address from the stack configuration, and two emulators: the one
 * the user was created on, and a new address the configuration is then pointed at.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { PASSPHRASE, SLOW } from "../e2e/helpers";
import { pluginFromCheckout } from "./native-yaml-programs";
import { hasPulumi, PulumiCli } from "./pulumi-cli";

let dir: string;
let first: TestEmulator;
let moved: TestEmulator;

beforeAll(async () => {
  if (!hasPulumi) return;
  dir = mkdtempSync(path.join(tmpdir(), "cli-native-settings-"));
  first = await startTestEmulator();
  moved = await startTestEmulator();
});
afterAll(async () => {
  await first?.close();
  await moved?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hasPulumi)("a native stack's refresh and destroy, after the provider's settings changed in the configuration", () => {
  it("read the installation the state recorded until an up (or --run-program) records the new settings", { timeout: SLOW }, async () => {
    const programDir = path.join(dir, "program");
    mkdirSync(programDir);
    writeFileSync(
      path.join(programDir, "Pulumi.yaml"),
      `name: native-settings
runtime: yaml
${pluginFromCheckout()}config:
  kasmUrl:
    type: string
resources:
  prod:
    type: pulumi:providers:kasm
    properties:
      baseUrl: \${kasmUrl}
      apiKey: ${ADMIN.key}
      apiKeySecret: ${ADMIN.secret}
      maxRetries: 1
  ada:
    type: kasm:index:User
    properties:
      username: ada
      firstName: Ada
    options:
      provider: \${prod}
`,
    );
    const cli = new PulumiCli({
      programDir,
      stack: "dev",
      workDir: path.join(dir, "work"),
      passphrase: PASSPHRASE,
      config: { kasmUrl: first.url },
      secretKeys: [],
    });
    await cli.init();
    expect((await cli.steps("up")).ops.ada).toBe("create");

    // The configuration now names another address; the state still records the first.
    await cli.ok(["config", "set", "kasmUrl", moved.url, "--stack", "dev"]);
    const counts = () => [first.requests.length, moved.requests.length];
    const [firstBefore, movedBefore] = counts();
    const refreshed = await cli.steps("refresh");
    expect(refreshed.code, refreshed.stdout + refreshed.stderr).toBe(0);
    expect(first.requests.length).toBeGreaterThan(firstBefore);
    expect(moved.requests.length).toBe(movedBefore);
    // Found where it was made: the state keeps it unchanged.
    expect(refreshed.ops.ada).toBe("same");

    // With --run-program the program's provider, with the configuration's address, does the reading.
    const [firstThen, movedThen] = counts();
    const run = await cli.steps("refresh", ["--run-program"]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(first.requests.length).toBe(firstThen);
    expect(moved.requests.length).toBeGreaterThan(movedThen);
    // The new address has no such user: the refresh forgets it (Kasm at the first address keeps it).
    expect((await cli.exported()).resources?.map((r) => r.urn.split("::").pop())).not.toContain("ada");
  });
});
