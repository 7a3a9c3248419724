/**
 * The wire vocabulary a test run speaks: the vitest project `product` sets KASM_TEST_API_NAMES, so
 * that the provider suite runs once against an emulator speaking the API documentation's names
 * (`spec`) and once against one speaking the released product's (`product`), with the provider
 * configured to match.
 */
export type TestApiNames = "spec" | "product";

/** The vocabulary of this run: `product` when KASM_TEST_API_NAMES says so, else `spec`. */
export const TEST_API_NAMES: TestApiNames = process.env.KASM_TEST_API_NAMES === "product" ? "product" : "spec";

/** The stack configuration that makes the provider speak {@link TEST_API_NAMES}. */
export const API_NAMES_CONFIG: Readonly<Record<string, string>> = { "kasm:apiNames": TEST_API_NAMES };
