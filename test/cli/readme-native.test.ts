/**
 * README.md's "A native provider plugin" section, as a reader follows it: its YAML program (an
 * explicit provider and a user, the plugin named by `./node_modules/pulumi-kasm/bin`), with the
 * lookups' YAML (`fn::invoke` of `getZone` and `getImage`, and a staging config on what they
 * find) added to it, runs through the `pulumi` CLI against an emulator: the README's address is
 * replaced by the emulator's, its settings (`kasmApiKey`, `kasmApiKeySecret`, `adaPassword`) are
 * set in the stack, and nothing else is changed. `up` creates the user and the staging config on
 * the zone and image the lookups found; `destroy` removes them.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { PASSPHRASE, REPO, SLOW } from "../e2e/helpers";
import { hasPulumi, measuredStep, PulumiCli } from "./pulumi-cli";

const ZONE = "0d2f2c0a6c8e4f4e9a0b1c2d3e4f5a6b";
const IMAGE = "1a2b3c4d5e6f47a8b9c0d1e2f3a4b5c6";
const PASSWORD = "readme-native-password-3e9a";

const README = readFileSync(path.join(REPO, "README.md"), "utf8");
const HEADING = "## A native provider plugin: `pulumi-resource-kasm`";
/** The section's opening, up to its first subsection: the program and the lookups. */
const SECTION = (() => {
  const start = README.indexOf(HEADING);
  if (start < 0) throw new Error(`README.md has no "${HEADING}" section`);
  return README.slice(start, README.indexOf("\n### ", start + 3));
})();
/** The section's YAML blocks, each without the indentation of the list item it may sit in. */
const YAML_BLOCKS = [...SECTION.matchAll(/^( *)```yaml\n([\s\S]*?)^ *```/gm)].map(([, indent, body]) =>
  body
    .split("\n")
    .map((line) => line.slice(indent.length))
    .join("\n"),
);

/**
 * The README's program with its lookups added: the second block's `variables:` before the
 * program's `resources:`, and its resources after the program's.
 */
function readmeProgram(url: string): string {
  const [program, lookups] = YAML_BLOCKS;
  const [variables, resources] = lookups.split(/^resources:\n/m);
  const at = program.indexOf("resources:\n");
  return `${program.slice(0, at)}${variables}${program.slice(at).trimEnd()}\n${resources}`.replace("https://kasm.example.com", url);
}

describe.skipIf(!hasPulumi)("README: the native provider's YAML program and lookups, through the pulumi CLI", () => {
  let dir: string;
  let emulator: TestEmulator;
  const figures: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "cli-readme-native-"));
    emulator = await startTestEmulator({
      zones: [{ zone_id: ZONE, zone_name: "default" }],
      images: [{ image_id: IMAGE, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" }],
    });
  });
  afterAll(async () => {
    console.log(`README's native YAML program:\n  ${figures.join("\n  ")}`);
    await emulator?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("the section holds the program and the lookups' YAML", () => {
    expect(YAML_BLOCKS).toHaveLength(2);
    expect(YAML_BLOCKS[0]).toContain("path: ./node_modules/pulumi-kasm/bin");
    expect(YAML_BLOCKS[1]).toContain("function: kasm:index:getZone");
  });

  it("creates the user, and the staging config on the zone and image the lookups find; destroy removes them", { timeout: SLOW }, async () => {
    const programDir = path.join(dir, "program");
    mkdirSync(programDir, { recursive: true });
    writeFileSync(path.join(programDir, "Pulumi.yaml"), readmeProgram(emulator.url));
    // The stack's node_modules is this repository's, where pulumi-kasm is the repository itself.
    const cli = new PulumiCli({
      programDir,
      stack: "dev",
      workDir: path.join(dir, "work"),
      passphrase: PASSPHRASE,
      config: { kasmApiKey: ADMIN.key, kasmApiKeySecret: ADMIN.secret, adaPassword: PASSWORD },
      secretKeys: ["kasmApiKeySecret", "adaPassword"],
    });
    await cli.init();

    const up = await measuredStep(emulator, figures, "up", () => cli.steps("up"));
    expect(up.code, up.stdout + up.stderr).toBe(0);
    expect(up.ops).toMatchObject({ ada: "create", chrome: "create" });
    const users = (await emulator.specCall("get_users")).body.users as { username: string }[];
    expect(users.map((u) => u.username)).toContain("ada");
    expect((await emulator.specCall("get_staging_configs")).body.staging_configs).toMatchObject([
      { zone_id: ZONE, image_id: IMAGE, num_sessions: 2, expiration: 4 },
    ]);
    expect((await cli.run(["stack", "export", "--stack", "dev"])).stdout).not.toContain(PASSWORD);

    const destroy = await measuredStep(emulator, figures, "destroy", () => cli.steps("destroy"));
    expect(destroy.code, destroy.stdout + destroy.stderr).toBe(0);
    expect((await emulator.specCall("get_staging_configs")).body.staging_configs).toEqual([]);
    expect(((await emulator.specCall("get_users")).body.users as { username: string }[]).map((u) => u.username)).not.toContain("ada");
  });
});
