/**
 * The route table: which handler serves each public operation. Routing only; the method, path and
 * envelope of each operation come from the permission permission catalogue's operation table.
 */
import { OPERATIONS, type OperationName, type OperationSpec } from "../permissions";
import { batchHandlers } from "./handlers/batch";
import { castingHandlers } from "./handlers/casting";
import type { Handler } from "./handlers/common";
import { egressHandlers } from "./handlers/egress";
import { groupHandlers } from "./handlers/groups";
import { imageHandlers } from "./handlers/images";
import { licenseHandlers } from "./handlers/licenses";
import { registryHandlers } from "./handlers/registries";
import { serverHandlers } from "./handlers/servers";
import { sessionHandlers } from "./handlers/sessions";
import { stagingHandlers } from "./handlers/staging";
import { userHandlers } from "./handlers/users";

/** Every operation's handler; the `satisfies` makes a missing operation a compile error. */
const HANDLERS = {
  ...userHandlers,
  ...groupHandlers,
  ...sessionHandlers,
  ...imageHandlers,
  ...licenseHandlers,
  ...registryHandlers,
  ...stagingHandlers,
  ...serverHandlers,
  ...castingHandlers,
  ...egressHandlers,
  ...batchHandlers,
} satisfies Record<OperationName, Handler>;

/** One route: an operation of the spec (or of the product) and its handler. */
export interface Route {
  readonly operation: OperationSpec & { name: OperationName };
  readonly handler: Handler;
}

/** The routes, one per operation the emulator serves. */
export const ROUTES: readonly Route[] = (Object.keys(OPERATIONS) as OperationName[]).map((name) => ({
  operation: OPERATIONS[name] as OperationSpec & { name: OperationName },
  handler: HANDLERS[name],
}));
