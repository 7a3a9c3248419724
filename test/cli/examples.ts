/**
 * The examples through the real `pulumi` CLI, when one is on PATH (a local file backend and the
 * passphrase secrets provider, see pulumi-cli.ts): preview changes nothing in Kasm, up, a second
 * up with `--expect-no-changes`, refresh, an edit of the program and its up where the example has
 * a natural one, destroy back to the seeded emulator; for licensing, a third stack refused by Kasm
 * without showing the activation key. One truth about engines: the same steps through the test
 * engine, against an emulator of its own, give the same operation per resource, the same success
 * or failure and the same objects in Kasm after each step. The test engine's files
 * (test/e2e/<example>.test.ts) cover each scenario in depth.
 *
 * The examples are split over two test files (examples-*.test.ts) so that vitest's two workers
 * share them: each example takes a minute or more through the CLI.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { TestEngine, type RunResult } from "../../testing/engine";
import {
  PASSPHRASE,
  SLOW,
  comparable,
  copyExample,
  editFile,
  exampleDir,
  projectOf,
  seedOf,
  startExampleEmulator,
  tempDir,
  type ExampleName,
} from "../e2e/helpers";
import { PulumiCli, hasPulumi } from "./pulumi-cli";

const ACTIVATION_KEY: string = seedOf("licensing").activationKeys![0].activation_key;

interface Case {
  readonly example: ExampleName;
  /** Project configuration (without the project prefix), and which of it is secret. */
  readonly config?: Record<string, string>;
  readonly secret?: readonly string[];
  /** What the stack outputs after the first up, given the emulator's state. */
  readonly outputs: (state: any) => Record<string, unknown>;
  /** What destroy cannot remove from Kasm. */
  readonly leaves?: { licenses?: boolean; egressCredentials?: boolean };
  /** A second installation (`kasm-production:`), seeded with the example's seed-production.json. */
  readonly production?: boolean;
  /** The wire vocabulary of every installation of the case (the emulators' and `apiNames`); default the spec's. */
  readonly apiNames?: "product";
  /** An edit of index.ts for the edit-and-up step (each `from` exactly once). */
  readonly edit?: readonly (readonly [from: string, to: string])[];
}

const byName = (state: any, area: string, key: string, value: string) => Object.values<any>(state[area]).find((o) => o[key] === value);

const CASES: readonly Case[] = [
  {
    example: "quickstart",
    edit: [[`firstName: "Bob",`, `firstName: "Robert",`]],
    config: { alicePassword: "wonderland-cli-password-1", bobPassword: "builder-cli-password-2" },
    secret: ["alicePassword", "bobPassword"],
    outputs: (s) => ({
      aliceId: byName(s, "users", "username", "alice").user_id,
      bobId: byName(s, "users", "username", "bob").user_id,
      terminalImage: "kasmweb/terminal:1.16.0",
      zoneId: byName(s, "zones", "zone_name", "default").zone_id,
    }),
  },
  { example: "casting-kiosk", outputs: () => ({ castKey: "lobby-kiosk", stagedSessions: 3 }) },
  {
    example: "egress-vpn",
    config: { wireguardPrivateKey: "yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=" },
    secret: ["wireguardPrivateKey"],
    outputs: (s) => ({ providerId: byName(s, "egressProviders", "name", "Corporate VPN").egress_provider_id, gateways: ["Frankfurt", "Amsterdam"] }),
    leaves: { egressCredentials: true },
  },
  {
    example: "licensing",
    config: { activationKey: ACTIVATION_KEY, seats: "60", issuedTo: "Branch A" },
    secret: ["activationKey"],
    outputs: (s) => ({ licenseId: byName(s, "licenses", "issued_to", "Branch A").license_id, seatLimit: 60, licenseType: "Per Concurrent Session" }),
    leaves: { licenses: true },
  },
  { example: "bulk-users", outputs: () => ({ userCount: 1000 }) },
  {
    example: "two-installations",
    production: true,
    config: {
      stagingZoneId: seedOf("two-installations").zones![0].zone_id!,
      stagingImageId: seedOf("two-installations").images![0].image_id!,
      productionZoneId: productionSeed("two-installations").zones[0].zone_id,
      productionImageId: productionSeed("two-installations").images[0].image_id,
    },
    outputs: (s) => ({ userIds: { staging: idsOf(s, ["ada", "grace", "linus"]), production: expect.any(Object) } }),
    edit: [[`{ username: "linus",`, `{ username: "margaret", firstName: "Margaret", lastName: "Hamilton", groups: ["Engineering"] },\n  { username: "linus",`]],
  },
  {
    example: "workspace-catalogue",
    production: true,
    apiNames: "product",
    outputs: (s) => ({
      imageIds: {
        staging: { chrome: byName(s, "images", "friendly_name", "Chrome").image_id, "vs-code": expect.any(String), terminal: expect.any(String) },
        production: expect.any(Object),
      },
    }),
    edit: [["memory: 2_768_000_000", "memory: 4_000_000_000"]],
  },
];

/** The seed of an example's second installation. */
function productionSeed(example: ExampleName): any {
  return JSON.parse(readFileSync(path.join(exampleDir(example), "seed-production.json"), "utf8"));
}

const idsOf = (state: any, usernames: readonly string[]) => Object.fromEntries(usernames.map((u) => [u, byName(state, "users", "username", u).user_id]));

/** What one step did, as both engines tell it. */
interface Trace {
  readonly step: string;
  readonly ok: boolean;
  /** The operation of each resource, by name. */
  readonly ops: Record<string, string>;
  /** The objects in each installation after the step: how many of each kind, and the usernames. */
  readonly kasm: Record<string, unknown>[];
}

/** What an emulator holds, in terms that do not depend on the ids it made up. */
function shapeOf(state: any): Record<string, unknown> {
  const counts = Object.fromEntries(
    Object.entries<any>(state)
      .filter(([, v]) => v && typeof v === "object")
      .map(([k, v]) => [k, Object.keys(v).length]),
  );
  return {
    ...counts,
    usernames: Object.values<any>(state.users ?? {})
      .map((u) => u.username)
      .sort(),
  };
}

/** The steps every example takes, in order. */
const STEPS = ["preview", "up", "no-change preview", "refresh", "edit and up", "destroy"] as const;
type Step = (typeof STEPS)[number];

/** The emulators of one run of a case: the default installation, and production where the case has one. */
async function startInstallations(c: Case): Promise<TestEmulator[]> {
  const options = c.apiNames ? { apiNames: c.apiNames } : undefined;
  const first = options ? await startTestEmulator(seedOf(c.example), options) : await startExampleEmulator(c.example);
  return c.production ? [first, await startTestEmulator(productionSeed(c.example), options)] : [first];
}

/** The provider settings of a case's stack: each installation's address and key. */
function providerConfig(c: Case, installations: readonly TestEmulator[]): Record<string, string> {
  const key = seedOf(c.example).apiKeys[0];
  const config: Record<string, string> = {
    "kasm:baseUrl": installations[0].url,
    "kasm:apiKey": key.key,
    "kasm:apiKeySecret": key.secret,
    "kasm:maxRetries": "1",
  };
  if (c.apiNames) config["kasm:apiNames"] = c.apiNames;
  if (c.production) {
    const production = productionSeed(c.example).apiKeys[0];
    Object.assign(config, {
      "kasm-production:baseUrl": installations[1].url,
      "kasm-production:apiKey": production.key,
      "kasm-production:apiKeySecret": production.secret,
      "kasm-production:maxRetries": "1",
    });
    if (c.apiNames) config["kasm-production:apiNames"] = c.apiNames;
  }
  return config;
}

const SECRET_PROVIDER_KEYS = ["kasm:apiKeySecret", "kasm-production:apiKeySecret"];
const opsOf = (result: RunResult) => Object.fromEntries(result.resources.map((r) => [nameOf(r.urn), r.op]));

/**
 * A test-engine refresh in the CLI's words: the engine reports `read` for each resource it read
 * (with the outputs that changed) and leaves the stack alone; the CLI reports `same`, or `update`
 * where outputs changed, and the stack as `same` (testing/README.md lists this).
 */
function refreshOps(result: RunResult, stackName: string): Record<string, string> {
  const ops: Record<string, string> = { [stackName]: "same" };
  for (const r of result.resources) ops[nameOf(r.urn)] = r.op === "read" ? (r.changed.length ? "update" : "same") : r.op;
  return ops;
}
const nameOf = (urn: string) => urn.split("::").pop()!;

/** The case through the test engine, step by step (a step without an edit is skipped). */
async function throughTestEngine(c: Case, dir: string): Promise<Trace[]> {
  const installations = await startInstallations(c);
  try {
    const project = projectOf(c.example);
    const config = providerConfig(c, installations);
    for (const [k, v] of Object.entries(c.config ?? {})) config[`${project}:${k}`] = v;
    const programDir = copyExample(c.example, dir, "program");
    const engine = new TestEngine({
      programDir,
      project,
      stack: "dev",
      stateFile: path.join(dir, "dev.json"),
      passphrase: PASSPHRASE,
      config,
      secretKeys: [...SECRET_PROVIDER_KEYS, ...(c.secret ?? []).map((k) => `${project}:${k}`)],
    });
    const operations: Record<Step, () => Promise<RunResult>> = {
      preview: () => engine.preview(),
      up: () => engine.up(),
      "no-change preview": () => engine.preview(),
      refresh: () => engine.refresh(),
      "edit and up": () => (editFile(path.join(programDir, "index.ts"), c.edit!), engine.up()),
      destroy: () => engine.destroy(),
    };
    const traces: Trace[] = [];
    for (const step of STEPS) {
      if (step === "edit and up" && !c.edit) continue;
      const result = await operations[step]();
      const kasm = await Promise.all(installations.map(async (i) => shapeOf(await i.state())));
      traces.push({ step, ok: result.ok, ops: step === "refresh" ? refreshOps(result, `${project}-dev`) : opsOf(result), kasm });
    }
    return traces;
  } finally {
    await Promise.all(installations.map((i) => i.close()));
  }
}

/** The CLI scenarios of the examples named, one `describe` each (skipped without a `pulumi` on PATH). */
export function describeExamples(names: readonly ExampleName[]): void {
  describe.skipIf(!hasPulumi)("the examples through the pulumi CLI", () => {
    let tmp: ReturnType<typeof tempDir>;
    beforeAll(() => {
      tmp = tempDir("cli");
    });
    afterAll(() => tmp?.remove());

    for (const c of CASES.filter((c) => names.includes(c.example))) {
      describe(c.example, () => {
        let emulator: TestEmulator;
        let installations: TestEmulator[] = [];
        afterAll(async () => Promise.all(installations.map((i) => i.close())));

        /** A stack of a copy of the example, configured with the seed's key and the emulator's address. */
        async function cliStack(stack: string, config: Record<string, string> = c.config ?? {}): Promise<PulumiCli> {
          const project = projectOf(c.example);
          const full: Record<string, string> = providerConfig(c, installations);
          for (const [k, v] of Object.entries(config)) full[`${project}:${k}`] = v;
          const cli = new PulumiCli({
            programDir: copyExample(c.example, tmp.dir, `${c.example}-${stack}`),
            stack,
            workDir: path.join(tmp.dir, `${c.example}-${stack}-work`),
            passphrase: PASSPHRASE,
            config: full,
            secretKeys: [...SECRET_PROVIDER_KEYS, ...(c.secret ?? []).map((k) => `${project}:${k}`)],
          });
          await cli.init();
          return cli;
        }

        it("preview, up, a second preview without changes, refresh, an edit, destroy back to the seed; the test engine does the same", {
          timeout: SLOW,
        }, async () => {
          await Promise.all(installations.map((i) => i.close()));
          installations = await startInstallations(c);
          emulator = installations[0];
          const seeded = await Promise.all(installations.map((i) => i.state()));
          const engineRun = throughTestEngine(c, path.join(tmp.dir, `${c.example}-engine`));
          const cli = await cliStack("dev");
          const traces: Trace[] = [];
          const record = async (step: Step, steps: Awaited<ReturnType<PulumiCli["steps"]>>) => {
            const kasm = await Promise.all(installations.map(async (i) => shapeOf(await i.state())));
            traces.push({ step, ok: steps.code === 0, ops: steps.ops, kasm });
            expect(steps.code, `${step}\n${steps.stdout.slice(-4000)}\n${steps.stderr}`).toBe(0);
          };

          await record("preview", await cli.steps("preview"));
          expect(await Promise.all(installations.map((i) => i.state()))).toEqual(seeded);

          await record("up", await cli.steps("up"));
          expect(await cli.outputs()).toEqual(c.outputs(await emulator.state()));
          // No API secret and no secret setting of the program in the stack's state, serialized providers included.
          const exported = (await cli.ok(["stack", "export", "--stack", "dev"])).stdout;
          const secrets = [...SECRET_PROVIDER_KEYS.map((k) => providerConfig(c, installations)[k]), ...(c.secret ?? []).map((k) => c.config![k])].filter(
            Boolean,
          );
          expect(secrets.length).toBeGreaterThan(0);
          for (const secret of secrets) expect(exported).not.toContain(secret);

          await record("no-change preview", await cli.steps("preview", ["--expect-no-changes"]));
          await record("refresh", await cli.steps("refresh"));
          if (c.edit) {
            editFile(path.join(cli.options.programDir, "index.ts"), c.edit);
            await record("edit and up", await cli.steps("up"));
          }
          await record("destroy", await cli.steps("destroy"));
          const after = await Promise.all(installations.map((i) => i.state()));
          expect(after.map((s) => comparable(s, c.leaves))).toEqual(seeded.map((s) => comparable(s, c.leaves)));

          expect(await engineRun).toEqual(traces);
        });

        if (c.example === "licensing") {
          it("two stacks take the 100 seats; a third asking for 1 more is refused, and the key shows nowhere", { timeout: SLOW }, async () => {
            await Promise.all(installations.map((i) => i.close()));
            installations = await startInstallations(c);
            const a = await cliStack("branch-a");
            const b = await cliStack("branch-b", { activationKey: ACTIVATION_KEY, seats: "40", issuedTo: "Branch B" });
            const third = await cliStack("branch-c", { activationKey: ACTIVATION_KEY, seats: "1", issuedTo: "Branch C" });
            expect((await a.up()).code).toBe(0);
            expect((await b.up()).code).toBe(0);
            const refused = await third.up();
            expect(refused.code).not.toBe(0);
            expect(refused.stdout + refused.stderr).toContain("Error during activation");
            expect(refused.stdout + refused.stderr).not.toContain("PARTNER-ENTITLEMENT-100");
            const exported = await third.ok(["stack", "export", "--stack", "branch-c"]);
            expect(exported.stdout).not.toContain("PARTNER-ENTITLEMENT-100");
          });
        }
      });
    }
  });
}
