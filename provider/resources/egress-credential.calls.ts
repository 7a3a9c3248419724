/**
 * What the EgressCredential provider (`./egress-credential.ts`) calls in each lifecycle step, in the order it calls
 * them, and under which circumstances: the kind's calls declaration (see `KindCalls` in
 * `permissions/planned-calls.ts`). When the provider changes what it calls, or when, this changes in
 * the same commit: the client a step is handed refuses an operation the step does not list here
 * (`framework/connections.ts`), and the permission policy packs judge API keys by it (`KIND_ROWS`).
 * It imports only the catalogue, so that the packs load it without the provider's runtime.
 */
import { adoptOptions, declareCalls, egressFacts, plan } from "../../permissions/planned-calls";

/**
 * What each step of an EgressCredential calls.
 */
export const egressCredentialCalls = declareCalls("EgressCredential", (props, knowledge) => {
  const { facts, explain } = egressFacts(props, knowledge, "EgressCredential", "create");
  const adopt = adoptOptions(props.adopt, "with adopt: true");
  return {
    // With adopt, a credential of that name is taken over as it is (Kasm cannot update it).
    create: [
      plan("get_egress_credentials"),
      plan("create_egress_credential", facts, adopt ? { explain, condition: "unless adopt: true finds the credential" } : { explain }),
    ],
    read: [plan("get_egress_credentials", {}, { condition: "once or twice: by provider and name, then all credentials" })],
    // Kasm cannot change or delete a credential: every change replaces it, destroy only forgets it.
    update: [],
    delete: [],
  };
});
