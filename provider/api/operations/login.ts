/** Operations of the login area. */
import { LoginLink } from "../schemas/login";
import type { KasmApi } from "../transport";

/**
 * A URL that signs a user in without username or password (`get_login`; needs Users Auth
 * Session). Redirect the user to `url`. Treat it as a credential: whoever opens it is signed in.
 */
export async function getLogin(api: KasmApi, params: { user_id: string }): Promise<LoginLink> {
  return api.transport.call("get_login", { target_user: { user_id: params.user_id } }, LoginLink);
}
