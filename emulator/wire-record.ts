/**
 * The machinery of a record's wire form: which fields a record shows, in the spec's order, and
 * which only observed mode adds. The field lists themselves are in fields.ts.
 */

/** The values a serialiser supplies for a record: every documented and observed field, no other. */
export type RecordValues<D extends string, O extends string> = { [K in D | O]: unknown };

/**
 * One record's wire form: its documented fields in the spec's order, and the fields observed
 * mode adds, each with the evidence that the real product sends it.
 */
export class WireRecord<D extends string, O extends string = never> {
  /** Builds the spec-only form. */
  private readonly specOnly: (values: Record<string, unknown>) => Record<string, unknown>;
  /** Builds the observed form: the documented fields, then the observed ones. */
  private readonly withObserved: (values: Record<string, unknown>) => Record<string, unknown>;

  constructor(
    /** The record's name, as the README and the tests call it. */
    readonly name: string,
    /** The fields the spec lists for the record. */
    readonly documented: readonly D[],
    /** Fields beyond the spec that observed mode adds, with the evidence for each. */
    readonly observed: Readonly<Record<O, string>> = {} as Record<O, string>,
  ) {
    this.specOnly = picker(documented);
    this.withObserved = picker([...documented, ...Object.keys(observed)]);
  }

  /**
   * The record as the wire shows it: the documented fields, then (in observed mode) the observed
   * ones. A field whose value is `undefined` is left out: that is how a field shown only with a
   * permission (such as a user's `groups`) is hidden. Only the listed fields are copied, so a
   * stored record can be handed over as it is: what the wire must not show (a password's hash, a
   * secret the serialiser masks over) never leaves unless a listed field names it.
   */
  form(values: RecordValues<D, O>, observedFields: boolean): Record<string, unknown> {
    return (observedFields ? this.withObserved : this.specOnly)(values as Record<string, unknown>);
  }
}

/**
 * A function that copies `fields` of an object, in order, leaving out undefined values. It is
 * generated from the constant field lists of this file (never from request data) because a copy
 * with the field names written out keeps each record's shape fixed; a loop over the names was
 * twice as slow on a page of 1,000 users.
 */
function picker(fields: readonly string[]): (values: Record<string, unknown>) => Record<string, unknown> {
  const body = fields
    .map((field) => {
      const key = JSON.stringify(field);
      return `v = source[${key}]; if (v !== undefined) json[${key}] = v;`;
    })
    .join("\n");
  return new Function("source", `const json = {}; let v;\n${body}\nreturn json;`) as (values: Record<string, unknown>) => Record<string, unknown>;
}
