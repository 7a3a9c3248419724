/**
 * What `kasm-import` can take over: one entry per area, by the name `--only` and `--except` use,
 * with the SDK kind it becomes and the API reads behind it. The order is the order of the
 * generated program and of the summary. Every kind is either written by an area or says in its
 * docs why it is not (`notImported`; test/kinds-registered.test.ts holds both to the registry).
 */
import type { KasmKind } from "../permissions/kinds";

/** The name of an importable area, as `--only` and `--except` take it. */
export type ImportKind =
  | "groups"
  | "users"
  | "user-attributes"
  | "server-assignments"
  | "server-drains"
  | "workspace-registries"
  | "workspaces"
  | "workspace-groups"
  | "staging-configs"
  | "egress-providers"
  | "egress-gateways"
  | "egress-mappings"
  | "egress-credentials"
  | "cast-configs";

/** One importable area. */
export interface ImportKindInfo {
  readonly name: ImportKind;
  /** What the summary calls it. */
  readonly title: string;
  /** The SDK kind(s) it is declared as, as `--help` says it. */
  readonly declaredAs: string;
  /** The kinds the generated program declares for it. */
  readonly kinds: readonly KasmKind[];
  /** The operations it reads, for `--help` and the README. */
  readonly reads: string;
}

/** Every importable area, in the order of the generated program. */
export const IMPORT_KINDS: readonly ImportKindInfo[] = [
  { name: "groups", title: "Groups", declaredAs: "Group", kinds: ["Group"], reads: "get_groups (released Kasm only)" },
  {
    name: "users",
    title: "Users",
    declaredAs: "UserSet (or User and UserGroups with --users each)",
    kinds: ["UserSet", "User", "UserGroups"],
    reads: "get_users, 1,000 a page",
  },
  { name: "user-attributes", title: "User attributes", declaredAs: "UserAttributes", kinds: ["UserAttributes"], reads: "get_attributes, one per user" },
  {
    name: "server-assignments",
    title: "Server assignments",
    declaredAs: "UserServerAssignment",
    kinds: ["UserServerAssignment"],
    reads: "the users' assigned_servers",
  },
  { name: "server-drains", title: "Server draining", declaredAs: "ServerDrain", kinds: ["ServerDrain"], reads: "get_servers, one per assigned server" },
  {
    name: "workspace-registries",
    title: "Workspace registries",
    declaredAs: "WorkspaceRegistry",
    kinds: ["WorkspaceRegistry"],
    reads: "get_registries (released Kasm only)",
  },
  { name: "workspaces", title: "Workspaces", declaredAs: "Workspace", kinds: ["Workspace"], reads: "get_images (released Kasm only)" },
  {
    name: "workspace-groups",
    title: "Workspace groups",
    declaredAs: "GroupWorkspace",
    kinds: ["GroupWorkspace"],
    reads: "get_groups, and get_images_group one per group (released Kasm only)",
  },
  { name: "staging-configs", title: "Staging configs", declaredAs: "StagingConfig", kinds: ["StagingConfig"], reads: "get_staging_configs" },
  { name: "egress-providers", title: "Egress providers", declaredAs: "EgressProvider", kinds: ["EgressProvider"], reads: "get_egress_providers" },
  { name: "egress-gateways", title: "Egress gateways", declaredAs: "EgressGateway", kinds: ["EgressGateway"], reads: "get_egress_gateways" },
  {
    name: "egress-mappings",
    title: "Egress mappings",
    declaredAs: "EgressProviderMapping",
    kinds: ["EgressProviderMapping"],
    reads: "get_egress_provider_mapping",
  },
  { name: "egress-credentials", title: "Egress credentials", declaredAs: "EgressCredential", kinds: ["EgressCredential"], reads: "get_egress_credentials" },
  { name: "cast-configs", title: "Cast configs", declaredAs: "CastConfig", kinds: ["CastConfig"], reads: "get_cast_configs (released Kasm only)" },
];

/** Whether `name` is an importable area. */
export function isImportKind(name: string): name is ImportKind {
  return IMPORT_KINDS.some((kind) => kind.name === name);
}

/** The areas that need the user list, to declare or to refer to users. */
export const NEEDS_USERS: readonly ImportKind[] = ["users", "user-attributes", "server-assignments", "server-drains"];
