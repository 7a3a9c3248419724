/**
 * Every error class names its instances after itself: the base classes (`KasmApiError`,
 * `KasmResourceError`) set `name` from the constructed class, once for all their subclasses, and
 * users, logs and tests tell the errors apart by that name (`KasmNotAdoptedError: ...`).
 */
import { describe, expect, it } from "vitest";
import * as api from "../../provider/api";
import * as framework from "../../provider/resources/framework";

/** The exported classes of a module that make errors. */
function errorClasses(module: Record<string, unknown>): [string, new (...args: unknown[]) => Error][] {
  return Object.entries(module).filter(
    (entry): entry is [string, new (...args: unknown[]) => Error] => typeof entry[1] === "function" && entry[1].prototype instanceof Error,
  );
}

/**
 * Arguments every constructor takes without throwing (the name does not depend on them): the
 * details of a refused call first, as most of the client's errors take them.
 */
const ARGUMENTS = [
  {
    operation: "get_user",
    status: 400,
    errorMessage: "refused",
    attempts: 1,
    issues: [],
    configured: "spec",
    wireName: "get_user",
    foreignNames: [],
    field: "target_user.user_id",
    value: "x",
    object: "user",
  },
  "message",
  {},
];

describe("error names", () => {
  const classes = [...errorClasses(api), ...errorClasses(framework)];

  it("finds the client's and the kinds' error classes", () => {
    expect(classes.length).toBeGreaterThanOrEqual(30);
    expect(classes.map(([exported]) => exported)).toEqual(
      expect.arrayContaining(["KasmApiError", "KasmUnknownUserError", "KasmResourceError", "KasmInitializationError"]),
    );
  });

  it.each(classes)("%s names its instances after itself", (exported, ErrorClass) => {
    const error = new ErrorClass(...ARGUMENTS);
    expect(error.name).toBe(exported);
    expect(String(error).startsWith(`${exported}: `)).toBe(true);
  });
});
