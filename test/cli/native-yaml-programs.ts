/**
 * Pieces of the YAML programs the native provider's CLI tests write: the plugin's path in the
 * checkout and an explicit provider resource on an emulator (with the test emulator's admin key).
 */
import path from "node:path";
import { ADMIN } from "../helpers/emulator";
import { REPO } from "../e2e/helpers";

/** The `plugins:` block that points the engine at the checkout's plugin (`bin/pulumi-resource-kasm`). */
export function pluginFromCheckout(): string {
  return `plugins:
  providers:
    - name: kasm
      path: ${path.join(REPO, "bin")}
`;
}

/**
 * A `pulumi:providers:kasm` resource named `name` on the emulator at `url`, as an entry of the
 * `resources:` block (indented by two spaces); `apiNames` when the program sets the vocabulary.
 */
export function explicitProvider(name: string, url: string, apiNames?: "spec" | "product"): string {
  return `  ${name}:
    type: pulumi:providers:kasm
    properties:
      baseUrl: ${url}
      apiKey: ${ADMIN.key}
      apiKeySecret: ${ADMIN.secret}
${apiNames === undefined ? "" : `      apiNames: ${apiNames}\n`}      maxRetries: 1
`;
}
