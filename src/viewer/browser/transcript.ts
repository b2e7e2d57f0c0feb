/**
 * The viewer's transcripts: one journaled call as a transcript entry, a
 * candidate's calls in the order they started, the problem's own calls, and
 * the JSON download links. What each call is about comes from the server
 * (call.subject, call.name): nothing here decodes call indices.
 */
import type { NamedCall } from '../api-shapes.ts';
import { el, textBlock } from './dom.ts';
import { callHref } from './links.ts';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function tokens(call: NamedCall): string {
  if (!call.usage) return '';
  return `${call.usage.promptTokens} + ${call.usage.completionTokens} tokens${call.usage.estimated ? ' (estimated)' : ''}`;
}

/** Name, tokens, latency, attempts and finish reason: what a reader scans a transcript for. */
function headLine(call: NamedCall): string {
  return [call.name || call.role, tokens(call), `${Math.round(call.timings.latencyMs)} ms`, plural(call.attempts, 'attempt'), call.response.finishReason]
    .concat(call.fromIteration === undefined ? [] : [`made in iteration ${call.fromIteration}`])
    .filter(Boolean)
    .join(' · ');
}

/** A link that downloads a JSON file. */
export function downloadLink(href: string, text?: string): HTMLAnchorElement {
  return el('a', { class: 'download', href, download: '', text: text || 'JSON' });
}

function prompt(call: NamedCall): HTMLElement {
  const r = call.request;
  return el(
    'details',
    { class: 'prompt', 'data-kind': 'prompt' },
    [el('summary', { text: `prompt as sent (${plural(r.messages.length, 'message')}, temperature ${r.temperature}, seed ${r.seed}, max ${r.maxTokens} tokens)` })].concat(
      r.messages.map((m) => el('div', { class: 'message' }, [el('span', { class: 'tag', text: m.role }), el('div', { class: 'text', text: m.content })])),
    ),
  );
}

/** How a call shows: its response's label, and whether the response starts open. */
export interface CallViewOptions {
  label?: string;
  open?: boolean;
}

/** One call: its head line, key, response (reasoning apart, collapsed) and the prompt as sent. */
export function callView(runIndex: number, call: NamedCall, options: CallViewOptions = {}): HTMLElement {
  const label = options.label || 'response';
  return el('div', { class: 'call', 'data-key': call.key, 'data-role': call.role, 'data-name': call.name || call.role }, [
    el('div', { class: 'call-head' }, [el('span', { text: headLine(call) }), ' ', downloadLink(callHref(runIndex, call.key))]),
    el('div', { class: 'muted small', text: call.key + (call.fit && call.fit.dropped.length ? ` · left out to fit: ${call.fit.dropped.join(', ')}` : '') }),
    call.response.reasoning ? textBlock('reasoning', call.response.reasoning, { kind: 'reasoning', collapsed: true }) : null,
    // A response's block is of its role's kind (`solution`, `verification`, `judge`…): what the page styles and tests find.
    textBlock(label, call.response.content, { kind: call.role, collapsed: !options.open }),
    prompt(call),
  ]);
}

/** How a candidate's transcript shows: the role whose response starts open, and what to add to each call's label. */
export interface TranscriptOptions {
  open?: string | null;
  detail?: (call: NamedCall) => string;
}

/** A candidate's calls, oldest first, as an ordered list: the transcript of the candidate. */
export function candidateTranscript(runIndex: number, calls: NamedCall[], options: TranscriptOptions = {}): HTMLElement {
  if (!calls.length) return el('p', { class: 'muted', text: 'No call of this iteration is about this candidate.' });
  return el(
    'ol',
    { class: 'transcript' },
    calls.map((call) => {
      const label = call.subject ? call.subject.label : call.role;
      const detail = options.detail ? options.detail(call) : '';
      return el('li', { class: 'entry', 'data-role': call.role }, [callView(runIndex, call, { label: label + (detail ? ` (${detail})` : ''), open: options.open === call.role })]);
    }),
  );
}

/** The problem's own calls of the iteration (banks, plans, syntheses over all candidates), oldest first. */
export function problemTimeline(runIndex: number, calls: NamedCall[]): HTMLElement {
  return el('section', { class: 'timeline' }, [
    el('h2', { text: `calls about the problem (${calls.length})` }),
    calls.length
      ? el(
          'ol',
          { class: 'transcript' },
          calls.map((call) => el('li', { class: 'entry', 'data-role': call.role }, [callView(runIndex, call)])),
        )
      : el('p', { class: 'muted', text: 'Every call of this iteration is about one candidate.' }),
  ]);
}
