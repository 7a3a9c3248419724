/**
 * The README's "Bulk onboarding" story, as a reader who reads only the README would follow it: the
 * section's program, copied from README.md into a fresh temporary program, with a users.csv of
 * 200 rows in the format the section shows (its own sample rows first), through the test engine
 * against an emulator seeded with the README's own seed.json (from "Run your own program against
 * the emulator", which says it serves this program: the groups and the zone the section names). `up` creates the 200 users, the server and the assignment; destroy deletes the
 * users and forgets the server (the API cannot delete it); a bad row fails `preview` with its row
 * number. examples/onboarding holds the same program.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestEngine } from "../../testing/engine";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { EXAMPLES, PASSPHRASE, SLOW, expectOk, ops, readmeBlock, readmeSection, resource, tempDir, userNamed, usersCsvLike, warnings } from "./helpers";

const sectionText = readmeSection;
const codeBlock = readmeBlock;

const SECTION = "### Bulk onboarding";
const PROGRAM = codeBlock(SECTION, "ts");
const CSV_SAMPLE = codeBlock(SECTION, "csv").trim().split("\n");
/** The error the section quotes for a bad row, such as `csv row 17 (line 18), column username: username is required (it is empty)`. */
const BAD_ROW_ERROR = /`(csv row (\d+) \(line \d+\), column username: [^`]+)`/.exec(sectionText(SECTION).replace(/\s*\n\s*/g, " "));
/** The seed.json the README gives under "Run your own program against the emulator", which it says serves this program too. */
const SEED = JSON.parse(codeBlock("## Run your own program against the emulator", "json"));

/** The sample's header and rows, then generated rows in its format up to `count` rows. */
const usersCsv = (count: number) => usersCsvLike(CSV_SAMPLE, count);

let emulator: TestEmulator;
let tmp: ReturnType<typeof tempDir>;
/** The stack of the story, kept for its destroy. */
let story: TestEngine;

/** A fresh program folder holding the README's program and `csv` as users.csv. */
function program(name: string, csv: string): string {
  const dir = path.join(tmp.dir, name);
  mkdirSync(dir);
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "readme-onboarding", main: "index.ts" }));
  writeFileSync(path.join(dir, "index.ts"), PROGRAM);
  writeFileSync(path.join(dir, "users.csv"), csv);
  return dir;
}

function engineFor(programDir: string): TestEngine {
  return new TestEngine({
    programDir,
    project: "readme-onboarding",
    stack: path.basename(programDir),
    stateFile: path.join(tmp.dir, `${path.basename(programDir)}.json`),
    passphrase: PASSPHRASE,
    config: { "kasm:baseUrl": emulator.url, "kasm:apiKey": ADMIN.key, "kasm:apiKeySecret": ADMIN.secret, "kasm:maxRetries": "1" },
    secretKeys: ["kasm:apiKeySecret"],
  });
}

beforeAll(async () => {
  tmp = tempDir("readme-onboarding");
  emulator = await startTestEmulator(SEED);
});

afterAll(async () => {
  await emulator?.close();
  tmp?.remove();
});

describe("README: Bulk onboarding", () => {
  it("is the program of examples/onboarding", () => {
    expect(readFileSync(path.join(EXAMPLES, "onboarding", "index.ts"), "utf8")).toContain(PROGRAM.trim());
  });

  it("declares 200 users from a CSV file and a server, and assigns one user to that server", { timeout: SLOW }, async () => {
    const csv = usersCsv(200);
    expect(csv.trim().split("\n")).toHaveLength(201);
    story = engineFor(program("story", csv));
    const up = await story.up();
    expectOk(up);
    const state = await emulator.state();
    expect(Object.keys(state.users)).toHaveLength(200); // the seed has none
    const [sampleUser] = CSV_SAMPLE[1].split(",");
    const servers = Object.values<any>(state.servers);
    expect(servers).toHaveLength(1);
    const assigned = Object.values<any>(state.users).filter((u) => u.server_ids.length > 0);
    expect(assigned.map((u) => u.username)).toEqual([sampleUser]);
    expect(assigned[0].server_ids).toEqual([servers[0].server_id]);
    expect(userNamed(state, sampleUser).group_ids.length).toBe(2);
    expect(Object.values(ops(up))).not.toContain("delete");
    expect(up.outputs).toEqual({ userCount: 200 });
    expect(Object.keys(resource(up, "staff").outputs.userIds as object)).toHaveLength(200);
  });

  it("destroy deletes the users and forgets the server, which stays in Kasm, with a warning naming it", { timeout: SLOW }, async () => {
    const serverId = Object.keys((await emulator.state()).servers)[0];
    const destroy = await story.destroy();
    expectOk(destroy);
    const state = await emulator.state();
    expect(Object.keys(state.users)).toEqual([]);
    expect(Object.keys(state.servers)).toEqual([serverId]);
    expect(warnings(destroy).filter((w) => w.includes("cannot delete servers"))).toEqual([expect.stringContaining("build-box")]);
  });

  it("a row without a username fails the preview with the row number and the message the section quotes", { timeout: SLOW }, async () => {
    expect(BAD_ROW_ERROR, "the section quotes the error of a row without a username").not.toBeNull();
    const [, message, row] = BAD_ROW_ERROR!;
    const lines = usersCsv(200).split("\n");
    lines[Number(row)] = lines[Number(row)].replace(/^[^,]*/, ""); // line 0 is the header
    const before = await emulator.state();
    const preview = await engineFor(program("bad-row", lines.join("\n"))).preview();
    expect(preview.ok).toBe(false);
    expect(preview.errors.map((e) => e.message).join("\n")).toContain(message);
    expect(await emulator.state()).toEqual(before);
  });
});
