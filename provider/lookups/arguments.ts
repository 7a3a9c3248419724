/**
 * Rules of the lookups' argument schemas. Apart from common.ts, which the SDK loads with the
 * package: this file loads zod, which a program that calls no lookup never needs.
 */
import { z } from "zod";

/**
 * The arguments of a lookup that finds one object by either of two keys: exactly one of them is
 * given. The issue is reported on the first, so that a failure names an argument.
 */
export function eitherKey<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.strictObject(shape).superRefine(exactlyOneOf(Object.keys(shape)));
}

/** A rule of an arguments' schema (`superRefine`): exactly one of `names` is given. */
function exactlyOneOf(names: readonly string[]) {
  return (value: Record<string, unknown>, context: z.RefinementCtx): void => {
    const given = names.filter((name) => value[name] !== undefined);
    if (given.length === 1) return;
    const message = given.length === 0 ? `give one of ${names.join(" or ")}` : `give only one of ${given.join(" and ")}`;
    context.addIssue({ code: "custom", message, path: [names[0]] });
  };
}
