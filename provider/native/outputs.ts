/**
 * The outputs each kind computes, as a package schema types them: what the native provider's
 * schema declares beside the inputs (which come from the kinds' zod schemas) and what a create
 * answers as unknown during preview.
 *
 * The kinds declare their outputs as TypeScript types (`UserOutputs`, carried by each kind's
 * manifest), which leave nothing at run time; this table is their run-time list, held to them by
 * the compiler: a kind missing here, an output missing, or a name that is not an output of its
 * kind fails to compile. It holds types only: an output's description is in the kind's docs
 * (`docs.outputs`, which the SDK's TSDoc is generated from too).
 */
import { KIND_ID_OUTPUTS } from "../../catalogue/kinds";
import type { kinds, KindName, OutputsOfKind } from "..";

/** A property as a Pulumi package schema types it (the subset the kinds' properties need). */
export interface PropertySpec {
  readonly type?: "string" | "number" | "integer" | "boolean" | "array" | "object";
  readonly items?: PropertySpec;
  readonly additionalProperties?: PropertySpec;
  readonly $ref?: string;
  readonly description?: string;
  readonly secret?: boolean;
  /** A change to the input replaces the resource (what the kind's diff says; shown by generated SDKs). */
  readonly willReplaceOnChanges?: boolean;
}

/** Every kind's outputs, each typed: exactly the keys of its `Outputs` (checked by `satisfies`). */
type OutputTable = { readonly [K in KindName]: { readonly [F in keyof OutputsOfKind<(typeof kinds)[K]>]-?: PropertySpec } };

const STRING = { type: "string" } as const;
const NUMBER = { type: "number" } as const;
const INTEGER = { type: "integer" } as const;
const BOOLEAN = { type: "boolean" } as const;
/** A map of ids by name (a set's users, an import's servers). */
const IDS_BY_NAME = { type: "object", additionalProperties: STRING } as const;

/** The outputs each kind computes, with their types (see the module comment). */
export const KIND_OUTPUTS = {
  User: { userId: STRING, realm: STRING, created: STRING },
  UserAttributes: { userAttributesId: STRING },
  Group: { groupId: STRING },
  GroupMembership: {},
  UserGroups: {},
  UserServerAssignment: {},
  EgressProvider: { egressProviderId: STRING, created: STRING },
  EgressGateway: { egressGatewayId: STRING, activeConnections: INTEGER },
  EgressProviderMapping: { egressProviderMappingId: STRING, created: STRING },
  EgressCredential: { egressCredentialId: STRING, activeConnections: INTEGER },
  StagingConfig: {
    stagingConfigId: STRING,
    zoneName: STRING,
    imageFriendlyName: STRING,
    numCurrentSessions: INTEGER,
  },
  CastConfig: { castConfigId: STRING, imageFriendlyName: STRING, groupName: STRING },
  ServerDrain: {},
  LicenseActivation: {
    licenseId: STRING,
    expiration: STRING,
    issuedAt: STRING,
    limit: NUMBER,
    isVerified: BOOLEAN,
    licenseType: STRING,
    sku: STRING,
    features: { type: "object", additionalProperties: BOOLEAN },
  },
  UserSet: { userIds: IDS_BY_NAME, count: INTEGER },
  ServerImport: { serverIds: IDS_BY_NAME },
  Workspace: { imageId: STRING, available: BOOLEAN },
  GroupWorkspace: {},
} as const satisfies OutputTable;

// The catalogue's id outputs are outputs of their kinds: a renamed or missing output fails to compile here.
void (KIND_ID_OUTPUTS satisfies { readonly [K in keyof typeof KIND_ID_OUTPUTS]: keyof (typeof KIND_OUTPUTS)[K] });

/** The names of the outputs `kind` computes. */
export function outputNames(kind: KindName): string[] {
  return Object.keys(KIND_OUTPUTS[kind]);
}
