/**
 * What every resource provider shares: validation in `check`, field-by-field diffs with
 * normalisation, managed-input bookkeeping, and the errors a user can act on.
 *
 * Conventions of every kind:
 * - Inputs are the camelCase forms of the API's fields. An input the program leaves out is not
 *   managed: the provider neither sends it nor reports drift on it.
 * - Outputs are the managed inputs (refreshed by `read`) plus the kind's computed outputs, under
 *   names that are not inputs (`userId`, `created`, ...). `read` returns the managed inputs too,
 *   so a refresh causes no false diff and drift shows as a change back to the program's value.
 *
 * A kind's provider is built with `defineKind` (define-kind.ts), which derives `check` and `diff`
 * from the kind's zod inputs and field rules, and for a kind of one Kasm record its `read` and its
 * take-over (`record`, `adoption`), with the functions of this folder: `types.ts` (the
 * terms), `check-wording.ts` (check and its wording), `fields.ts` (field rules and diffs, and each
 * input declared once, with the schema, rules, docs, secrets and body derived from it),
 * `define-kind.ts` itself (adopt, gone and half-created objects), `errors.ts` (the errors a kind throws of
 * its own, one class per meaning), `connections.ts` (each step's client allows only what the
 * kind's calls declaration lists for it, and the one read of an installation before a change);
 * `connections.ts` and `lenient-refresh.ts` wrap every kind in the registry.
 */
export * from "./types";
export * from "./check-wording";
export * from "./fields";
// What a kind does with objects that exist already, are gone or were half created: the part of define-kind.ts every kind uses.
export {
  GONE,
  unlessGone,
  orMissing,
  createOrAdopt,
  isNotFound,
  isAlreadyExists,
  alreadyExistsError,
  initializationFailure,
  keepingWhatWasCreated,
  type Adoption,
  type AlreadyExists,
} from "./define-kind";
export * from "./product-only";
export * from "./errors";
export * from "./interrupted-create";
