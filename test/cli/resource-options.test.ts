/**
 * One truth about engines, for the resource options: the same programs (test/helpers/
 * options-programs.ts) through the `pulumi` CLI and through the test engine, each against an
 * emulator of its own, give the same operation per resource, the same failures, the same users
 * in Kasm and the same stack outputs after every step. The CLI's side is asserted on its own as well: destroy refuses each
 * protected resource and Kasm keeps it, while the unprotected ones are deleted.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { OPTIONS_PROGRAMS, writeProgram } from "../helpers/options-programs";
import { TestEngine } from "../../testing/engine";
import { PASSPHRASE, SLOW, tempDir } from "../e2e/helpers";
import { hasPulumi, stackOn } from "./pulumi-cli";

type Operation = "preview" | "up" | "destroy";

/** What one step did, as both engines can tell it. */
interface Trace {
  readonly ok: boolean;
  readonly ops: Record<string, string>;
  /** The resources with an error. */
  readonly failed: string[];
  /** The users in Kasm, username to first name. */
  readonly users: Record<string, string>;
  /** The stack's outputs after an `up` that succeeded; none after any other step. */
  readonly outputs: Record<string, unknown>;
}

interface Scenario {
  readonly name: string;
  readonly steps: readonly (readonly [Operation, string])[];
  /** What the CLI's trace must show, beyond matching the test engine's. */
  readonly expect: (traces: Trace[]) => void;
}

const SCENARIOS: readonly Scenario[] = [
  {
    name: "protect: destroy deletes the unprotected resource and refuses the protected one",
    steps: [
      ["up", OPTIONS_PROGRAMS.aliceProtected],
      ["destroy", OPTIONS_PROGRAMS.aliceProtected],
    ],
    expect: ([, destroy]) => {
      expect(destroy.ok).toBe(false);
      expect(destroy.failed).toEqual(["alice"]);
      expect(destroy.ops).toMatchObject({ bob: "delete" });
      expect(Object.keys(destroy.users).sort()).toEqual(["alice", "existing"]);
    },
  },
  {
    name: "protect: a stack whose resources are all protected deletes nothing",
    steps: [
      ["up", OPTIONS_PROGRAMS.allProtected],
      ["destroy", OPTIONS_PROGRAMS.allProtected],
    ],
    expect: ([, destroy]) => {
      expect(destroy.ok).toBe(false);
      expect(destroy.failed).toEqual(["alice", "bob"]);
      expect(Object.keys(destroy.users).sort()).toEqual(["alice", "bob", "existing"]);
    },
  },
  {
    name: "protect: a program that drops a protected resource fails at preview and at up",
    steps: [
      ["up", OPTIONS_PROGRAMS.aliceProtected],
      ["preview", OPTIONS_PROGRAMS.bobOnly],
      ["up", OPTIONS_PROGRAMS.bobOnly],
    ],
    expect: ([, preview, up]) => {
      expect([preview.ok, up.ok]).toEqual([false, false]);
      expect(up.failed).toEqual(["alice"]);
      expect(Object.keys(up.users).sort()).toEqual(["alice", "bob", "existing"]);
    },
  },
  {
    name: "retainOnDelete: a dropped resource leaves the stack and stays in Kasm",
    steps: [
      ["up", OPTIONS_PROGRAMS.bobRetained],
      ["up", OPTIONS_PROGRAMS.aliceOnly],
    ],
    expect: ([, up]) => {
      expect(up.ops).toMatchObject({ bob: "delete" });
      expect(Object.keys(up.users).sort()).toEqual(["alice", "bob", "existing"]);
    },
  },
  {
    name: "ignoreChanges: an ignored change is no change",
    steps: [
      ["up", OPTIONS_PROGRAMS.bobIgnoresFirstName("Bob")],
      ["up", OPTIONS_PROGRAMS.bobIgnoresFirstName("Robert")],
    ],
    expect: ([, up]) => {
      expect(up.ops).toMatchObject({ bob: "same" });
      expect(up.users.bob).toBe("Bob");
    },
  },
  {
    name: "aliases: a renamed resource with its old name as an alias stays the same object",
    steps: [
      ["up", OPTIONS_PROGRAMS.aliceOnly],
      ["up", OPTIONS_PROGRAMS.aliceRenamed],
    ],
    expect: ([, up]) => {
      expect(up.ops).toMatchObject({ "alice-renamed": "same" });
      expect(up.ops.alice).toBeUndefined();
    },
  },
  {
    name: "urn: an object made from the URN of a resource this run registered has its state, in a preview and in an up",
    steps: [
      ["preview", OPTIONS_PROGRAMS.aliceByUrn],
      ["up", OPTIONS_PROGRAMS.aliceByUrn],
    ],
    expect: ([preview, up]) => {
      expect(preview.ok).toBe(true);
      expect(preview.ops).toEqual({ "options-test-dev": "create", alice: "create" });
      expect(up.ok).toBe(true);
      expect(up.ops).toEqual({ "options-test-dev": "create", alice: "create" });
      expect(up.outputs).toEqual({ usernameByUrn: "alice", sameUserId: true });
    },
  },
  {
    name: "urn: the URN of a resource only the state holds is unknown, the run fails and deletes nothing",
    steps: [
      ["up", OPTIONS_PROGRAMS.aliceOnly],
      ["up", OPTIONS_PROGRAMS.formerAliceByUrn],
    ],
    expect: ([, up]) => {
      expect(up.ok).toBe(false);
      expect(up.ops.alice).toBeUndefined();
      expect(up.users).toMatchObject({ alice: "Alice" });
    },
  },
];

const SEED = { users: [{ username: "existing", first_name: "Seeded" }] };

async function usersOf(emulator: TestEmulator): Promise<Record<string, string>> {
  const res = await emulator.specCall("get_users");
  return Object.fromEntries(res.body.users.map((u: any) => [u.username, u.first_name]));
}

const nameOf = (urn: string) => urn.split("::").pop()!;

/** The scenario through the test engine. */
async function throughTestEngine(scenario: Scenario, dir: string): Promise<Trace[]> {
  const emulator = await startTestEmulator(SEED);
  try {
    const engine = new TestEngine({
      programDir: path.join(dir, "program"),
      project: "options-test",
      stack: "dev",
      stateFile: path.join(dir, "state.json"),
      passphrase: PASSPHRASE,
      config: { "kasm:baseUrl": emulator.url, "kasm:apiKey": ADMIN.key, "kasm:apiKeySecret": ADMIN.secret, "kasm:maxRetries": "1" },
      secretKeys: ["kasm:apiKeySecret"],
    });
    const traces: Trace[] = [];
    for (const [operation, body] of scenario.steps) {
      writeProgram(dir, body);
      const result = await engine[operation]();
      traces.push({
        ok: result.ok,
        ops: Object.fromEntries(result.resources.map((r) => [nameOf(r.urn), r.op])),
        failed: [...new Set(result.errors.filter((e) => e.urn).map((e) => nameOf(e.urn)))].sort(),
        users: await usersOf(emulator),
        outputs: operation === "up" && result.ok ? result.outputs : {},
      });
    }
    return traces;
  } finally {
    await emulator.close();
  }
}

/** The scenario through the `pulumi` CLI. */
async function throughCli(scenario: Scenario, dir: string): Promise<Trace[]> {
  const emulator = await startTestEmulator(SEED);
  try {
    const cli = await stackOn(emulator.url, ADMIN, writeProgram(dir, scenario.steps[0][1]), path.join(dir, "work"), PASSPHRASE);
    const traces: Trace[] = [];
    for (const [operation, body] of scenario.steps) {
      writeProgram(dir, body);
      const steps = await cli.steps(operation);
      const ok = steps.code === 0;
      traces.push({
        ok,
        ops: steps.ops,
        failed: Object.keys(steps.errors).sort(),
        users: await usersOf(emulator),
        outputs: operation === "up" && ok ? await cli.outputs() : {},
      });
    }
    return traces;
  } finally {
    await emulator.close();
  }
}

describe.skipIf(!hasPulumi)("resource options: the pulumi CLI and the test engine agree", () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeAll(() => {
    tmp = tempDir("options");
  });
  afterAll(() => tmp?.remove());

  for (const [index, scenario] of SCENARIOS.entries()) {
    it(scenario.name, { timeout: SLOW }, async () => {
      const [cli, engine] = await Promise.all([
        throughCli(scenario, path.join(tmp.dir, `cli-${index}`)),
        throughTestEngine(scenario, path.join(tmp.dir, `engine-${index}`)),
      ]);
      scenario.expect(cli);
      expect(engine).toEqual(cli);
    });
  }
});
