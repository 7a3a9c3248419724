/**
 * The test engine's state file on its own: written where the caller says, even when the folder
 * does not exist yet, and read back with secrets decrypted.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { StateStore, type ResourceRecord } from "../../testing/state";
import { SECRET_SIG, SIG } from "../../testing/values";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "engine-state-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it("creates the state file's folder on the first save, and leaves no temporary file", () => {
  const file = path.join(dir, "not", "there", "yet", "dev.json");
  const store = new StateStore(file, "correct horse");
  const secret = { [SIG]: SECRET_SIG, value: "s3cret-value-9c1" };
  const stack: ResourceRecord = {
    urn: "urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev",
    type: "pulumi:pulumi:Stack",
    custom: false,
    id: "",
    inputs: {},
    outputs: { token: secret },
    parent: "",
    dependencies: [],
    propertyDependencies: {},
    additionalSecretOutputs: [],
  };
  store.save([stack]);

  expect(existsSync(file)).toBe(true);
  expect(readdirSync(path.dirname(file))).toEqual(["dev.json"]);
  expect(readFileSync(file, "utf8")).not.toContain("s3cret-value-9c1");
  const [record] = new StateStore(file, "correct horse").load();
  expect(record.outputs.token).toEqual(secret);
});
