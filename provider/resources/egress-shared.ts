/**
 * What the egress kinds share: the format of Kasm ids, the target of a mapping or credential
 * (exactly one of a user, a group or an image), the gateway selection, a `check` whose
 * cross-field rules neither fail on nor forget a value not known during preview, and the writes of
 * the provider, gateway and mapping, which each send the whole declared state.
 */
import { z } from "zod";
import type { KasmClient } from "../api/client";
import { canonicalId, KasmId, keepSpelling, same, unlessGone, withLeftOutValues, type FieldRule, type Props } from "./kit";
import type { KindMethods, RecordRules } from "./kit/define-kind";

// --- types ---------------------------------------------------------------------------------------

/** The inputs naming what a mapping or credential applies to: exactly one of them. */
export const TARGET_KEYS = ["userId", "groupId", "imageId"] as const;

/** The target and gateway inputs of a mapping or credential. */
export const TargetAndGatewayInputs = {
  /** The user this applies to (exactly one of userId, groupId, imageId). */
  userId: KasmId.optional(),
  /** The group this applies to. */
  groupId: KasmId.optional(),
  /** The image this applies to. */
  imageId: KasmId.optional(),
  /** Every gateway of the provider may be used; otherwise only `selectedGateways`. Default: false. */
  allowAllGateways: z.boolean().optional(),
  /** The gateways that may be used (an order-insensitive set of ids) when not all are allowed. */
  selectedGateways: z.array(KasmId).optional(),
};

/** The docs of the target and gateway inputs, spread into a mapping's and a credential's (see `KindDocs`). */
export const TARGET_AND_GATEWAY_DOCS = {
  userId: "The user it applies to. Set exactly one of `userId`, `groupId`, `imageId`.",
  groupId: "The group it applies to (needs Groups Modify, and Groups Modify System for a system group: All Users or Administrators).",
  imageId: "The image it applies to (needs Images Modify).",
  allowAllGateways:
    "Every gateway of the provider may be used. Default: false, and unlike other inputs, leaving it out sets it to false in Kasm (the selection only counts then). When false, `selectedGateways` is required.",
  selectedGateways:
    "The gateways that may be used (ids of EgressGateways of the provider), compared as a set: order and id spelling do not matter. Required, and not empty, unless `allowAllGateways` is true; Kasm ignores it when that is true.",
} satisfies Record<keyof typeof TargetAndGatewayInputs, string>;

/** The target and gateway inputs, as a mapping's or credential's inputs hold them. */
export interface Targeted {
  readonly userId?: string;
  readonly groupId?: string;
  readonly imageId?: string;
  readonly allowAllGateways?: boolean;
  readonly selectedGateways?: readonly string[];
}

/**
 * The cross-field rules of a mapping or credential (for `superRefine`): exactly one target, and at
 * least one selected gateway unless every gateway is allowed (Kasm requires `selected_gateways`
 * when `allow_all_gateways` is false, and false is its default).
 */
export function refineTargetAndGateways(value: Targeted, ctx: z.RefinementCtx): void {
  const set = TARGET_KEYS.filter((key) => value[key] !== undefined);
  if (set.length === 0)
    ctx.addIssue({
      code: "custom",
      path: [],
      message: "exactly one of userId, groupId or imageId is required: the user, group or image this applies to",
    });
  if (set.length > 1)
    for (const key of set) ctx.addIssue({ code: "custom", path: [key], message: `set exactly one of userId, groupId and imageId, not ${set.join(" and ")}` });
  const selection = value.selectedGateways;
  // A selection of the wrong type is reported by its own rule.
  if (value.allowAllGateways !== true && (selection === undefined || (Array.isArray(selection) && selection.length === 0)))
    ctx.addIssue({
      code: "custom",
      path: ["selectedGateways"],
      message: "list at least one gateway in selectedGateways, or set allowAllGateways to true",
    });
}

// --- check ---------------------------------------------------------------------------------------

/** A syntactically valid id that names nothing: stands for an id not known yet. */
const PLACEHOLDER_ID = "0".repeat(32);

/**
 * What the target and gateway inputs are besides their comparison, for a kind's field rules: a
 * placeholder each (their rules span fields: exactly one target, a selection unless every gateway
 * is allowed), and the meaning of `allowAllGateways` left out (see {@link withGatewayDefault}).
 */
export const TARGET_ROLES = {
  userId: { placeholder: PLACEHOLDER_ID, refersTo: "User" },
  groupId: { placeholder: PLACEHOLDER_ID, refersTo: "Group" },
  imageId: { placeholder: PLACEHOLDER_ID, refersTo: "Workspace" },
  allowAllGateways: { placeholder: true, whenLeftOut: false },
  selectedGateways: { placeholder: [PLACEHOLDER_ID], refersTo: "EgressGateway" },
} as const satisfies Readonly<Record<keyof Targeted, FieldRule>>;

// --- API bodies ----------------------------------------------------------------------------------

/** An id as Kasm writes it (32 lowercase hex digits), or undefined. */
export function apiId(value: unknown): string | undefined {
  return value === undefined || value === null ? undefined : canonicalId(value);
}

/** The whole target of a request: the declared one, the other two null (so a change of target clears the old one). */
export function targetBody(inputs: Targeted): { user_id: string | null; group_id: string | null; image_id: string | null } {
  return {
    user_id: apiId(inputs.userId) ?? null,
    group_id: apiId(inputs.groupId) ?? null,
    image_id: apiId(inputs.imageId) ?? null,
  };
}

/**
 * `allowAllGateways` is the one input that is managed when left out: it then means false (Kasm's
 * default). The selection only counts with it false, and `check` requires a selection when it is
 * left out; were it unmanaged, a program going from `allowAllGateways: true` to a selection would
 * leave every gateway allowed and its selection silently ignored.
 */
export function withGatewayDefault(props: Props): Props {
  return withLeftOutValues(props, { allowAllGateways: TARGET_ROLES.allowAllGateways });
}

/** The gateway fields of a request: `allow_all_gateways` always (see {@link withGatewayDefault}), the selection when declared. */
export function gatewayBody(inputs: Targeted): { allow_all_gateways: boolean; selected_gateways?: string[] } {
  const body: { allow_all_gateways: boolean; selected_gateways?: string[] } = { allow_all_gateways: inputs.allowAllGateways === true };
  if (inputs.selectedGateways !== undefined) body.selected_gateways = inputs.selectedGateways.map(canonicalId);
  return body;
}

// --- writes --------------------------------------------------------------------------------------

/** The API calls of {@link wholeStateWrites}: the body of the inputs, and the three writes. */
export interface WholeStateCalls<Inputs, KasmRecord, Body> {
  /** The whole declared state, as Kasm's create and update take it. */
  body(inputs: Inputs): Body;
  create(client: KasmClient, body: Body): Promise<KasmRecord>;
  /** The update of the object with this id to the body. */
  update(client: KasmClient, body: Body, id: string): Promise<KasmRecord>;
  remove(client: KasmClient, id: string): Promise<unknown>;
}

/**
 * The create, update and delete of an egress provider, gateway or mapping. Every write sends the
 * whole declared state: it also reverts drift in fields the diff did not see change, and a
 * mapping's update needs the selection with `allow_all_gateways` false. The create takes an
 * existing object over (or refuses it) by the kind's adoption rules; deleting what is already
 * gone is done.
 */
export function wholeStateWrites<Inputs extends Props, Outputs extends object, KasmRecord, Body>(
  record: RecordRules<Inputs, Outputs, KasmRecord>,
  calls: WholeStateCalls<Inputs, KasmRecord, Body>,
): Pick<KindMethods<Inputs, Outputs, KasmRecord>, "create" | "update" | "delete"> {
  return {
    async create(inputs, context, createOrAdopt) {
      const client = context.client();
      const body = calls.body(inputs);
      const created = await createOrAdopt({ update: (existing) => calls.update(client, body, record.id(existing)), create: () => calls.create(client, body) });
      return { id: record.id(created), outs: record.outputs(inputs, created) };
    },
    async update(id, _olds, news, _changedFields, context) {
      return { outs: record.outputs(news, await calls.update(context.client(), calls.body(news), id)) };
    },
    async delete(id, _state, context) {
      await unlessGone(() => calls.remove(context.client(), id));
    },
  };
}

// --- read ----------------------------------------------------------------------------------------

/**
 * The current gateway selection, from the gateways Kasm lists (`egress_gateways`, the gateways the
 * object gives access to, as the client's mapping gives their ids). When every gateway is allowed, as declared, Kasm lists them all and the
 * selection cannot be seen: the declared one is kept. Otherwise the listing is the selection in
 * effect (all gateways, when Kasm allows all but the program does not), and the declared list is
 * kept when it is the same set, so a refresh shows no change.
 */
export function currentGateways<Declared extends readonly string[] | null | undefined>(
  declared: Declared,
  declaredAllowAll: unknown,
  kasmAllowAll: boolean | null | undefined,
  listed: readonly string[] | null | undefined,
): Declared | string[] {
  if (kasmAllowAll && declaredAllowAll === true) return declared;
  const ids = [...(listed ?? [])];
  return same.idSet(declared, ids) ? declared : ids;
}

/** The current values of a record's target (as the client's mapping shows it), keyed by input name, in the declared spelling of the same id. */
export function currentTarget<Target extends { userId?: string | null; groupId?: string | null; imageId?: string | null }>(
  props: Target,
  shown: { userId?: string | null; groupId?: string | null; imageId?: string | null },
): Pick<Target, "userId" | "groupId" | "imageId"> {
  return {
    userId: keepSpelling(props.userId, shown.userId),
    groupId: keepSpelling(props.groupId, shown.groupId),
    imageId: keepSpelling(props.imageId, shown.imageId),
  };
}

/**
 * The record that `isIt`, looked up among the egress provider's own records first (one narrow
 * read, when the provider is known), then among all of them: the record may have been moved to
 * another provider outside Pulumi. Undefined when Kasm has none.
 */
export async function findUnderProvider<Rec>(
  underProvider: (() => Promise<Rec[]>) | undefined,
  all: () => Promise<Rec[]>,
  isIt: (record: Rec) => boolean,
): Promise<Rec | undefined> {
  const found = underProvider ? (await underProvider()).find(isIt) : undefined;
  return found ?? (await all()).find(isIt);
}
