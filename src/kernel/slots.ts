/**
 * The endpoint slots: each role's calls go to one of these, and each slot has
 * its own `--…-base-url`, `--…-model-name` and `--…-api-key` flags, as in the
 * reference CLI. This table is the one list of slots: the CLI's flags, the
 * endpoint check, the resume rules and the secrets are all derived from it.
 */

/** Per slot: the prefix of its flags (`--verify-base-url`) and who uses it. */
const SLOT_TABLE = {
  solution: { prefix: '', agent: 'the solution agent' },
  verification: { prefix: 'verify-', agent: 'the verification agent' },
  summary: { prefix: 'summary-', agent: 'the summary agent' },
  experience: { prefix: 'exp-', agent: 'the experience agent' },
  guideline: { prefix: 'guide-', agent: 'the guideline agent' },
  judge: { prefix: 'judge-', agent: 'the LLM judge' },
} as const satisfies Record<string, { prefix: string; agent: string }>;

/** An endpoint slot. Roles of other strategies name the slot they use. */
export type EndpointSlot = keyof typeof SLOT_TABLE;

/** Every slot, the solution agent's first: the others default to it. */
export const ENDPOINT_SLOTS = Object.keys(SLOT_TABLE) as EndpointSlot[];

/** The sampling flags every slot has, and the field of `SlotSampling` (src/settings/config.ts) each sets. */
export const SAMPLING_SETTINGS = {
  temperature: 'temperature',
  'top-p': 'topP',
  'top-k': 'topK',
  'min-p': 'minP',
  'extra-body': 'extraBody',
} as const;

/** A sampling flag of a slot. */
export type SamplingSetting = keyof typeof SAMPLING_SETTINGS;

/** What a slot's flags set. */
export type SlotSetting = 'base-url' | 'model-name' | 'api-key' | SamplingSetting;

/** The flag of a slot's setting: `--base-url`, `--verify-model-name`, … */
export function slotFlag(slot: EndpointSlot, setting: SlotSetting): string {
  return `--${SLOT_TABLE[slot].prefix}${setting}`;
}

/** The option name commander gives that flag: `baseUrl`, `verifyModelName`, … */
export function slotOption(slot: EndpointSlot, setting: SlotSetting): string {
  return `${SLOT_TABLE[slot].prefix}${setting}`.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** Who uses a slot, for help texts and messages. */
export function slotAgent(slot: EndpointSlot): string {
  return SLOT_TABLE[slot].agent;
}
