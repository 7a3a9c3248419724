/**
 * Compile-time check that every property the permission rows read (the kinds' calls declarations, named
 * by kind in `RowProperties`) is one the kind declares: an input of its provider's zod schema,
 * one of its outputs, or a note a native preview adds for the policies (`PREVIEW_NOTES`); and that every field read from a bulk kind's rows (`BulkRowFields`) is a
 * field of the provider's row schema. A calls declaration imports nothing of the provider's runtime, so it names
 * the properties it reads; this file ties those names to the schemas. A misspelt or renamed property shows as
 * `Type '{ notAProperty: "groupID" }' does not satisfy the constraint 'true'`.
 */
import type { PreviewNoteOf, KasmKind } from "../../permissions";
import type { BulkRowFields } from "../../permissions/bulk-rows";
import type { RowProperties } from "../../permissions/planned-calls";
import type { KindInputs, KindOutputTypes } from "../../policy/shared/inputs";
import type { ServerRow } from "../../provider/resources/server-import";
import type { UserRow } from "../../provider/resources/user-set";

/** Compiles only when `T` is `true`. */
type Expect<T extends true> = T;

/** The names a kind's row reads that the kind does not declare (as an input, an output, or a note a native preview adds). */
type Undeclared<K extends KasmKind> = Exclude<RowProperties[K], keyof KindInputs[K] | keyof KindOutputTypes[K] | PreviewNoteOf<K>>;

/** `true` when every name is declared; otherwise the ones that are not, for the compiler's message. */
type Declared<K extends KasmKind> = [Undeclared<K>] extends [never] ? true : { notAProperty: Undeclared<K> };

/** `true` when `RowProperties` names exactly the kinds there are. */
type EveryKind = [Exclude<KasmKind, keyof RowProperties> | Exclude<keyof RowProperties, KasmKind>] extends [never] ? true : false;

export type RowPropertiesAreDeclared = [
  Expect<EveryKind>,
  Expect<Declared<"User">>,
  Expect<Declared<"UserSet">>,
  Expect<Declared<"UserAttributes">>,
  Expect<Declared<"GroupMembership">>,
  Expect<Declared<"UserGroups">>,
  Expect<Declared<"UserServerAssignment">>,
  Expect<Declared<"StagingConfig">>,
  Expect<Declared<"CastConfig">>,
  Expect<Declared<"ServerDrain">>,
  Expect<Declared<"LicenseActivation">>,
  Expect<Declared<"ServerImport">>,
  Expect<Declared<"Group">>,
  Expect<Declared<"EgressProvider">>,
  Expect<Declared<"EgressGateway">>,
  Expect<Declared<"EgressProviderMapping">>,
  Expect<Declared<"EgressCredential">>,
  Expect<Declared<"Workspace">>,
  Expect<Declared<"GroupWorkspace">>,
];

/** `true` when every row field named is a field of the row schema; otherwise the ones that are not. */
type RowFieldsDeclared<Names, Row> = [Exclude<Names, keyof Row>] extends [never] ? true : { notARowField: Exclude<Names, keyof Row> };

export type BulkRowFieldsAreDeclared = [
  Expect<RowFieldsDeclared<BulkRowFields["UserSet"], UserRow>>,
  Expect<RowFieldsDeclared<BulkRowFields["ServerImport"], ServerRow>>,
];
