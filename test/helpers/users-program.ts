/**
 * A Pulumi program of many `User` resources, each with a `GroupMembership` of one of four team
 * groups, written to a folder for the test engine: the shape of stack whose refresh the provider
 * serves from `get_users` pages. Shared by test/e2e/user-refresh.test.ts and bench/provider.ts.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { TestEngine } from "../../testing/engine";
import { ADMIN, startTestEmulator, type TestEmulator } from "./emulator";
import { API_NAMES_CONFIG } from "./vocabulary";

/** The team groups every seed of this program has, by name. */
export const TEAM_GROUPS = {
  Engineering: "b0000000000040000000000000000001",
  Support: "b0000000000040000000000000000002",
  Sales: "b0000000000040000000000000000003",
  Finance: "b0000000000040000000000000000004",
} as const;

/** The username of the i-th user of the program (sorted like its index). */
export function programUsername(i: number): string {
  return `person${String(i).padStart(5, "0")}`;
}

/** The group of the i-th user. */
export function programGroupId(i: number): string {
  const ids = Object.values(TEAM_GROUPS);
  return ids[i % ids.length];
}

/** Write the program of `count` users and memberships into `dir` (created as needed); returns `dir`. */
export function writeUsersProgram(dir: string, count: number): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "Pulumi.yaml"), "name: kasm-many-users\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n");
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify(
      { name: "kasm-many-users", private: true, main: "index.ts", dependencies: { "@pulumi/pulumi": "^3.216.0", "pulumi-kasm": "^0.1.0" } },
      null,
      2,
    ),
  );
  writeFileSync(
    path.join(dir, "index.ts"),
    `import * as kasm from "pulumi-kasm";

const groups = ${JSON.stringify(Object.values(TEAM_GROUPS))};
const count = ${count};
for (let i = 0; i < count; i++) {
  const username = "person" + String(i).padStart(5, "0");
  const user = new kasm.User(username, { username, firstName: "Person", lastName: String(i) });
  new kasm.GroupMembership(username + "-team", { userId: user.userId, groupId: groups[i % groups.length] });
}
export const userCount = count;
`,
  );
  return dir;
}

/** An emulator seeded with the team groups (and the harness's admin key). */
export function startUsersEmulator(): Promise<TestEmulator> {
  return startTestEmulator({ groups: Object.entries(TEAM_GROUPS).map(([name, group_id]) => ({ group_id, name })) });
}

/** A test engine for the program in `programDir` against `emulator` with the admin key; state in `stateDir`. */
export function usersEngine(programDir: string, stateDir: string, emulator: TestEmulator): TestEngine {
  return new TestEngine({
    programDir,
    project: "kasm-many-users",
    stack: "dev",
    stateFile: path.join(stateDir, "dev.json"),
    passphrase: "many users correct horse",
    config: { "kasm:baseUrl": emulator.url, "kasm:apiKey": ADMIN.key, "kasm:apiKeySecret": ADMIN.secret, "kasm:maxRetries": "1", ...API_NAMES_CONFIG },
    secretKeys: ["kasm:apiKeySecret"],
  });
}

/** The API operations the emulator served while `run` ran, in order (fault lines left out). */
export async function operationsDuring<T>(emulator: TestEmulator, run: () => Promise<T>): Promise<{ result: T; operations: string[] }> {
  const from = emulator.requests.length;
  const result = await run();
  const operations = emulator.requests
    .slice(from)
    .filter((line) => /^\S+ \d{3} /.test(line))
    .map((line) => line.split(" ")[0]);
  return { result, operations };
}
