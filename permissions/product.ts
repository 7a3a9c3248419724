/** Facts about the Kasm product that the emulator, the provider and the policy packs all rely on. */

/**
 * Concurrent sessions a Community Edition installation (one without an activated license) allows.
 * The emulator enforces it; the hardening pack checks staging configs against it.
 */
export const COMMUNITY_CONCURRENT_SESSIONS = 5;
