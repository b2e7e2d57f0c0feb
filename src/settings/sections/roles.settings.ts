/**
 * Settings of each endpoint slot (kernel/slots.ts): where its calls go, the
 * model, the key and the sampling. Every slot but the solution agent's takes
 * the solution agent's value where its own flag is not given; the judge
 * never takes the method's sampling (the grading is one for all):
 * its temperature and top_p are its own flags' or JUDGE_SAMPLING, whatever
 * the strategy and `--temperature`, `--top-p`, `--top-k`, `--min-p` say.
 */
import type { Secrets, SlotSampling } from '../config.ts';
import { DEFAULT_TEMPERATURE } from '../../../machines/contract.ts';
import { UserError } from '../../kernel/errors.ts';
import { ENDPOINT_SLOTS, SAMPLING_SETTINGS, slotAgent, slotFlag, slotOption, type EndpointSlot, type SamplingSetting, type SlotSetting } from '../../kernel/slots.ts';
import { apiKey, apiKeyProblem, decimal, extraBody, integer, urls } from '../parsers.ts';
import { endpointField, field, samplingField } from '../field.ts';
import { setting, type Flags, type Setting, type SettingContext } from '../setting.ts';

/** The model name of the embedded simulator, the default where no endpoint is given. */
const SIM_MODEL = 'tmas-sim';

/**
 * The judge's sampling when `--judge-temperature` / `--judge-top-p` are not
 * given, the same for every strategy. Not greedy: the grade averages k
 * passes (4 by default), which only tells more than one pass when the passes
 * can differ, and reasoning models (the usual judges) are advised against
 * greedy decoding, which makes them repeat themselves; 0.6 and 0.95 are what
 * DeepSeek-R1 and Qwen3 recommend for their thinking mode, and TMAS's own
 * default temperature, so a TMAS run's judge samples as it did before.
 */
export const JUDGE_SAMPLING = { temperature: 0.6, 'top-p': 0.95 } as const satisfies Partial<Record<SamplingSetting, number>>;

/** Each sampling setting's value placeholder, parser and help. */
const SAMPLING = {
  temperature: { value: '<x>', parse: decimal(0, 2), help: 'temperature' },
  'top-p': { value: '<x>', parse: decimal(0, 1), help: 'top_p' },
  'top-k': { value: '<n>', parse: integer(-1, 1_000_000), help: 'top_k (vLLM, SGLang)' },
  'min-p': { value: '<x>', parse: decimal(0, 1), help: 'min_p (vLLM, SGLang)' },
  'extra-body': { value: '<json>', parse: extraBody, help: 'a JSON object merged into every request, e.g. \'{"chat_template_kwargs":{"enable_thinking":true}}\';' },
} satisfies Record<SamplingSetting, { value: string; parse: (value: string) => unknown; help: string }>;

function own(flags: Flags, slot: EndpointSlot, name: SlotSetting): unknown {
  return flags[slotOption(slot, name)];
}

/** The slot's own option and, for the slots that follow it, the solution agent's. */
function followed(slot: EndpointSlot, name: SlotSetting): string[] {
  return slot === 'solution' ? [] : [slotOption('solution', name)];
}

/**
 * A slot's sampling value: its flag, else the solution agent's (not for temperature), else the strategy's upstream
 * top_p / top_k. The judge's: its flag, else JUDGE_SAMPLING; only `--extra-body` (what the server needs, such as
 * chat-template switches) follows the solution agent's.
 */
function samplingValue(slot: EndpointSlot, name: SamplingSetting, { flags, strategy }: SettingContext): unknown {
  if (slot === 'judge') return own(flags, slot, name) ?? (name === 'extra-body' ? own(flags, 'solution', name) : JUDGE_SAMPLING[name as keyof typeof JUDGE_SAMPLING]);
  const declared = name === 'top-p' ? strategy.sampling?.topP : name === 'top-k' ? strategy.sampling?.topK : undefined;
  if (name === 'temperature') return own(flags, slot, name);
  return own(flags, slot, name) ?? own(flags, 'solution', name) ?? declared;
}

/** The default a slot's sampling flag names in its help. */
function fallbackText(slot: EndpointSlot, name: SamplingSetting): string {
  if (slot === 'judge') {
    const fixed = JUDGE_SAMPLING[name as keyof typeof JUDGE_SAMPLING];
    if (fixed !== undefined) return `${fixed} for every strategy`;
    return name === 'extra-body' ? '--extra-body' : "the server's; never the method's";
  }
  return name === 'temperature' ? "the role's, --temperature" : `--${name}`;
}

/** A slot's sampling setting `name`, landing in its sampling's `key`. */
function samplingSetting<K extends keyof SlotSampling>(slot: EndpointSlot, name: SamplingSetting, key: K): Setting {
  const { value, parse, help } = SAMPLING[name];
  const agent = slotAgent(slot);
  return setting<unknown, SlotSampling[K]>({
    flags: `${slotFlag(slot, name)} ${value}`,
    section: slot === 'judge' ? 'judge' : 'roles',
    help: slot === 'solution' ? `${help} of every role (default: the strategy's upstream value, else the server's)` : `${help} of ${agent} (default: ${fallbackText(slot, name)})`,
    parse,
    shapesCalls: true,
    field: samplingField(slot, key),
    givenAlsoBy: name === 'temperature' || (slot === 'judge' && name !== 'extra-body') ? [] : followed(slot, name),
    // The flags are parsed by SAMPLING[name].parse, whose values are the field's type; not given: null, and not sent.
    resolve: (_, context) => (samplingValue(slot, name, context) ?? null) as SlotSampling[K],
  });
}

function slotSettings(slot: EndpointSlot): Setting[] {
  const agent = slotAgent(slot);
  const section = slot === 'judge' ? 'judge' : 'roles';
  const follows = slot === 'solution' ? '' : ` (default: the solution agent's)`;
  const settings: Setting[] = [
    setting<string[], string[] | null>({
      flags: `${slotFlag(slot, 'base-url')} <url>`,
      section,
      help:
        slot === 'solution'
          ? 'OpenAI-compatible endpoint of the solution agent, e.g. http://localhost:8000/v1; several (comma-separated or repeated) make a replica pool (default: the embedded simulated model); called through the proxy HTTPS_PROXY or HTTP_PROXY names, unless NO_PROXY names its host'
          : `endpoint of ${agent}, or several for a replica pool${follows}`,
      parse: urls,
      shapesCalls: false,
      field: endpointField(slot, 'baseUrl'),
      givenAlsoBy: followed(slot, 'base-url'),
      resolve: (value, { flags }) => value ?? (own(flags, 'solution', 'base-url') as string[] | undefined) ?? null,
    }),
    setting<string>({
      flags: `${slotFlag(slot, 'model-name')} <name>`,
      section,
      help: slot === 'solution' ? 'model of the solution agent (default: the model the endpoint lists, when it lists one)' : `model of ${agent}${follows}`,
      shapesCalls: true,
      field: endpointField(slot, 'model'),
      givenAlsoBy: followed(slot, 'model-name'),
      resolve: (value, { flags }) => {
        const solution = (own(flags, 'solution', 'model-name') as string | undefined) ?? (own(flags, 'solution', 'base-url') ? '' : SIM_MODEL);
        if (slot === 'solution') return solution;
        // A slot on the solution agent's endpoint uses its model; one on an endpoint of its own, that endpoint's first.
        return value ?? (own(flags, slot, 'base-url') === undefined ? solution : '');
      },
    }),
    setting<string>({
      flags: `${slotFlag(slot, 'api-key')} <key>`,
      section,
      help: slot === 'solution' ? 'API key (prefer the OPENAI_API_KEY or API_KEY environment variable: a flag shows in the process list)' : `API key of ${agent}${follows}`,
      // An empty key is most often a variable that was not set (--api-key "$KEY"): said, not sent.
      parse: apiKey(slotFlag(slot, 'api-key')),
    }),
  ];
  for (const [name, key] of Object.entries(SAMPLING_SETTINGS) as Array<[SamplingSetting, keyof SlotSampling]>) {
    // The solution agent's temperature is the run's --temperature (below), which every role asks for.
    if (slot === 'solution' && name === 'temperature') continue;
    settings.push(samplingSetting(slot, name, key));
  }
  return settings;
}

/** Every slot's settings, the solution agent's first, then the run-wide `--temperature`. */
export const ROLE_SETTINGS: Setting[] = [
  ...ENDPOINT_SLOTS.flatMap(slotSettings),
  setting<number>({
    flags: '--temperature <x>',
    section: 'roles',
    help: 'sampling temperature of every role',
    defaultText: `the strategy's upstream default, ${DEFAULT_TEMPERATURE} when it declares none`,
    parse: decimal(0, 2),
    shapesCalls: true,
    field: field('roles', 'temperature'),
    // The strategy's upstream default unless the user chose one; the manifest keeps the value used.
    resolve: (value, { strategy }) => value ?? strategy.sampling?.temperature ?? DEFAULT_TEMPERATURE,
  }),
];

/**
 * The key the environment gives: OPENAI_API_KEY, else API_KEY, else `EMPTY` (vLLM's). A variable
 * set to '' counts as unset, as a shell's `export OPENAI_API_KEY=` means (the client refuses an
 * empty key outright).
 */
export function envApiKey(env: NodeJS.ProcessEnv): string {
  const name = (['OPENAI_API_KEY', 'API_KEY'] as const).find((variable) => env[variable] !== undefined && env[variable] !== '');
  if (name === undefined) return 'EMPTY';
  const key = env[name] as string;
  const problem = apiKeyProblem(key);
  if (problem !== null) throw new UserError('TMAS_USAGE', `The API key in the environment variable ${name} cannot be sent: ${problem}. Set ${name} to the key alone (export ${name}="$(tr -d '\\n' < keyfile)").`);
  return key;
}

/** The API key of every slot: its flag, else the solution agent's, else the environment's (envApiKey). */
export function secretsOf(flags: Flags, env: NodeJS.ProcessEnv): Secrets {
  const key = (flags.apiKey as string | undefined) ?? envApiKey(env);
  return Object.fromEntries(ENDPOINT_SLOTS.map((slot) => [slot, (own(flags, slot, 'api-key') as string | undefined) ?? key])) as Secrets;
}

/** Whether the flags name a judge endpoint of its own (`--judge-base-url` or `--judge-model-name`). */
export function judgeNamed(flags: Flags): boolean {
  return own(flags, 'judge', 'base-url') !== undefined || own(flags, 'judge', 'model-name') !== undefined;
}
