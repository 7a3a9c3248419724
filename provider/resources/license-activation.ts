/**
 * `LicenseActivation`: one activation of a license with an activation key.
 *
 * API: activate (needs Licenses Create). The resource's id is the license id Kasm answers with.
 * Every input change replaces: the key is activated again (a new license, taking seats from the
 * entitlement again), and the old resource is then forgotten.
 *
 * What the API cannot do: Kasm has no operation to read, list or remove a license. So `read`
 * (refresh) keeps the last known state (the outputs and the declared inputs unchanged), and
 * destroy only forgets the license: it stays applied in Kasm, and the provider says so with a
 * warning (see {@link warn}). `activationKey` is a secret: it never appears in an error message
 * or a log line.
 */
import { z } from "zod";
import type { ActivateParams, License } from "../api/schemas/licenses";
import { camelCase, declared, declareFields } from "./framework/fields";
import type { RefreshedInputs, KindTexts } from "./framework/types";
import { defineKind, fieldNames, type KindOutputs } from "./framework/define-kind";
import { licenseActivationCalls } from "./license-activation.calls";

// --- types ---------------------------------------------------------------------------------------

/**
 * Each input of a LicenseActivation, declared once: its type, role, rule, doc and how it is sent.
 * Every input replaces: an activation cannot be changed, only made again.
 */
const LICENSE_ACTIVATION_FIELDS = declareFields({
  activationKey: {
    type: z.string().trim().min(1, "activationKey is required"),
    role: "key",
    replaces: true,
    send: (key: string) => key.trim(),
    secret: true,
    doc: "The activation key text block; always stored as a secret, and never shown in errors or logs.",
  },
  seats: {
    type: z.number().int("seats must be a whole number").min(1, "seats must be 1 or more").optional(),
    role: "key",
    replaces: true,
    doc: "Seats to take from the key's entitlement (a whole number, 1 or more). Default: all that remain.",
  },
  issuedTo: { type: z.string().optional(), role: "key", replaces: true, doc: "Informational: whom the license is attributed to in later reporting." },
});

/** The inputs of a LicenseActivation. No message below may quote a value: the key is a secret. */
export const LicenseActivationInputs = LICENSE_ACTIVATION_FIELDS.schema;
export type LicenseActivationInputs = z.infer<typeof LicenseActivationInputs>;

/** The features a license enables, by camelCase name; the ones Kasm documents are named. */
export interface LicenseFeatures {
  readonly autoScaling?: boolean;
  readonly branding?: boolean;
  readonly sessionStaging?: boolean;
  readonly sessionCasting?: boolean;
  readonly logForwarding?: boolean;
  readonly developerApi?: boolean;
  readonly injectSshKeys?: boolean;
  readonly saml?: boolean;
  readonly ldap?: boolean;
  readonly sessionSharing?: boolean;
  readonly loginBanner?: boolean;
  readonly urlCategorization?: boolean;
  readonly usageLimit?: boolean;
  readonly [feature: string]: boolean | undefined;
}

/**
 * The features' output type: to other languages a map of booleans by name (a newer Kasm may add
 * features), to TypeScript the names above.
 */
const LICENSE_FEATURES = z.record(z.string(), z.boolean()) as z.ZodType<LicenseFeatures>;

/**
 * What the provider adds to the inputs: the license record, as the SDK class's computed outputs,
 * which show these docs. A field Kasm's answer leaves out is null.
 */
export const LicenseActivationOutputs = z.strictObject({
  licenseId: z.string().describe("The license's id."),
  expiration: z.string().nullable().describe("When the license expires."),
  issuedAt: z.string().nullable().describe("When the license was issued."),
  limit: z.number().nullable().describe("The license's seats."),
  isVerified: z.boolean().nullable().describe("Whether Kasm has verified the license (its `is_verified`)."),
  licenseType: z.string().nullable().describe("Such as `Per Concurrent Session` or `Per Named User`."),
  sku: z.string().nullable().describe("The license's product code (its `sku`)."),
  features: LICENSE_FEATURES.nullable().describe("The features the license enables, by camelCase name (`autoScaling`, `sessionCasting`, ...)."),
});
export type LicenseActivationOutputs = z.infer<typeof LicenseActivationOutputs>;

// --- docs ----------------------------------------------------------------------------------------

/** What the TypeScript SDK's class and the native schema say of the LicenseActivation kind (see {@link KindTexts}; each input's doc is its declaration's). */
const DOCS: KindTexts = {
  description:
    "One activation of a Kasm license (the `activate` operation). Any change to the inputs activates " +
    "again, which takes seats from the entitlement again.\n\nKasm has no operation to read or remove a " +
    "license: refresh keeps the last known state, and destroying the resource only forgets it (the " +
    "license stays applied; the provider warns).",
  arguments: "The arguments of a LicenseActivation. Every change activates again (replaces).",
  example: ['const license = new kasm.LicenseActivation("prod", { activationKey: cfg.requireSecret("activationKey"), seats: 50 });'].join("\n"),
  notImported: "Kasm never returns an activation key, so an activation cannot be declared again from what it shows",
  limits: "no read and no removal: refresh keeps the last known state, destroy forgets the license with a " + "warning, a replacement takes more seats",
};

// --- helpers -------------------------------------------------------------------------------------

function outputs(inputs: RefreshedInputs<LicenseActivationInputs>, license: License): KindOutputs<LicenseActivationInputs, LicenseActivationOutputs> {
  return {
    ...declared(inputs, fieldNames(LICENSE_ACTIVATION_FIELDS.keyFields)),
    licenseId: license.license_id,
    expiration: license.expiration ?? null,
    issuedAt: license.issued_at ?? null,
    limit: license.limit ?? null,
    isVerified: license.is_verified ?? null,
    licenseType: license.license_type ?? null,
    sku: license.sku ?? null,
    // Flags, by camelCase name: the ones Kasm documents are read as booleans, and the others are passed on as Kasm sends them.
    features: license.features ? (Object.fromEntries(Object.entries(license.features).map(([name, on]) => [camelCase(name), on])) as LicenseFeatures) : null,
  };
}

// --- provider ------------------------------------------------------------------------------------

/** The provider of LicenseActivation: every input names the activation, so every change replaces it. */
export const licenseActivationProvider = defineKind<LicenseActivationInputs, LicenseActivationOutputs>({
  fields: LICENSE_ACTIVATION_FIELDS,
  outputs: LicenseActivationOutputs,
  docs: DOCS,
  sendsNothingWhen: "never",

  adjustDiff(result, olds, news) {
    // Leaving out `seats` or `issuedTo` changes what an activation asks for too: replace as well.
    const replaces = fieldNames(LICENSE_ACTIVATION_FIELDS.keyFields).filter(
      (key) => (olds[key] !== undefined || news[key] !== undefined) && JSON.stringify(olds[key] ?? null) !== JSON.stringify(news[key] ?? null),
    );
    return { ...result, replaces };
  },
  calls: licenseActivationCalls,

  async create(inputs, context) {
    const license = await context.client().licenses.activate(LICENSE_ACTIVATION_FIELDS.body<ActivateParams>(inputs));
    return { id: license.license_id, outs: outputs(inputs, license) };
  },

  /** Kasm cannot read licenses: the last known state is kept as it is. */
  async read(id, props, _context) {
    return { id, props, inputs: declared(props, fieldNames(LICENSE_ACTIVATION_FIELDS.keyFields)) };
  },

  /** Never reached with a change (every change replaces): keeps the state. */
  async update(_id, olds, news, _changedFields, _context) {
    return { outs: { ...olds, ...declared(news, fieldNames(LICENSE_ACTIVATION_FIELDS.keyFields)) } };
  },

  async delete(id, props, context) {
    const seats = typeof props.limit === "number" ? `${props.limit} seat(s)` : "its seats";
    await context.warn(
      `${context.label("LicenseActivation", id)}: Kasm has no operation to remove a license, so license ${id} stays applied (${seats}); ` +
        `Pulumi only forgets it. Check the licenses under Diagnostics, System Info, Licenses in the Kasm UI.`,
    );
  },
});
