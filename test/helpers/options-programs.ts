/**
 * Programs that set the resource options deciding what a delete or an update may do, or that make
 * a resource's object from its URN (`urn`), for the test engine (test/engine/resource-options.test.ts)
 * and the `pulumi` CLI (test/cli/resource-options.test.ts) alike: two users, alice and bob, under
 * the options each case needs.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/** alice's URN in the stack `dev` of the project `options-test` (see {@link writeProgram}). */
const ALICE_URN = "urn:pulumi:dev::options-test::pulumi-nodejs:dynamic/kasm:User::alice";

const user = (name: string, firstName: string, options = "") =>
  `new kasm.User("${name}", { username: "${name}", firstName: "${firstName}" }${options ? `, ${options}` : ""});`;

/** The bodies of index.ts (after the imports), by case. */
export const OPTIONS_PROGRAMS = {
  aliceProtected: [user("alice", "Alice", "{ protect: true }"), user("bob", "Bob")].join("\n"),
  allProtected: [user("alice", "Alice", "{ protect: true }"), user("bob", "Bob", "{ protect: true }")].join("\n"),
  nothingProtected: [user("alice", "Alice"), user("bob", "Bob")].join("\n"),
  bobOnly: user("bob", "Bob"),
  aliceOnly: user("alice", "Alice"),
  bobRetained: [user("alice", "Alice"), user("bob", "Bob", "{ retainOnDelete: true }")].join("\n"),
  bobIgnoresFirstName: (firstName: string) => user("bob", firstName, `{ ignoreChanges: ["firstName"] }`),
  /** alice renamed `alice-renamed`, with her old name as an alias (the user in Kasm is the same). */
  aliceRenamed: `new kasm.User("alice-renamed", { username: "alice", firstName: "Alice" }, { aliases: [{ name: "alice" }] });`,
  /**
   * alice, and a second object of her resource made from her URN (`urn`): the stack exports its
   * username and whether its user id is alice's.
   */
  aliceByUrn: [
    `const alice = ${user("alice", "Alice")}`,
    `const aliceByUrn = alice.urn.apply((urn) => new kasm.User("alice-by-urn", { username: "alice" }, { urn }));`,
    `export const usernameByUrn = aliceByUrn.apply((byUrn) => byUrn.username);`,
    `export const sameUserId = aliceByUrn.apply((byUrn) => byUrn.userId).apply((id) => alice.userId.apply((aliceId) => id !== undefined && id === aliceId));`,
  ].join("\n"),
  /** No alice any more, only an object made from the URN she had: a URN this run has not registered. */
  formerAliceByUrn: `export const usernameByUrn = new kasm.User("alice-by-urn", { username: "alice" }, { urn: "${ALICE_URN}" }).username;`,
} as const;

/**
 * Write a program (Pulumi.yaml, package.json, index.ts with `body`) to `<dir>/program`, over any
 * earlier one; returns its folder.
 */
export function writeProgram(dir: string, body: string, project = "options-test"): string {
  const programDir = path.join(dir, "program");
  mkdirSync(programDir, { recursive: true });
  writeFileSync(path.join(programDir, "Pulumi.yaml"), `name: ${project}\nruntime: nodejs\n`);
  writeFileSync(path.join(programDir, "package.json"), JSON.stringify({ name: project, main: "index.ts" }));
  writeFileSync(path.join(programDir, "index.ts"), `import * as kasm from "pulumi-kasm";\n${body}\n`);
  return programDir;
}
