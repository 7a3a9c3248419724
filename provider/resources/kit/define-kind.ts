/**
 * `defineKind`: one kind's provider from its zod inputs, its field rules and four typed methods.
 *
 * What every kind does the same way is derived here once: `check` validates with the kind's zod
 * schema ({@link checkInputs}), `diff` compares field by field ({@link diffInputs}), and `update`
 * learns which API fields changed and sends nothing when only provider flags (`adopt`,
 * `forceDelete`) changed. A kind writes only what is its own: how to create, read, update and
 * delete its object, with the inputs typed as its schema says.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { checkInputs } from "./check-wording";
import { changedFields, diffInputs, keptOutputs, onlyProviderFlagsChanged, placeholdersOf, withLeftOutValues, withStoredDefaults, type FieldRule } from "./field-rules";
import type { Kind, KindContext, KindDiffResult, KindDocs, ManifestField, Props, RefreshedInputs } from "./types";
import { previewTakeOver } from "./take-over";

/** How each of a kind's inputs compares (see {@link FieldRule}), keyed by input name. */
export type FieldRules<Inputs> = { readonly [K in keyof Inputs & string]?: FieldRule };

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

/** What a kind gives {@link defineKind}. */
export interface KindDefinition<Inputs extends Props, Outputs extends object> {
  /** The kind's inputs: `check` validates with it before any request is sent. */
  readonly schema: z.ZodType<Inputs>;
  /** What the SDK and the native schema say of the kind (see {@link KindDocs}). */
  readonly docs: KindDocs<Inputs, Outputs>;
  /** Inputs that name the object (a user's id, a membership's two ids): a change to one replaces it. */
  readonly keyFields?: FieldRules<Inputs>;
  /** Fields sent to Kasm, and how each compares; `update` is told which of them changed. */
  readonly apiFields: FieldRules<Inputs>;
  /** Inputs that only steer the provider (`adopt`, `forceDelete`): compared by `diff`, never sent. */
  readonly providerFields?: FieldRules<Inputs>;
  /** A rule of the kind's own after the schema's: it receives the schema's result and may add failures or defaults. */
  readonly extraCheck?: (result: pulumi.dynamic.CheckResult, news: Props, olds: Props, context: KindContext) => pulumi.dynamic.CheckResult;
  /** Adjusts the derived diff, for a kind whose replacement rules go beyond {@link FieldRule.replaces}. */
  readonly adjustDiff?: (diff: KindDiffResult, olds: KindState<Inputs, Outputs>, news: Inputs) => KindDiffResult;
  /**
   * How `adopt: true` finds the object it takes over, read as inputs: with it, `check` of an
   * adopted object about to be created names each field the take-over will change, or refuses it
   * (see take-over.ts). The kind's `create` uses the same lookup.
   */
  readonly takeOver?: {
    /** The kind, as the catalogue names it (for which inputs are secret). */
    readonly kind: string;
    /** The natural key, for messages. */
    key(inputs: Inputs): string;
    /** API fields Kasm never shows: not compared. */
    readonly unreadable?: readonly (keyof Inputs & string)[];
    find(inputs: Inputs, context: KindContext): Promise<RefreshedInputs<Inputs> | undefined>;
  };
  /** When `update` sends nothing; default `"only-provider-flags-changed"`. */
  readonly sendsNothingWhen?: SendsNothingWhen;
  /** Create (or adopt) the object from inputs that passed `check`. */
  create(inputs: Inputs, context: KindContext): Promise<pulumi.dynamic.CreateResult<KindOutputs<Inputs, Outputs>>>;
  /** Refresh: the object as Kasm has it, or `GONE`. */
  read(id: string, state: KindState<Inputs, Outputs>, context: KindContext): Promise<pulumi.dynamic.ReadResult<KindState<Inputs, Outputs>>>;
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
  return Object.fromEntries(Object.entries(rules).map(([name, rule]) => [name, { role, replaces: rule.replaces === true, ...("storedDefault" in rule ? { alwaysSet: true } : {}) }]));
}

/**
 * A kind's provider: `check` and `diff` derived from the definition's schema and field rules,
 * `update` handed the typed inputs and the changed API fields, and spared when nothing Kasm holds
 * changed (see {@link SendsNothingWhen}).
 */
export function defineKind<Inputs extends Props, Outputs extends object = Record<never, never>>(
  definition: KindDefinition<Inputs, Outputs>,
): Kind<Inputs, KindState<Inputs, Outputs>, Outputs> {
  const apiFields = asRules(definition.apiFields);
  const keyFields = asRules(definition.keyFields);
  const providerFields = asRules(definition.providerFields);
  // Only the provider flags are not what Kasm holds: the key and the API fields are.
  const kasmFields = { ...keyFields, ...apiFields };
  const inputFields = { ...kasmFields, ...providerFields };
  const inputKeys = Object.keys(inputFields);
  // What each field's rule says beyond its comparison: a stand-in while unknown, a meaning when left out.
  const placeholders = placeholdersOf(inputFields);
  const compareAs = (props: Props) => withLeftOutValues(props, inputFields);
  const sendsNothingWhen = definition.sendsNothingWhen ?? "only-provider-flags-changed";
  return {
    manifest: {
      schema: definition.schema,
      docs: definition.docs,
      fields: {
        ...manifestFields(keyFields, "key"),
        ...manifestFields(apiFields, "api"),
        ...manifestFields(providerFields, "provider"),
      },
    },

    async check(olds, news, context) {
      const checked = checkInputs(definition.schema, news, placeholders);
      const stored = { ...checked, inputs: withStoredDefaults(checked.inputs ?? news, inputFields) };
      const result = definition.extraCheck ? definition.extraCheck(stored, news, olds, context) : stored;
      const takeOver = definition.takeOver;
      if (takeOver === undefined || result.failures?.length) return result;
      const inputs = result.inputs as Inputs;
      const refusal = await previewTakeOver(olds, inputs, context, {
        kind: takeOver.kind,
        key: takeOver.key(inputs),
        apiFields,
        unreadable: takeOver.unreadable,
        find: () => takeOver.find(inputs, context) as Promise<Props | undefined>,
      });
      return refusal === undefined ? result : { ...result, failures: [{ property: "adopt", reason: refusal }] };
    },

    async diff(_id, olds, news) {
      const result = diffInputs(compareAs(olds), compareAs(news), inputFields);
      return definition.adjustDiff ? definition.adjustDiff(result, olds, news) : result;
    },

    // The engine calls create, read, update and delete only with inputs that passed `check`.
    create: (inputs, context) => definition.create(inputs, context),

    read: (id, props, context) => definition.read(id, props, context),

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
  };
}
