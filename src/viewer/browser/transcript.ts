/**
 * The viewer's transcripts: one journaled call as a transcript entry, a
 * candidate's calls in the order they started, the problem's own calls, and
 * the JSON download links. What each call is about comes from the server
 * (call.subject, call.name): nothing here decodes call indices.
 */
import type { CallDownload, NamedCall } from '../api-shapes.ts';
import { getJson } from './api.ts';
import { el, math, textBlock } from './dom.ts';
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

function promptMessages(call: NamedCall): HTMLElement[] {
  return call.request.messages.map((m) => el('div', { class: 'message' }, [el('span', { class: 'tag', text: m.role }), el('div', { class: 'text', text: m.content })]));
}

function prompt(runIndex: number, call: NamedCall): HTMLElement {
  const r = call.request;
  const summary = el('summary', { text: `prompt as sent (${plural(r.messages.length, 'message')}, temperature ${r.temperature}, seed ${r.seed}, max ${r.maxTokens} tokens)` });
  if (!call.held) return el('details', { class: 'prompt', 'data-kind': 'prompt' }, [summary, ...promptMessages(call)]);
  return heldDetails(el('details', { class: 'prompt', 'data-kind': 'prompt' }, [summary]), fullCall(runIndex, call), (whole) => promptMessages(whole), false);
}

/**
 * The call with its texts, fetched when a block of a call whose texts were held back is first opened, and kept once
 * it came: a fetch that failed (the server restarted, the network dropped) is forgotten, so the next opening asks
 * again. Kept, the failure showed every time the call was opened until the page was reloaded.
 */
function fullCall(runIndex: number, call: NamedCall): () => Promise<NamedCall> {
  let fetched: Promise<NamedCall> | null = null;
  return () => {
    const asking = (fetched ??= getJson<CallDownload>(callHref(runIndex, call.key)).then((download) => download.call));
    asking.catch(() => {
      if (fetched === asking) fetched = null;
    });
    return asking;
  };
}

/**
 * A collapsed block whose content is made from the whole call once it is opened (or at once, `open`). The texts go into
 * the page as text nodes (el's `text`), never as markup: a model's reply holding `<img onerror=…>` shows as written.
 */
function heldDetails(details: HTMLDetailsElement, whole: () => Promise<NamedCall>, content: (call: NamedCall) => HTMLElement[], open: boolean): HTMLDetailsElement {
  let asked = false;
  let failure: HTMLElement | null = null;
  const load = () => {
    if (asked) return;
    asked = true;
    // A failure shown before goes: the block is asked for again each time it is opened, until its texts come.
    failure?.remove();
    const waiting = el('p', { class: 'muted small loading', text: 'loading…' });
    details.appendChild(waiting);
    whole().then(
      (call) => {
        waiting.replaceWith(...content(call).map((node) => math(node)));
        details.setAttribute('data-loaded', '');
      },
      (error: unknown) => {
        failure = el('p', { class: 'bad-text', text: `could not load this call's texts (close and open it to try again): ${String(error)}` });
        waiting.replaceWith(failure);
        asked = false;
      },
    );
  };
  details.addEventListener('toggle', () => details.open && load());
  if (open) {
    details.open = true;
    load();
  }
  return details;
}

/** A text of a call whose texts were held back: its label, length and the response's start, its text fetched when opened. */
function heldText(label: string, kind: string, note: string, whole: () => Promise<NamedCall>, pick: (call: NamedCall) => string, open: boolean): HTMLElement {
  const summary = el('summary', {}, [el('b', { text: label }), ' ', el('span', { class: 'muted', text: note })]);
  return heldDetails(el('details', { class: 'block', 'data-kind': kind }, [summary]), whole, (call) => [el('div', { class: 'text', 'data-kind': kind, text: pick(call) })], open);
}

/** How a call shows: its response's label, and whether the response starts open. */
export interface CallViewOptions {
  label?: string;
  open?: boolean;
}

/** One call: its head line, key, response (reasoning apart, collapsed) and the prompt as sent. */
export function callView(runIndex: number, call: NamedCall, options: CallViewOptions = {}): HTMLElement {
  const label = options.label || 'response';
  const held = call.held;
  const whole = fullCall(runIndex, call);
  const chars = (n: number) => `${n.toLocaleString('en')} characters`;
  return el('div', { class: 'call', 'data-key': call.key, 'data-role': call.role, 'data-name': call.name || call.role }, [
    el('div', { class: 'call-head' }, [el('span', { text: headLine(call) }), ' ', downloadLink(callHref(runIndex, call.key))]),
    el('div', { class: 'muted small', text: call.key + (call.fit && call.fit.dropped.length ? ` · left out to fit: ${call.fit.dropped.join(', ')}` : '') }),
    held
      ? held.reasoning > 0 ? heldText('reasoning', 'reasoning', chars(held.reasoning), whole, (c) => c.response.reasoning || '', false) : null
      : call.response.reasoning ? textBlock('reasoning', call.response.reasoning, { kind: 'reasoning', collapsed: true }) : null,
    // A response's block is of its role's kind (`solution`, `verification`, `judge`…): what the page styles and tests find.
    held
      ? heldText(label, call.role, `${held.preview}${held.response > held.preview.length ? '…' : ''} (${chars(held.response)})`, whole, (c) => c.response.content, options.open === true)
      : textBlock(label, call.response.content, { kind: call.role, collapsed: !options.open }),
    prompt(runIndex, call),
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
