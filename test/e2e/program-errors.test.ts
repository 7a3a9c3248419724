/**
 * A lookup that fails in a real Pulumi program, through the test engine: the run ends with the
 * lookup's own message (the lookup's name, then the client's error), without a stack, and the
 * client's error stays reachable as `cause` for a program that catches it. Nothing here is timed;
 * bench/program-errors.ts prints how long each kind of failure takes to be reported.
 * Needs a current dist/ (`npm run build`): the program loads `pulumi-kasm` from it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestEngine } from "../../testing/engine";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { PASSPHRASE, SLOW, expectOk, tempDir } from "./helpers";

/** A key that can read users but not zones. */
const NO_ZONES = { name: "no-zones", key: "no-zones-key", secret: "no-zones-secret-d41d8cd98f00", permissions: ["Users View"] };

let emulator: TestEmulator;
let tmp: ReturnType<typeof tempDir>;

beforeAll(async () => {
  tmp = tempDir("program-errors");
  emulator = await startTestEmulator({ zones: [{ zone_name: "default" }], apiKeys: [NO_ZONES] });
});

afterAll(async () => {
  await emulator?.close();
  tmp?.remove();
});

/** A program whose index.ts is `source`, run with `key` against the emulator. */
function engine(name: string, source: string, key: { key: string; secret: string }): TestEngine {
  const dir = path.join(tmp.dir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "Pulumi.yaml"), "name: program-errors\nruntime: nodejs\n");
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "program-errors", main: "index.ts" }));
  writeFileSync(path.join(dir, "index.ts"), source);
  return new TestEngine({
    programDir: dir,
    project: "program-errors",
    stack: "dev",
    stateFile: path.join(tmp.dir, `${name}.json`),
    passphrase: PASSPHRASE,
    config: { "kasm:baseUrl": emulator.url, "kasm:apiKey": key.key, "kasm:apiKeySecret": key.secret, "kasm:maxRetries": "1" },
    secretKeys: ["kasm:apiKeySecret"],
  });
}

describe("a lookup failing in a program", () => {
  it(
    "reports a 403 of getZoneOutput as the lookup's message alone, naming the permission, without the secret",
    async () => {
      const result = await engine(
        "forbidden",
        `import * as kasm from "pulumi-kasm";\nexport const zoneId = kasm.getZoneOutput({ name: "default" }).apply((z) => z.zoneId);\n`,
        NO_ZONES,
      ).up();
      expect(result.ok).toBe(false);
      expect(result.errors.map((e) => e.message)).toEqual([
        `getZone: get_zones: the server at ${emulator.url} refused the call (HTTP 403 "Unauthorized."). The API key needs all of: Zones View; grant those it lacks.`,
      ]);
      const everything = JSON.stringify(result.errors) + JSON.stringify(result.logs) + result.programOutput;
      expect(everything).not.toContain(NO_ZONES.secret);
    },
    SLOW,
  );

  it(
    "reports a zone Kasm does not have by the lookup's name and the zone's",
    async () => {
      const result = await engine(
        "missing",
        `import * as kasm from "pulumi-kasm";\nexport const zoneId = kasm.getZoneOutput({ name: "nowhere" }).apply((z) => z.zoneId);\n`,
        ADMIN,
      ).up();
      expect(result.ok).toBe(false);
      expect(result.errors.map((e) => e.message)).toEqual(['getZone: Kasm has no zone "nowhere"']);
    },
    SLOW,
  );

  it(
    "keeps the client's error as the cause for a program that catches the lookup's",
    async () => {
      const result = await engine(
        "caught",
        [
          `import * as kasm from "pulumi-kasm";`,
          `import { KasmPermissionError } from "pulumi-kasm/api";`,
          `export const caught = kasm.getZone({ name: "default" }).then(`,
          `  () => "no error",`,
          `  (e) => [e instanceof kasm.KasmLookupError, e.lookup, e.cause instanceof KasmPermissionError, e.cause.status, e.cause.toGrant.join()].join(" "),`,
          `);`,
          ``,
        ].join("\n"),
        NO_ZONES,
      ).up();
      expectOk(result);
      expect(result.outputs.caught).toBe("true getZone true 403 Zones View");
    },
    SLOW,
  );
});
