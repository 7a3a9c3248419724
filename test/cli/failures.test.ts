/**
 * Failures as the `pulumi` CLI shows them: a check failure, a provider error and an error thrown by
 * the program. Each fails the command, names the resource (or the program), says what is wrong in
 * plain text (no `[object Object]`, no escape codes), once in the CLI's Diagnostics section (the
 * CLI also shows a failure on the resource's progress line), and leaves nothing half-done in Kasm.
 *
 * The CLI words a check failure itself: `<type> resource '<name>': property <property> value
 * <the input's value> has a problem: <reason>`, looking the property up among the top-level
 * inputs. For a row of a bulk kind (`users[0].realm`) it finds no value and prints `{<nil>}`, and
 * the reason names the row again; for a `csv` input it prints the whole text. The test pins that
 * wording, so that a change in how the provider names failing properties shows here.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { writeProgram } from "../helpers/options-programs";
import { PASSPHRASE, SLOW } from "../e2e/helpers";
import { hasPulumi, stackOn, type CliResult } from "./pulumi-cli";

// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character is what this looks for (a terminal's colour codes).
const ESCAPE_CODES = /\u001b\[/;
const count = (text: string, part: string) => text.split(part).length - 1;
/** The CLI's Diagnostics section: each error once, after the progress lines. */
const diagnostics = (text: string) => text.slice(text.indexOf("Diagnostics:"));

describe.skipIf(!hasPulumi)("failures through the pulumi CLI", () => {
  let dir: string;
  let emulator: TestEmulator;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "cli-failures-"));
    emulator = await startTestEmulator({ users: [{ username: "existing", first_name: "Seeded" }] });
  });
  afterAll(async () => {
    await emulator?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** `preview` or `up` of a program in a stack of its own. */
  async function run(name: string, body: string, operation: "preview" | "up", settings: Readonly<Record<string, string>> = {}): Promise<CliResult> {
    const caseDir = path.join(dir, name);
    // As users run a program: type-checked by ts-node first.
    const cli = await stackOn(emulator.url, ADMIN, writeProgram(caseDir, body), path.join(caseDir, "work"), PASSPHRASE, { typeCheck: true });
    for (const [key, value] of Object.entries(settings)) await cli.ok(["config", "set", "--stack", "dev", key, value]);
    return operation === "preview" ? cli.preview() : cli.up();
  }

  it("a check failure fails the preview in the CLI's own wording, naming the resource, the property and the reason once", { timeout: SLOW }, async () => {
    // `as any`: the compiler refuses the realm first (the CLI type-checks the program).
    const result = await run("check", `new kasm.UserSet("team", { users: [{ username: "bob", realm: "nis" as any }] });`, "preview");
    const text = diagnostics(result.stdout + result.stderr);
    expect(result.code).not.toBe(0);
    expect(text).toMatch(/kasm:UserSet \(team\):/);
    expect(text).toContain("resource 'team': property users[0].realm value {<nil>} has a problem: users[0].realm: 'nis' is not one of ldap, local, oidc, saml");
    expect(count(text, "'nis' is not one of")).toBe(1);
    expect(text).not.toMatch(ESCAPE_CODES);
    expect(text).not.toContain("[object Object]");
  });

  it("a provider error fails the up, naming the resource and Kasm's refusal once; the other resource is created", { timeout: SLOW }, async () => {
    const result = await run(
      "provider",
      `new kasm.User("clash", { username: "existing", firstName: "Again" });\nnew kasm.User("fresh", { username: "fresh", firstName: "Fresh" });`,
      "up",
      // Without the read before changes, check cannot see that 'existing' is taken: the create is refused.
      { "kasm:checkBeforeChanges": "false" },
    );
    const text = result.stdout + result.stderr;
    expect(result.code).not.toBe(0);
    expect(diagnostics(text)).toMatch(/kasm:User \(clash\):/);
    expect(count(diagnostics(text), "User 'existing' already exists in Kasm")).toBe(1);
    expect(text).not.toMatch(ESCAPE_CODES);
    expect(text).not.toContain(ADMIN.secret);
    const users = (await emulator.specCall("get_users")).body.users.map((u: { username: string }) => u.username);
    expect(users.sort()).toEqual(["existing", "fresh"]);
  });

  it("a released Kasm's failure for a group that does not exist fails the up, naming the resource and the group once", { timeout: SLOW }, async () => {
    // 1.15 fails add_images_group for a group it does not have with its web server's error page (HTTP 500, not JSON);
    // the provider then reads the group's workspaces to learn whether the add went through, and Kasm answers that the
    // group does not exist.
    const image = "1a2b3c4d5e6f47a8b9c0d1e2f3a4b5c6";
    const missing = "0f0e0d0c0b0a49a8b7c6d5e4f3a2b1c0";
    const product = await startTestEmulator({ images: [{ image_id: image, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" }] }, { apiNames: "product" });
    try {
      const caseDir = path.join(dir, "product-failure");
      const body = `new kasm.GroupWorkspace("engineering-chrome", { groupId: "${missing}", imageId: "${image}" });`;
      const cli = await stackOn(product.url, ADMIN, writeProgram(caseDir, body), path.join(caseDir, "work"), PASSPHRASE);
      await cli.ok(["config", "set", "--stack", "dev", "kasm:apiNames", "product"]);
      const result = await cli.up();
      const text = diagnostics(result.stdout + result.stderr);
      expect(result.code).not.toBe(0);
      expect(text).toMatch(/kasm:GroupWorkspace \(engineering-chrome\):/);
      expect(count(text, "group does not exist")).toBe(1);
      expect(text).toContain(missing);
      expect(text).not.toMatch(ESCAPE_CODES);
      expect(text).not.toContain("<html");
      expect(text).not.toContain(ADMIN.secret);
    } finally {
      await product.close();
    }
  });

  it("a check failure on a secret input names the input and never shows its value", { timeout: SLOW }, async () => {
    const result = await run(
      "secret",
      `import * as pulumi from "@pulumi/pulumi";\nnew kasm.User("pw", { username: "pwuser", password: pulumi.secret(424242 as any) });`,
      "preview",
    );
    const text = result.stdout + result.stderr;
    expect(result.code).not.toBe(0);
    expect(diagnostics(text)).toContain("resource 'pw' has a problem: password must be text (got a whole number)");
    expect(text).not.toContain("424242");
  });

  it("an error thrown by the program fails the preview with its message, once", { timeout: SLOW }, async () => {
    const result = await run("program", `throw new Error("the team list is empty: add a user to team.csv");`, "preview");
    const text = result.stdout + result.stderr;
    expect(result.code).not.toBe(0);
    expect(diagnostics(text)).toContain("the team list is empty: add a user to team.csv");
    expect(count(diagnostics(text), "the team list is empty")).toBe(1);
    expect(text).not.toContain("[object Object]");
  });
});
