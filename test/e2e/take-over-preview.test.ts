/**
 * A take-over that never overwrites in silence, through the test engine (Pulumi's runtime and
 * dynamic-provider host) against the emulator: a program adopts a staging config and a user that
 * were changed in Kasm since the program was written (sessions raised from 3 to 5 by hand, a first
 * name edited). The preview names each field the `up` will change, with Kasm's value and the
 * program's; with `kasm:takeOverChanges` `refuse` the preview and the `up` fail naming them and
 * Kasm is left as it is; without it the `up` applies the program's values.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestEngine } from "../../testing/engine";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { API_NAMES_CONFIG } from "../helpers/vocabulary";
import { SLOW, expectOk, ops, tempDir } from "./helpers";

const ZONE = "0d2f2c0a6c8e4f4e9a0b1c2d3e4f5a6b";
const IMAGE = "1a2b3c4d5e6f47a8b9c0d1e2f3a4b5c6";
const PROJECT = "kasm-take-over";

let emulator: TestEmulator;
let tmp: ReturnType<typeof tempDir>;
let programDir: string;

/** The program as written at import time: 3 sessions, Ada's first name "Ada". */
function writeProgram(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${PROJECT}\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n`);
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: PROJECT, private: true, main: "index.ts", dependencies: { "@pulumi/pulumi": "^3.216.0", "pulumi-kasm": "^0.1.0" } }, null, 2),
  );
  writeFileSync(
    path.join(dir, "index.ts"),
    `import * as kasm from "pulumi-kasm";

new kasm.StagingConfig("chrome", { zoneId: "${ZONE}", imageId: "${IMAGE}", numSessions: 3, expiration: 2, adopt: true });
new kasm.User("ada", { username: "ada", firstName: "Ada", lastName: "Lovelace", adopt: true });
`,
  );
  return dir;
}

function engine(stack: string, config: Record<string, string> = {}): TestEngine {
  return new TestEngine({
    programDir,
    project: PROJECT,
    stack,
    stateFile: path.join(tmp.dir, `${stack}.json`),
    passphrase: "take over correct horse",
    config: {
      "kasm:baseUrl": emulator.url,
      "kasm:apiKey": ADMIN.key,
      "kasm:apiKeySecret": ADMIN.secret,
      "kasm:maxRetries": "1",
      ...API_NAMES_CONFIG,
      ...config,
    },
    secretKeys: ["kasm:apiKeySecret"],
  });
}

/** What Kasm holds now: the config's sessions and Ada's first name. */
async function inKasm(): Promise<{ numSessions: number; firstName: string }> {
  const configs = (await emulator.call("get_staging_configs")).body.staging_configs as { num_sessions: number }[];
  const ada = (await emulator.call("get_user", { target_user: { username: "ada" } })).body.user as { first_name: string };
  return { numSessions: configs[0].num_sessions, firstName: ada.first_name };
}

beforeAll(async () => {
  // Kasm as it is now: changed by hand since the program was written.
  emulator = await startTestEmulator({
    zones: [{ zone_id: ZONE, zone_name: "default" }],
    images: [{ image_id: IMAGE, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" }],
    users: [{ username: "ada", first_name: "Augusta", last_name: "Lovelace" }],
    stagingConfigs: [{ zone_name: "default", image_name: "kasmweb/chrome:1.16.0", num_sessions: 5, expiration: 2 }],
  });
  tmp = tempDir("take-over");
  programDir = writeProgram(path.join(tmp.dir, "program"));
}, 60_000);

afterAll(async () => {
  await emulator?.close();
  tmp?.remove();
});

describe("a take-over of objects changed in Kasm since the program was written", () => {
  it("the preview names each field the up will change, Kasm's value and the program's", { timeout: SLOW }, async () => {
    const preview = await engine("warned").preview();
    expectOk(preview);
    expect(ops(preview)).toMatchObject({ chrome: "create", ada: "create" });
    const warnings = preview.logs.filter((line) => line.severity === "warning").map((line) => line.message);
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^StagingConfig chrome \(for zone .* and image .*\): the take-over \(adopt\) will change numSessions from 5 to 3 in Kasm/),
        expect.stringMatching(/^User ada \('ada'\): the take-over \(adopt\) will change firstName from "Augusta" to "Ada" in Kasm/),
      ]),
    );
    expect(await inKasm()).toEqual({ numSessions: 5, firstName: "Augusta" });
  });

  it("with takeOverChanges refuse, preview and up fail naming the fields and the setting, and Kasm is unchanged", { timeout: SLOW }, async () => {
    const refusing = engine("refused", { "kasm:takeOverChanges": "refuse" });
    const preview = await refusing.preview();
    expect(preview.ok).toBe(false);
    const up = await refusing.up();
    expect(up.ok).toBe(false);
    const messages = up.errors.map((error) => error.message).join("\n");
    expect(messages).toContain("numSessions from 5 to 3");
    expect(messages).toContain('kasm:takeOverChanges is "refuse"');
    expect(messages).toContain("pulumi config set kasm:takeOverChanges apply");
    expect(await inKasm()).toEqual({ numSessions: 5, firstName: "Augusta" });
  });

  it("without it, the up applies the program's values", { timeout: SLOW }, async () => {
    const up = await engine("applied").up();
    expectOk(up);
    expect(await inKasm()).toEqual({ numSessions: 3, firstName: "Ada" });
  });
});
