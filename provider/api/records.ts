/**
 * The one mapping between the API's snake_case records and the camelCase names that programs,
 * resources and lookups use. Every conversion of field names goes through this module:
 *
 * - {@link camelized}: a whole record (nested objects and arrays too) in camelCase, as the lookups
 *   return it;
 * - {@link fromApiFields}: the named camelCase fields of a record, values as the API sent them, as
 *   a resource's `read` reports them;
 * - {@link toApiBody}: the declared camelCase inputs of a resource as the snake_case body of a
 *   request.
 *
 * The types follow the zod schemas of the records, so a misspelt field name fails to compile.
 *
 * @example
 * ```ts
 * const config = await client.staging.getStagingConfig({ staging_config_id });
 * const current = fromApiFields(config, ["numSessions", "expiration"]); // { numSessions: number; expiration: number }
 * const body = toApiBody({ numSessions: 2, zoneId }, ["numSessions", "zoneId"]); // { num_sessions: 2, zone_id: ... }
 * ```
 */

/** `first_name` -> `firstName`, at the type level (the same rule as {@link toCamelCase}). */
export type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/** `firstName` -> `first_name`, at the type level (the same rule as {@link toSnakeCase}). */
export type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Uppercase<Head> ? (Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`) : Head}${SnakeCase<Tail>}`
  : S;

/**
 * The named fields of a record type, in camelCase, values unchanged. The API schemas may keep
 * unknown fields (an index signature); only the named fields are typed here.
 */
export type CamelKeyed<T> = { [K in keyof T as string extends K ? never : K extends string ? CamelCase<K> : never]: T[K] };

/** The camelCase names of a record type's named fields. */
export type CamelField<T> = keyof CamelKeyed<T> & string;

/** An API record with camelCase keys, all the way down (arrays and nested objects too). */
export type Camelized<T> = T extends readonly (infer E)[]
  ? Camelized<E>[]
  : T extends object
    ? { [K in keyof T as string extends K ? never : K extends string ? CamelCase<K> : K]: Camelized<T[K]> }
    : T;

/** `casting_config_name` -> `castingConfigName`: an API field's camelCase name. */
export function toCamelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** `castingConfigName` -> `casting_config_name`: the API's name of a camelCase field. */
export function toSnakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * A parsed API record (or a list of them) with every key in camelCase, at any depth. Values other
 * than objects and arrays are kept as they are.
 */
export function camelized<T>(record: T): Camelized<T> {
  if (Array.isArray(record)) return record.map(camelized) as Camelized<T>;
  if (record && typeof record === "object")
    return Object.fromEntries(Object.entries(record).map(([key, value]) => [toCamelCase(key), camelized(value)])) as Camelized<T>;
  return record as Camelized<T>;
}

/**
 * The named fields of an API record, by their camelCase names, with the values the API sent
 * (nested objects are not renamed: a field such as a free-form configuration keeps its keys). A
 * field the record lacks is left out of the result.
 *
 * @example fromApiFields(gateway, ["name", "country"]) // { name: "eu-1", country: "DE" }
 */
export function fromApiFields<T extends object, F extends CamelField<T>>(record: T, fields: readonly F[]): Pick<CamelKeyed<T>, F> {
  const wanted = new Set<string>(fields);
  const picked: Record<string, unknown> = {};
  // Through the record's own keys, so that a field is found by the same rule as camelized() names it.
  for (const [key, value] of Object.entries(record)) {
    const name = toCamelCase(key);
    if (wanted.has(name)) picked[name] = value;
  }
  return picked as Pick<CamelKeyed<T>, F>;
}

/**
 * The body of a request for the declared inputs among `keys`: snake_case names, values unchanged,
 * inputs left undefined (not declared by the program) left out.
 *
 * @example toApiBody({ zoneId: "ab…", numSessions: undefined }, ["zoneId", "numSessions"]) // { zone_id: "ab…" }
 */
export function toApiBody(inputs: Readonly<Record<string, unknown>>, keys: Iterable<string>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const key of keys) if (inputs[key] !== undefined) body[toSnakeCase(key)] = inputs[key];
  return body;
}
