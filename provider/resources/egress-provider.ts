/**
 * `EgressProvider`: an egress (VPN) provider, the parent of gateways, mappings and credentials.
 *
 * API: create_egress_provider, get_egress_providers (filtered by id), update_egress_provider,
 * delete_egress_provider. Every field updates in place, the name and the type included (the
 * update operation takes both). Names are unique in Kasm: adoption by name (`adopt: true`).
 * Deleting a provider makes Kasm delete its gateways, mappings and credentials too.
 */
import { z } from "zod";
import type { EgressProvider as KasmEgressProvider, NewEgressProvider } from "../api";
import { kasmClient } from "../runtime";
import {
  checkInputs,
  createOrAdopt,
  declared,
  diffInputs,
  GONE,
  keptOutputs,
  onlyProviderFlagsChanged,
  refreshedInputs,
  requiredText,
  same,
  toApi,
  unlessGone,
  type FieldRule,
  type KindProvider,
  type Props,
} from "./kit";

// --- types ---------------------------------------------------------------------------------------

/** The provider types Kasm knows. */
export const EGRESS_PROVIDER_TYPES = ["wireguard", "openvpn", "custom"] as const;

/** The inputs of an EgressProvider. */
export const EgressProviderInputs = z.strictObject({
  name: requiredText("name"),
  egressProviderType: z.enum(EGRESS_PROVIDER_TYPES, {
    error: (issue) =>
      issue.input === undefined ? "egressProviderType is required" : `egressProviderType must be one of ${EGRESS_PROVIDER_TYPES.join(", ")}`,
  }),
  enabled: z.boolean().optional(),
  /** Take over an existing provider with this name instead of failing. */
  adopt: z.boolean().optional(),
});
export type EgressProviderInputs = z.infer<typeof EgressProviderInputs>;

/** What the provider adds to the inputs. */
export interface EgressProviderOutputs {
  readonly egressProviderId: string;
  readonly created: string | null;
}

/** Fields sent to Kasm, and how each compares. Nothing forces replacement. */
const API_FIELDS: Readonly<Record<string, FieldRule>> = {
  name: {},
  egressProviderType: {},
  enabled: {},
};

/** Inputs that only steer the provider. */
const PROVIDER_FIELDS: Readonly<Record<string, FieldRule>> = { adopt: {} };

const INPUT_FIELDS = { ...API_FIELDS, ...PROVIDER_FIELDS };

// --- helpers -------------------------------------------------------------------------------------

/** The `target_egress_provider` body for the declared fields (the inputs passed `check`). */
function targetProvider(inputs: Props): NewEgressProvider {
  return toApi(inputs, Object.keys(API_FIELDS)) as NewEgressProvider;
}

function outputs(inputs: Props, provider: KasmEgressProvider): Props {
  return {
    ...declared(inputs, Object.keys(INPUT_FIELDS)),
    egressProviderId: provider.egress_provider_id,
    created: provider.created ?? null,
  };
}

/** The provider with this id, or undefined when Kasm has none. */
async function findById(id: string): Promise<KasmEgressProvider | undefined> {
  const found = await kasmClient().egress.getEgressProviders({ egress_provider_id: id });
  return found.find((p) => same.id(p.egress_provider_id, id));
}

// --- provider ------------------------------------------------------------------------------------

export const egressProviderProvider: KindProvider = {
  async check(_olds, news) {
    return checkInputs(EgressProviderInputs, news);
  },

  async diff(_id, olds, news) {
    return diffInputs(olds, news, INPUT_FIELDS);
  },

  async create(inputs) {
    const client = kasmClient();
    const body = targetProvider(inputs);
    const provider = await createOrAdopt({
      adopt: inputs.adopt,
      kind: "Egress provider",
      key: `'${body.name}'`,
      find: async () => (await client.egress.getEgressProviders({ name: body.name })).find((p) => p.name === body.name),
      update: (existing) => client.egress.updateEgressProvider({ ...body, egress_provider_id: existing.egress_provider_id }),
      create: () => client.egress.createEgressProvider(body),
    });
    return { id: provider.egress_provider_id, outs: outputs(inputs, provider) };
  },

  async read(id, props) {
    const provider = await findById(id);
    if (!provider) return GONE;
    const current: Props = {
      name: provider.name,
      egressProviderType: provider.egress_provider_type,
      enabled: provider.enabled,
    };
    const inputs = refreshedInputs(props, Object.keys(INPUT_FIELDS), current);
    return { id: provider.egress_provider_id, props: outputs(inputs, provider), inputs };
  },

  async update(id, olds, news) {
    // Only `adopt` changed: Kasm has nothing to change, and the state's outputs stand.
    if (onlyProviderFlagsChanged(olds, news, API_FIELDS)) return { outs: keptOutputs(olds, news, Object.keys(INPUT_FIELDS)) };
    // Every declared field is sent: the update is the whole declared state, which also reverts drift.
    const provider = await kasmClient().egress.updateEgressProvider({ ...targetProvider(news), egress_provider_id: id });
    return { outs: outputs(news, provider) };
  },

  async delete(id) {
    // Deleting what is already gone is done.
    await unlessGone(() => kasmClient().egress.deleteEgressProvider({ egress_provider_id: id }));
  },
};
