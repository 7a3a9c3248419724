/**
 * API keys: the credentials every call is made with. The API has no way to manage them; they come
 * from the seed or the data file.
 */
import type { PermissionName } from "../../permissions";
import { AreaModel, hashSecret, newId, newSalt, type Table } from "./common";

/** An API key as the administrator configured it. The secret is kept as a salted hash. */
export interface ApiKeyRecord {
  api_key_id: string;
  name: string;
  key: string;
  secret_salt: string;
  secret_hash: string;
  permissions: PermissionName[];
  read_only: boolean;
  /** `YYYY-MM-DD HH:MM:SS` (UTC) or an ISO 8601 time; null for a key that never expires. */
  expires: string | null;
}

/** The part of the state this model owns. */
export interface KeysTables {
  apiKeys: Table<ApiKeyRecord>;
}

/** An API key as a seed describes it: the secret in clear, hashed when stored. */
export interface ApiKeyInput {
  name: string;
  key: string;
  secret: string;
  permissions: PermissionName[];
  readOnly: boolean;
  expiresAt: string | null;
}

/** The API keys and how they are found. */
export class KeysModel extends AreaModel<KeysTables> {
  /** The key record whose public part is `key`, if any. */
  byKey(key: string): ApiKeyRecord | undefined {
    return Object.values(this.tables.apiKeys).find((k) => k.key === key);
  }

  /** Store a key, its secret salted and hashed. */
  addKey(input: ApiKeyInput): ApiKeyRecord {
    const salt = newSalt();
    const record: ApiKeyRecord = {
      api_key_id: newId(),
      name: input.name,
      key: input.key,
      secret_salt: salt,
      secret_hash: hashSecret(input.secret, salt),
      permissions: input.permissions,
      read_only: input.readOnly,
      expires: input.expiresAt,
    };
    this.tables.apiKeys[record.api_key_id] = record;
    return record;
  }
}
