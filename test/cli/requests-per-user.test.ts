/**
 * What an `up` of N new `User`s costs in requests, through the real `pulumi` CLI, in both forms:
 * the dynamic resources of a TypeScript program and the native provider (a YAML program on the
 * plugin; every language sends what the plugin sends). The floor is the N creates; beside them an
 * `up` may send one `get_users` listing that every create's username check shares (one page per
 * 100 users at most, rounded up) and the installation's one read before changes: at most
 * N + ceil(N/100) + 1. A lookup per create, as the provider once sent, cost 2N + 1.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSPHRASE, SLOW } from "../e2e/helpers";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { pluginFromCheckout } from "./native-yaml-programs";
import { hasPulumi, measuredStep, stackOn } from "./pulumi-cli";

/** Over 100, so that the bound's listing term is 2 pages, not 1. */
const N = 120;
/** The most requests an `up` of `n` new users may send. */
const bound = (n: number) => n + Math.ceil(n / 100) + 1;

const PROGRAMS = {
  "dynamic (TypeScript)": {
    files: {
      "Pulumi.yaml": "name: per-user\nruntime: nodejs\n",
      "package.json": JSON.stringify({ name: "per-user", main: "index.ts" }),
      "index.ts": `import * as kasm from "pulumi-kasm";\nfor (let i = 0; i < ${N}; i++) new kasm.User(\`u\${i}\`, { username: \`per-user-\${i}\`, firstName: "Per" });\n`,
    },
  },
  "native (YAML)": {
    files: {
      "Pulumi.yaml":
        `name: per-user\nruntime: yaml\n${pluginFromCheckout()}resources:\n` +
        Array.from({ length: N }, (_, i) => `  u${i}:\n    type: kasm:index:User\n    properties:\n      username: per-user-${i}\n      firstName: Per\n`).join(
          "",
        ),
    },
  },
} as const;

/** Count the operations by name: `{ create_user: 120 }`. */
function tally(requests: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of requests) {
    const op = line.split(" ")[0];
    counts[op] = (counts[op] ?? 0) + 1;
  }
  return counts;
}

describe.skipIf(!hasPulumi).each(Object.keys(PROGRAMS) as (keyof typeof PROGRAMS)[])(`an up of ${N} new users, %s, through the pulumi CLI`, (form) => {
  let dir: string;
  let emulator: TestEmulator;
  const figures: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "cli-per-user-"));
    emulator = await startTestEmulator({});
  });
  afterAll(async () => {
    console.log(`${N} users, ${form}:\n  ${figures.join("\n  ")}`);
    await emulator?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`sends the ${N} creates and at most ${bound(N) - N} requests more`, { timeout: SLOW * 2 }, async () => {
    const programDir = path.join(dir, "program");
    mkdirSync(programDir, { recursive: true });
    for (const [name, text] of Object.entries(PROGRAMS[form].files)) writeFileSync(path.join(programDir, name), text);
    const cli = await stackOn(emulator.url, ADMIN, programDir, path.join(dir, "work"), PASSPHRASE);

    const up = await measuredStep(emulator, figures, "up", () => cli.steps("up"));
    expect(up.code, up.stdout + up.stderr).toBe(0);
    const counts = tally(up.requests);
    figures.push(`up's requests by operation: ${JSON.stringify(counts)}`);
    expect(counts.create_user).toBe(N);
    expect(up.requests.length).toBeLessThanOrEqual(bound(N));

    // The checks read before a change; a preview that changes nothing sends nothing at all.
    const same = await measuredStep(emulator, figures, "preview (no change)", () => cli.steps("preview"));
    expect(same.code, same.stdout + same.stderr).toBe(0);
    expect(same.requests).toEqual([]);
  });
});
