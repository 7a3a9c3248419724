/**
 * `defineKind`: one kind's provider from its declared inputs (`declareFields`: each input's zod
 * type, role, field rule and doc, once), its kind-level docs and four typed methods.
 *
 * What every kind does the same way is derived here once: `check` validates with the kind's zod
 * schema ({@link checkInputs}), `diff` compares field by field ({@link diffInputs}), and `update`
 * learns which API fields changed and sends nothing when only provider flags (`adopt`,
 * `forceDelete`) changed. For a kind whose object is one Kasm record, `read` is derived from how
 * the record is fetched and shown ({@link RecordRules}), and the take-over from its natural key
 * and lookup ({@link AdoptionRules}). A kind writes only what is its own: how to create, update and
 * delete its object (and read it, when it is not one record), with the inputs typed as its schema
 * says, and what each of those steps calls (its calls declaration, `<kind>.calls.ts`): each step
 * is handed a client that refuses any other operation (`withDeclaredCalls` in `connections.ts`).
 *
 * And the objects that exist already, are gone, or were half created: `adopt` (taking over an
 * object with the same natural key: {@link createOrAdopt}, which the derived `create` hands a kind
 * bound to its {@link AdoptionRules}), the errors a user can act on when one exists without it,
 * and the errors that keep a half-created object in the state. They live here because the
 * take-over `defineKind` derives runs through them; the kinds' own steps use the same functions
 * (`GONE`, `unlessGone`, `initializationFailure`, ...).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { KasmAlreadyExistsError, KasmNotFoundError } from "../../api/errors/answers";
import { KasmApiError } from "../../api/errors/base";
import { KasmVocabularyError } from "../../api/errors/vocabulary";
import { checkInputs } from "./check-wording";
import { KasmInitializationError, KasmNotAdoptedError } from "./errors";
import { isUnknown } from "./check-wording";
import { checksBeforeChanges, lookups, withDeclaredCalls } from "./connections";
import {
  changedFields,
  diffInputs,
  isAsDeclared,
  keptOutputs,
  onlyProviderFlagsChanged,
  placeholdersOf,
  refreshedInputs,
  withLeftOutValues,
  withStoredDefaults,
  type FieldRule,
} from "./fields";
import type { Kind, KindContext, KindDiffResult, KindManifest, KindTexts, ManifestField, ObjectDocs, Props, RefreshedInputs } from "./types";
import { refusedWithoutProductOperations, type ProductOnly } from "./product-only";
import { previewTakeOver, refusedTakeOver, takeOverChanges } from "./take-over";
import { interruptedCreateOf, type AnswersInterruptedCreates } from "./interrupted-create";
import type { KindCalls } from "../../../permissions/planned-calls";

/** How each of a kind's inputs compares (see {@link FieldRule}), keyed by input name. */
export type FieldRules<Inputs> = { readonly [K in keyof Inputs & string]?: FieldRule };

/**
 * A kind's inputs as `defineKind` reads them: what `declareFields` (fields.ts) derives from the
 * kind's one declaration per input, so that the schema, the rules, the docs and the secrets cannot
 * disagree on which inputs there are.
 */
export interface KindFields<Inputs> {
  /** The kind's inputs: `check` validates with it before any request is sent. */
  readonly schema: z.ZodType<Inputs>;
  /** Inputs that name the object (a user's id, a membership's two ids): a change to one replaces it. */
  readonly keyFields: FieldRules<Inputs>;
  /** Fields sent to Kasm, and how each compares; `update` is told which of them changed. */
  readonly apiFields: FieldRules<Inputs>;
  /** Inputs that only steer the provider (`adopt`, `forceDelete`): compared by `diff`, never sent. */
  readonly providerFields: FieldRules<Inputs>;
  /** Each input's doc (`KindDocs.inputs`). */
  readonly docs: { readonly [K in keyof Inputs & string]-?: string };
  /** The docs of the object types of inputs whose items are objects (`KindDocs.inputObjects`). */
  readonly inputObjects: { readonly [K in keyof Inputs & string]?: ObjectDocs };
  /** The secret inputs. */
  readonly secrets: readonly string[];
}

/**
 * What the state holds for a resource, as the engine hands it back: the declared inputs and the
 * outputs the provider added (a state written by an older version may lack some).
 */
export type KindState<Inputs, Outputs> = RefreshedInputs<Inputs> & Partial<Outputs>;

/**
 * What a create gives the engine, and what each kind's `outputs()` helper builds: the declared
 * inputs and every output the kind adds. A missing or misspelt output fails to compile. `read` and
 * `update` give a {@link KindState}, as they may hand back a state kept as it was.
 */
export type KindOutputs<Inputs, Outputs> = RefreshedInputs<Inputs> & Outputs;

/**
 * When an update sends nothing and keeps the state's outputs ({@link keptOutputs}):
 * - `"only-provider-flags-changed"` (the default): every API field is as in the state, declared or not;
 * - `"no-api-field-changed"`: no declared API field changed (an API field the program stopped
 *   declaring needs no request either: Kasm keeps its value);
 * - `"never"`: the kind's `update` always runs (it has no provider flags, or handles them itself).
 */
export type SendsNothingWhen = "only-provider-flags-changed" | "no-api-field-changed" | "never";

/**
 * A kind whose object is one Kasm record, `KasmRecord` (a user, a group, a staging config): `read`
 * fetches the record by id (`GONE` when Kasm has none), reports the declared inputs as Kasm has
 * them (what Kasm cannot show stays as declared: {@link refreshedInputs}), and the outputs built
 * from the record.
 */
export interface RecordRules<Inputs, Outputs, KasmRecord> {
  /** The record's id: the resource's id. */
  id(record: KasmRecord): string;
  /** The record with this id, or undefined when Kasm has none. */
  fetch(id: string, state: KindState<Inputs, Outputs>, context: KindContext): Promise<KasmRecord | undefined>;
  /**
   * The record's fields as inputs: what `read` reports and adoption compares. `declared` (the
   * state's inputs, or the program's) gives the spelling to keep where Kasm names the same value.
   */
  asInputs(declared: RefreshedInputs<Inputs>, record: KasmRecord): RefreshedInputs<Inputs>;
  /** The declared inputs and every output the kind adds, from the record. */
  outputs(inputs: RefreshedInputs<Inputs>, record: KasmRecord): KindOutputs<Inputs, Outputs>;
}

/**
 * How `adopt: true` takes over an existing object with the same natural key. `check` of an adopted
 * object about to be created reads it and names each field the take-over will change, or refuses
 * it (take-over.ts); `create` takes it over, or refuses an existing object without `adopt` (see
 * {@link createOrAdopt}). Both use the one lookup, `find`.
 */
export interface AdoptionRules<Inputs, KasmRecord> {
  /** The kind, as the catalogue names it (for which inputs are secret). */
  readonly kind: string;
  /** How an error names the kind (`Egress gateway`); default: {@link kind}. */
  readonly noun?: string;
  /** The natural key, for messages: `'alice'`, `for zone ... and image ...`. */
  key(inputs: Inputs): string;
  /** API fields Kasm never shows: not compared. */
  readonly unreadable?: readonly (keyof Inputs & string)[];
  /** Which other resources may declare the same object, for the error (see {@link Adoption.declaredBy}). */
  readonly declaredBy?: string;
  /** The object with the same natural key, if there is one. */
  find(inputs: Inputs, context: KindContext): Promise<KasmRecord | undefined>;
  /**
   * {@link find} as the check before a create asks it (without `adopt`), where the kind can answer
   * many checks from one listing shared by a deployment (a `User`'s username and the other kinds'
   * keys, see `KeyLookups` in `provider/api/client.ts`), so that checking
   * before N creates costs a few requests instead of N. Default: {@link find}.
   */
  findBeforeCreate?(inputs: Inputs, context: KindContext): Promise<KasmRecord | undefined>;
  /** Look the key up before every create, and name an existing object so (see {@link Adoption.findFirst}). */
  findFirst?(existing: KasmRecord): string;
  /**
   * An existing object with the natural key is always taken over, `adopt` or not, for a kind whose
   * natural key is all that names it (a link such as an egress provider mapping, one per provider
   * and target): the object there is the declared one, made by an earlier `up` whose answer was
   * lost or outside Pulumi, and is brought to the declared state (no write when it is in it
   * already; `takeOverChanges` applies). `adopt` then has no effect, and no `findFirst` refusal.
   */
  readonly alwaysTakesOver?: boolean;
  /** The inputs Kasm's record is compared with, when they are not the declared ones (a default filled in). */
  compared?(inputs: Inputs): RefreshedInputs<Inputs>;
}

/** A kind's two steps of a create with adoption: bring an existing object to the declared state, or create one. */
export interface CreateOrAdoptSteps<KasmRecord> {
  update(existing: KasmRecord): Promise<KasmRecord>;
  create(): Promise<KasmRecord>;
}

/** {@link createOrAdopt} with the kind's {@link AdoptionRules} and the inputs filled in. */
export type CreateOrAdopt<KasmRecord> = (steps: CreateOrAdoptSteps<KasmRecord>) => Promise<KasmRecord>;

/** What a kind gives {@link defineKind}: the common part, and how it reads its object ({@link ReadsItself} or {@link ReadsRecord}). */
export type KindDefinition<Inputs extends Props, Outputs extends object, KasmRecord = never> = KindMethods<Inputs, Outputs, KasmRecord> &
  (ReadsItself<Inputs, Outputs> | ReadsRecord<Inputs, Outputs, KasmRecord>);

/** A kind that reads its object itself: a link between two objects, a setting of another object. */
export interface ReadsItself<Inputs, Outputs> {
  /** Refresh: the object as Kasm has it, or `GONE`. */
  read(id: string, state: KindState<Inputs, Outputs>, context: KindContext): Promise<pulumi.dynamic.ReadResult<KindState<Inputs, Outputs>>>;
  readonly record?: undefined;
  readonly adoption?: undefined;
}

/** A kind whose object is one Kasm record: its `read` is derived from {@link RecordRules}. */
export interface ReadsRecord<Inputs, Outputs, KasmRecord> {
  /** How to fetch the record and show it as inputs and outputs. */
  readonly record: RecordRules<Inputs, Outputs, KasmRecord>;
  /**
   * How `adopt: true` finds the object it takes over (see {@link AdoptionRules}): one lookup for
   * `check`, which names each field the take-over will change (take-over.ts), and for `create`.
   */
  readonly adoption?: AdoptionRules<Inputs, KasmRecord>;
  readonly read?: undefined;
}

/**
 * What every kind gives {@link defineKind}, whichever way it reads its object. A kind lists its
 * definition in one order: the members below from `fields` to `adjustDiff`, then its
 * {@link ReadsRecord} rules (`record`, `adoption`), then what its methods call (`calls`), then
 * its methods in the engine's order (`create`, `read`, `update`, `delete`);
 * `test/module-layout.test.ts` checks it.
 */
export interface KindMethods<Inputs extends Props, Outputs extends object, KasmRecord> {
  /** The kind's inputs, each declared once (`declareFields`): its schema, rules by role, docs and secrets. */
  readonly fields: KindFields<Inputs>;
  /** What the provider adds to the inputs, with their types ({@link NO_OUTPUTS} when nothing). */
  readonly outputs: z.ZodType<Outputs>;
  /** What the SDK and the native schema say of the kind as a whole (see {@link KindTexts}); each input's doc is its declaration's. */
  readonly docs: KindTexts;
  /**
   * For a kind only a released Kasm's operations manage (see {@link ProductOnly}): with the spec's
   * vocabulary, `check` refuses it before any plan, naming the setting and the way out.
   */
  readonly productOnly?: ProductOnly;
  /** When `update` sends nothing; default `"only-provider-flags-changed"`. */
  readonly sendsNothingWhen?: SendsNothingWhen;
  /** A rule of the kind's own after the schema's: it receives the schema's result and may add failures or defaults. */
  readonly extraCheck?: (result: pulumi.dynamic.CheckResult, news: Props, olds: Props, context: KindContext) => pulumi.dynamic.CheckResult;
  /**
   * What the native provider's preview of an update tells the policy packs (see
   * {@link KindManifest.previewNotes}): a policy sees the new properties only.
   */
  readonly previewNotes?: (state: Props, news: Props) => Readonly<Record<string, unknown>>;
  /** Adjusts the derived diff, for a kind whose replacement rules go beyond {@link FieldRule.replaces}. */
  readonly adjustDiff?: (diff: KindDiffResult, olds: KindState<Inputs, Outputs>, news: Inputs) => KindDiffResult;
  /**
   * What each step below calls: the kind's calls declaration, beside its file
   * (`<kind>.calls.ts`). Each step's client refuses an operation it does not list for the step
   * (see `withDeclaredCalls` in `connections.ts`), and the permission policies read it.
   */
  readonly calls: KindCalls;
  /**
   * Create the object from inputs that passed `check`. `createOrAdopt` runs the two steps given:
   * for a kind with {@link ReadsRecord.adoption}, it takes an existing object over or refuses it
   * ({@link createOrAdopt}); for any other, it creates.
   */
  create(inputs: Inputs, context: KindContext, createOrAdopt: CreateOrAdopt<KasmRecord>): Promise<pulumi.dynamic.CreateResult<KindOutputs<Inputs, Outputs>>>;
  /**
   * Bring the object to `news`, which passed `check`. `changedFields`: the declared API fields
   * whose value differs from the state's. Not called when the update sends nothing (see {@link SendsNothingWhen}).
   */
  update(
    id: string,
    olds: KindState<Inputs, Outputs>,
    news: Inputs,
    changedFields: (keyof Inputs & string)[],
    context: KindContext,
  ): Promise<pulumi.dynamic.UpdateResult<KindState<Inputs, Outputs>>>;
  /** Destroy the object (or only forget it, for what Kasm cannot delete). */
  delete(id: string, state: KindState<Inputs, Outputs>, context: KindContext): Promise<void>;
}

/** The names of some field rules, typed as the inputs they name (`Object.keys` gives only `string[]`). */
export function fieldNames<Rules extends object>(rules: Rules): (keyof Rules & string)[] {
  return Object.keys(rules) as (keyof Rules & string)[];
}

/** The rules as {@link diffInputs} takes them: the optional keys of {@link FieldRules} are all present. */
function asRules<Inputs>(rules: FieldRules<Inputs> | undefined): Readonly<Record<string, FieldRule>> {
  return (rules ?? {}) as Readonly<Record<string, FieldRule>>;
}

/** Field rules as the manifest lists them: each with its role and whether its change replaces (as `diff` decides). */
function manifestFields(rules: Readonly<Record<string, FieldRule>>, role: ManifestField["role"]): Record<string, ManifestField> {
  return Object.fromEntries(
    Object.entries(rules).map(([name, rule]) => [
      name,
      {
        role,
        replaces: rule.replaces === true,
        ...("storedDefault" in rule ? { alwaysSet: true } : {}),
        ...(rule.refersTo === undefined ? {} : { refersTo: rule.refersTo }),
      },
    ]),
  );
}

/**
 * What a kind's manifest says of its inputs, from its declared fields and its kind-level docs: the
 * schema, the docs with each input's, the role of each input, and the secrets. `defineKind` builds
 * its manifest with it, and so do the bulk kinds, which write their provider by hand.
 */
export function manifestOfFields<Inputs extends object>(
  fields: KindFields<Inputs>,
  docs: KindTexts,
): Pick<KindManifest<Inputs>, "schema" | "docs" | "fields" | "secrets"> {
  return {
    schema: fields.schema,
    docs: { ...docs, inputs: fields.docs, ...(Object.keys(fields.inputObjects).length > 0 ? { inputObjects: fields.inputObjects } : {}) },
    fields: {
      ...manifestFields(asRules(fields.keyFields), "key"),
      ...manifestFields(asRules(fields.apiFields), "api"),
      ...manifestFields(asRules(fields.providerFields), "provider"),
    },
    secrets: fields.secrets,
  };
}

/** What a kind's `read` does, as the engine calls it. */
type ReadMethod<Inputs, Outputs> = ReadsItself<Inputs, Outputs>["read"];

/**
 * The kind's `read`: its own, or the one derived from its record rules: the record, or `GONE`; the
 * declared inputs as Kasm has them (what it cannot show stays as declared); the outputs.
 */
function readOf<Inputs extends Props, Outputs extends object, KasmRecord>(
  definition: KindDefinition<Inputs, Outputs, KasmRecord>,
  inputKeys: readonly string[],
): ReadMethod<Inputs, Outputs> {
  if (definition.record === undefined) return definition.read.bind(definition);
  const record = definition.record;
  return async (id, state, context) => {
    const found = await record.fetch(id, state, context);
    if (found === undefined) return GONE;
    const inputs = refreshedInputs(state, inputKeys as (keyof Inputs & string)[], record.asInputs(state, found));
    return { id: record.id(found), props: record.outputs(inputs, found), inputs };
  };
}

/**
 * A kind's provider: `check` and `diff` derived from the definition's schema and field rules,
 * `update` handed the typed inputs and the changed API fields, and spared when nothing Kasm holds
 * changed (see {@link SendsNothingWhen}).
 */
export function defineKind<Inputs extends Props, Outputs extends object = Record<never, never>, KasmRecord = never>(
  definition: KindDefinition<Inputs, Outputs, KasmRecord>,
): Kind<Inputs, KindState<Inputs, Outputs>, Outputs> & Partial<AnswersInterruptedCreates> {
  const { fields } = definition;
  const apiFields = asRules(fields.apiFields);
  const keyFields = asRules(fields.keyFields);
  const providerFields = asRules(fields.providerFields);
  // Only the provider flags are not what Kasm holds: the key and the API fields are.
  const kasmFields = { ...keyFields, ...apiFields };
  const inputFields = { ...kasmFields, ...providerFields };
  const inputKeys = Object.keys(inputFields);
  // What each field's rule says beyond its comparison: a stand-in while unknown, a meaning when left out.
  const placeholders = placeholdersOf(inputFields);
  const compareAs = (props: Props) => withLeftOutValues(props, inputFields);
  const sendsNothingWhen = definition.sendsNothingWhen ?? "only-provider-flags-changed";
  const read = readOf(definition, inputKeys);
  const adopting =
    definition.record !== undefined && definition.adoption !== undefined ? { record: definition.record, adoption: definition.adoption } : undefined;
  /** The inputs Kasm's record is compared with when adopting: as declared, or with the kind's defaults. */
  const comparedInputs = (inputs: Inputs): RefreshedInputs<Inputs> => adopting?.adoption.compared?.(inputs) ?? inputs;

  /** `createOrAdopt` with the kind's adoption rules: the lookup, the key and the comparison as `check` makes them. */
  function createOrAdoptWith(inputs: Inputs, context: KindContext, steps: CreateOrAdoptSteps<KasmRecord>): Promise<KasmRecord> {
    if (adopting === undefined) return steps.create();
    const { record, adoption } = adopting;
    const wanted = comparedInputs(inputs);
    const takesOver = adoption.alwaysTakesOver === true || inputs.adopt === true;
    return createOrAdopt<KasmRecord>(
      {
        adopt: takesOver,
        kind: adoption.noun ?? adoption.kind,
        key: adoption.key(inputs),
        declaredBy: adoption.declaredBy,
        find: () => adoption.find(inputs, context),
        idOf: record.id,
        findFirst: adoption.findFirst,
        // The check looked the key up, but its finding no longer stands (the create waited, or the
        // listing that answered was old): the create asks the listing the deployment shares, read
        // again once it is as old as a finding may be, rather than a lookup of its own per create.
        ...(!takesOver && adoption.findBeforeCreate && checksBeforeChanges(context) ? { find: () => adoption.findBeforeCreate!(inputs, context) } : {}),
        // The check of this create looked the key up moments ago and found nothing: not again.
        ...(inputs.adopt !== true && lookups.absentLately(context, adoption.noun ?? adoption.kind, adoption.key(inputs))
          ? { find: async () => undefined }
          : {}),
        // An object already as declared (in the fields the program declares) is taken over without a request.
        asDeclared: (existing) => isAsDeclared(wanted, record.asInputs(wanted, existing), apiFields),
        ...steps,
      },
      context,
    );
  }

  /**
   * For an object about to be created without `adopt`, of a kind that refuses an existing object
   * with the same natural key (`findFirst`): whether Kasm holds one already, as the refusal's
   * words, so that the preview fails on what `create` would refuse after other resources were
   * applied. One lookup by natural key per such create, only while the installation is read
   * before changes (`checkBeforeChanges`) and every input is known; none for an update.
   */
  async function existingWithoutAdopt(olds: Props, inputs: Inputs, context: KindContext): Promise<string | undefined> {
    const adoption = adopting?.adoption;
    const named = adoption?.findFirst;
    if (adoption === undefined || named === undefined || adoption.alwaysTakesOver === true || inputs.adopt === true || Object.keys(olds).length > 0)
      return undefined;
    if (!checksBeforeChanges(context) || Object.values(inputs).some(isUnknown)) return undefined;
    const noun = adoption.noun ?? adoption.kind;
    const key = adoption.key(inputs);
    const asked = lookups.askedAt(context);
    const existing = await (adoption.findBeforeCreate ?? adoption.find)(inputs, context);
    if (existing === undefined) {
      lookups.rememberAbsent(context, noun, key, asked);
      return undefined;
    }
    const refusal = alreadyExistsError({
      kind: noun,
      key,
      cause: named(existing),
      declaredBy: adoption.declaredBy,
      context,
      id: adopting?.record.id(existing),
    });
    return `${context.label(noun, key)}: ${refusal.message}`;
  }

  // Each step's client allows only what the kind's calls declaration lists for it (`withDeclaredCalls` in connections.ts).
  return withDeclaredCalls({
    manifest: {
      ...manifestOfFields(fields, definition.docs),
      outputs: definition.outputs,
      ...(definition.previewNotes ? { previewNotes: definition.previewNotes } : {}),
      calls: definition.calls,
    },

    async check(olds, news, context) {
      const checked = checkInputs(fields.schema, news, placeholders);
      const stored = { ...checked, inputs: withStoredDefaults(checked.inputs ?? news, inputFields) };
      if (definition.productOnly && context.apiNames() !== "product") return refusedWithoutProductOperations(stored, context, definition.productOnly);
      const result = definition.extraCheck ? definition.extraCheck(stored, news, olds, context) : stored;
      if (adopting === undefined || result.failures?.length) return result;
      const { record, adoption } = adopting;
      const inputs = result.inputs as Inputs;
      const refusal = await previewTakeOver(olds, inputs, context, {
        kind: adoption.kind,
        secrets: fields.secrets,
        takesOver: inputs.adopt === true || adoption.alwaysTakesOver === true,
        key: () => adoption.key(inputs),
        apiFields,
        unreadable: adoption.unreadable,
        find: async () => {
          // An explicit adopt reads the object afresh; a kind that always takes over asks as the checks before creates do.
          const asked = lookups.askedAt(context);
          const existing = await (inputs.adopt !== true && adoption.findBeforeCreate ? adoption.findBeforeCreate : adoption.find)(inputs, context);
          // For the create that follows, as existingWithoutAdopt does (an adopted create looks again).
          if (existing === undefined && inputs.adopt !== true) lookups.rememberAbsent(context, adoption.noun ?? adoption.kind, adoption.key(inputs), asked);
          return existing === undefined ? undefined : record.asInputs(comparedInputs(inputs), existing);
        },
      });
      if (refusal !== undefined) return { ...result, failures: [{ property: "adopt", reason: refusal }] };
      const existing = await existingWithoutAdopt(olds, inputs, context);
      return existing === undefined ? result : { ...result, failures: [{ property: "adopt", reason: existing }] };
    },

    async diff(_id, olds, news) {
      const result = diffInputs(compareAs(olds), compareAs(news), inputFields);
      return definition.adjustDiff ? definition.adjustDiff(result, olds, news) : result;
    },

    // The engine calls create, read, update and delete only with inputs that passed `check`.
    create: (inputs, context) => definition.create(inputs, context, (steps) => createOrAdoptWith(inputs, context, steps)),

    read,

    async update(id, olds, news, context) {
      const changed = changedFields(olds, news, apiFields) as (keyof Inputs & string)[];
      const sendsNothing =
        sendsNothingWhen === "only-provider-flags-changed"
          ? onlyProviderFlagsChanged(olds, news, kasmFields)
          : sendsNothingWhen === "no-api-field-changed" && changed.length === 0;
      // Kasm has nothing to change: the state's outputs stand, with the declared inputs.
      // (The old state's outputs with the new declared inputs: the kind's state, as keptOutputs copies it.)
      if (sendsNothing) return { outs: keptOutputs(olds, news, inputKeys) as KindState<Inputs, Outputs> };
      return definition.update(id, olds, news, changed, context);
    },

    delete: (id, props, context) => definition.delete(id, props, context),

    // For kasm-recover: the object a killed run's create made, proven by its natural key and every field Kasm shows.
    // A kind that always takes its existing object over needs none: its next create records what it finds.
    ...(adopting === undefined || adopting.adoption.alwaysTakesOver === true
      ? {}
      : {
          interruptedCreate(props: Props, context: KindContext) {
            const { record, adoption } = adopting;
            const inputs = props as Inputs;
            const wanted = comparedInputs(inputs);
            return interruptedCreateOf({
              find: () => adoption.find(inputs, context),
              id: record.id,
              asInputs: (existing) => record.asInputs(wanted, existing),
              wanted,
              apiFields,
              unreadable: adoption.unreadable,
            });
          },
        }),
  });
}

// --- adopt, gone and half-created objects ---------------------------------------------------------------

/** What `read` answers for an object that no longer exists: Pulumi drops it from the state. */
export const GONE: pulumi.dynamic.ReadResult = Object.freeze({ id: "", props: {} });

/** What `fetch` reads, or undefined when Kasm says the object does not exist. */
export async function unlessGone<T>(fetch: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fetch();
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/**
 * What `call` answers; when Kasm says an object it names does not exist, the error `missing` builds
 * (Kasm's as its cause) instead, which names the object and the way out.
 */
export async function orMissing<T>(call: () => Promise<T>, missing: (cause: Error) => Error): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isNotFound(error)) throw missing(error);
    throw error;
  }
}

/** How {@link createOrAdopt} finds, updates and creates one kind's object. */
export interface Adoption<T> {
  /** The `adopt` input: take over an object with the same natural key. */
  readonly adopt: unknown;
  /** The kind and the natural key, for the error when the object exists and `adopt` is not set. */
  readonly kind: string;
  readonly key: string;
  /** Which other resources may declare the same object, for the error (see {@link alreadyExistsError}). */
  readonly declaredBy?: string;
  /** The object with the same natural key, if there is one. */
  find(): Promise<T | undefined>;
  /** The resource's id an object found would have, for the way out the error names (see {@link alreadyExistsError}). */
  idOf?(existing: T): string;
  /**
   * Look the key up before creating even without `adopt`, and refuse an existing object, named by
   * what this returns (`staging config <id>`). Every kind whose create the client recovers by its
   * natural key sets it (users, groups, staging configs, egress objects): after a server error the
   * client looks the key up to learn whether its create committed (see `createOnce`), and would take
   * an object that existed before for its own, so a program would manage, and its destroy delete,
   * an object made outside Pulumi without `adopt`. A released Kasm also fails a duplicate staging
   * config with a server error (a unique constraint its code does not check first), and no source
   * says how it answers a duplicate egress provider, gateway, mapping or credential. Costs one read
   * per create, with the View permission every Create permission needs anyway.
   */
  findFirst?(existing: T): string;
  /**
   * Whether the existing object is already in the declared state (see {@link isAsDeclared}): it is
   * then taken over as it is, and nothing is written. Without this hook, adopting always updates.
   */
  asDeclared?(existing: T): boolean;
  /** Bring the existing object to the declared state. */
  update(existing: T): Promise<T>;
  create(): Promise<T>;
}

/**
 * Create an object; with `adopt`, take over the existing one with the same natural key instead and
 * bring it to the declared state (no request when it is in that state already, see
 * {@link Adoption.asDeclared}; refused, with nothing written, when it is not and the
 * `takeOverChanges` setting is `refuse`: see framework/take-over.ts). Without `adopt`, an existing object
 * is an error that suggests it.
 */
export async function createOrAdopt<T>(how: Adoption<T>, context: KindContext): Promise<T> {
  const refused = (cause: unknown, existing: T | undefined) =>
    alreadyExistsError({
      kind: how.kind,
      key: how.key,
      cause,
      declaredBy: how.declaredBy,
      context,
      id: existing === undefined ? undefined : how.idOf?.(existing),
    });
  if (how.adopt === true || how.findFirst) {
    const existing = await how.find();
    if (existing !== undefined && how.adopt !== true) throw refused(how.findFirst?.(existing), existing);
    if (existing !== undefined) {
      if (how.asDeclared?.(existing)) return existing;
      // Refused in check already when it could read; here for a plan made without that read.
      if (takeOverChanges(context) === "refuse") throw new KasmNotAdoptedError(`${how.kind} ${how.key}: ${refusedTakeOver(context, how.kind, how.key, [])}`);
      return how.update(existing);
    }
  }
  try {
    return await how.create();
  } catch (error) {
    if (isAlreadyExists(error)) throw refused(error, how.idOf ? await how.find().catch(() => undefined) : undefined);
    throw error;
  }
}

/** Whether a Kasm error says the object does not exist. */
export function isNotFound(error: unknown): error is KasmNotFoundError {
  return error instanceof KasmNotFoundError;
}

/** Whether a Kasm error says an object with the same natural key exists already. */
export function isAlreadyExists(error: unknown): boolean {
  return error instanceof KasmAlreadyExistsError;
}

/** What {@link alreadyExistsError} says of an object that exists already. */
export interface AlreadyExists {
  /** The kind and the natural key: `User`, `'ada'`. */
  readonly kind: string;
  readonly key: string;
  /**
   * Kasm's refusal of the create, whose words the message quotes; or, when the object was found
   * before any create, the words that name it (`staging config <id>`).
   */
  readonly cause?: unknown;
  /**
   * For a kind whose object another resource may declare too (`another StagingConfig of this
   * zone and image`): the error then says to keep one of them first, since `adopt` would leave
   * both resources managing the object and undoing each other.
   */
  readonly declaredBy?: string;
  /**
   * The resource's context: the installation's address, so that the message names where the
   * object is (a program may manage several), and the `pulumi import` command where the CLI has one.
   */
  readonly context?: KindContext;
  /** The resource's id the object would have (its Kasm id), when known: the import command takes it. */
  readonly id?: string;
  /** False when `adopt` cannot take the object over here (a casting config where none can be read): no way out after an interrupted up is named. */
  readonly adoptable?: boolean;
}

/**
 * The error for an object that exists already when `adopt` is not set: where it is, how to take
 * it over (`adopt: true`), and what to do when an earlier `pulumi up` made it and was interrupted
 * before it could record it (Pulumi keeps such a create as pending, and shows it at the next up).
 * The CLI's `pulumi refresh --import-pending-creates <urn> <id>` is not named: with Pulumi 3.276
 * it drops the pending create without recording the resource (measured, test/cli/interrupted.test.ts);
 * `adopt: true`, or a native resource's `pulumi import`, records it, and `pulumi refresh
 * --clear-pending-creates` drops the pending create. Never a secret: the key and id only.
 */
export function alreadyExistsError(what: AlreadyExists): KasmNotAdoptedError {
  const { kind, key, cause, declaredBy, context, id, adoptable = true } = what;
  const installation = context?.client().baseUrl;
  const detail =
    (installation === undefined ? "" : ` at ${installation}`) +
    (typeof cause === "string" ? ` (${cause})` : cause instanceof KasmApiError && cause.errorMessage ? ` (Kasm: ${cause.errorMessage})` : "");
  const importCommand = context?.importCommand?.(id ?? "<its id>");
  const interrupted = !adoptable
    ? ""
    : ` If an earlier \`pulumi up\` was interrupted while creating it (the next \`up\` lists it as "interrupted while creating"), ` +
      (importCommand === undefined ? "\`adopt: true\` takes it over too" : `\`${importCommand}\` takes it into the state as it is (or set \`adopt: true\`)`) +
      `, and \`pulumi refresh --yes --clear-pending-creates\` drops the pending create that \`up\` left.`;
  if (declaredBy)
    return new KasmNotAdoptedError(
      `${kind} ${key} already exists in Kasm${detail}. If another resource declares it (${declaredBy}), keep only one of ` +
        `them: with both, each undoes the other's changes, and adopt would not stop that. If it was made outside Pulumi, set ` +
        `\`adopt: true\` on the resource to take it over and bring it to the declared state.${interrupted}`,
      typeof cause === "string" ? undefined : cause,
    );
  return new KasmNotAdoptedError(
    `${kind} ${key} already exists in Kasm${detail}. Set \`adopt: true\` on the resource to take it over and bring it ` +
      `to the declared state, or declare another ${kind.toLowerCase()}.${interrupted}`,
    typeof cause === "string" ? undefined : cause,
  );
}

/**
 * An error that keeps a half-created object in the state: Pulumi records `id` and `properties`
 * and reports the resource as failed to initialise, instead of forgetting an object that exists
 * (see {@link KasmInitializationError}). Its message is the cause's.
 */
export function initializationFailure(id: string, properties: object, cause: unknown): KasmInitializationError {
  return new KasmInitializationError(id, properties, cause);
}

/**
 * Run a create whose answer may show that the installation speaks the other wire vocabulary
 * (`kasm:apiNames`): the object then exists, but settings named the other way were not applied.
 * `created` finds the object in the answer; the error keeps it in the state as failed to
 * initialise (see {@link initializationFailure}), so nothing is left untracked, and the next
 * update, with the right setting, applies what was declared.
 */
export async function keepingWhatWasCreated<T>(
  create: () => Promise<T>,
  created: (answer: unknown) => { readonly id: string; readonly properties: object } | undefined,
): Promise<T> {
  try {
    return await create();
  } catch (error) {
    const kept = error instanceof KasmVocabularyError ? created(error.answer) : undefined;
    throw kept ? initializationFailure(kept.id, kept.properties, error) : error;
  }
}
