/**
 * What the egress kinds share: the format of Kasm ids, the target of a mapping or credential
 * (exactly one of a user, a group or an image), the gateway selection, a `check` whose
 * cross-field rules neither fail on nor forget a value not known during preview, and the writes of
 * the provider, gateway and mapping, which each send the whole declared state.
 */
import { z } from "zod";
import type { KasmClient } from "../api/client";
import { canonicalId } from "../../permissions/planned-calls";
import { KasmId, requiredId } from "./framework/check-wording";
import { keepSpelling, same, withLeftOutValues, type FieldDeclaration } from "./framework/fields";
import { unlessGone, type KindMethods, type RecordRules } from "./framework/define-kind";
import type { Props } from "./framework/types";

// --- types ---------------------------------------------------------------------------------------

/** The inputs naming what a mapping or credential applies to: exactly one of them. */
export const TARGET_KEYS = ["userId", "groupId", "imageId"] as const;

/**
 * The declaration of the `egressProviderId` of a gateway, a mapping or a credential, without its
 * doc: the provider's id, compared and sent as an id. Each kind spreads it and adds its doc, and
 * whether a change replaces.
 */
export const EGRESS_PROVIDER_REFERENCE = {
  type: requiredId("egressProviderId"),
  role: "sent",
  equal: same.id,
  refersTo: "EgressProvider",
  send: canonicalId,
} as const;

/** A syntactically valid id that names nothing: stands for an id not known yet. */
const PLACEHOLDER_ID = "0".repeat(32);

/** What `allowAllGateways` left out means: Kasm's default (see {@link withGatewayDefault}). */
const GATEWAYS_LEFT_OUT = false;

/**
 * The target and gateway inputs of a mapping or credential, declared once (see `declareFields`)
 * and spread into each kind's declarations; `replaces` for a kind that cannot change them in place
 * (a credential). Besides its comparison each has a placeholder (their rules span fields: exactly
 * one target, a selection unless every gateway is allowed), and `allowAllGateways` a meaning when
 * left out (see {@link withGatewayDefault}). Every write sends the whole target, the other two
 * null, so that a change of target clears the old one; ids as Kasm writes them (32 lowercase hex
 * digits); `allow_all_gateways` always (false when left out), the selection when declared.
 */
export function targetAndGatewayFields<const Replaces extends boolean>(replaces: Replaces) {
  const target = {
    type: KasmId.optional(),
    role: "sent",
    equal: same.id,
    replaces,
    placeholder: PLACEHOLDER_ID,
    send: canonicalId,
    sentWhenLeftOut: null,
  } as const;
  return {
    userId: { ...target, refersTo: "User", doc: "The user it applies to. Set exactly one of `userId`, `groupId`, `imageId`." },
    groupId: {
      ...target,
      refersTo: "Group",
      doc: "The group it applies to (needs Groups Modify, and Groups Modify System for a system group: All Users or Administrators).",
    },
    imageId: { ...target, refersTo: "Workspace", doc: "The image it applies to (needs Images Modify)." },
    allowAllGateways: {
      type: z.boolean().optional(),
      role: "sent",
      replaces,
      placeholder: true,
      whenLeftOut: GATEWAYS_LEFT_OUT,
      send: (allowAll: boolean) => allowAll === true,
      sentWhenLeftOut: GATEWAYS_LEFT_OUT,
      doc: "Every gateway of the provider may be used. Default: false, and unlike other inputs, leaving it out sets it to false in Kasm (the selection only counts then). When false, `selectedGateways` is required.",
    },
    selectedGateways: {
      type: z.array(KasmId).optional(),
      role: "sent",
      equal: same.idSet,
      replaces,
      placeholder: [PLACEHOLDER_ID],
      refersTo: "EgressGateway",
      send: (ids: readonly string[]) => ids.map(canonicalId),
      doc: "The gateways that may be used (ids of EgressGateways of the provider), compared as a set: order and id spelling do not matter. Required, and not empty, unless `allowAllGateways` is true; Kasm ignores it when that is true.",
    },
  } as const satisfies Readonly<Record<keyof Targeted, FieldDeclaration>>;
}

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

// --- API bodies ----------------------------------------------------------------------------------

/** An id as Kasm writes it (32 lowercase hex digits), or undefined. */
export function apiId(value: unknown): string | undefined {
  return value === undefined || value === null ? undefined : canonicalId(value);
}

/**
 * `allowAllGateways` is the one input that is managed when left out: it then means false (Kasm's
 * default). The selection only counts with it false, and `check` requires a selection when it is
 * left out; were it unmanaged, a program going from `allowAllGateways: true` to a selection would
 * leave every gateway allowed and its selection silently ignored.
 */
export function withGatewayDefault(props: Props): Props {
  return withLeftOutValues(props, { allowAllGateways: { whenLeftOut: GATEWAYS_LEFT_OUT } });
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
