/**
 * A problem's page answered without its calls' texts. An iteration of TMAS at N = M = 16 with
 * 4,000-token outputs made the page's transcript 9.4 MB of JSON, typeset whole (4.7 s) before the
 * page showed, for texts a reader opens a few of. Each call's prompt, response and reasoning are
 * held back: the page gets their lengths and the response's first characters, and fetches a call's
 * texts (its download, `/download/R/call?key=K`) when one of its blocks is opened, as the compare
 * page does.
 */
import type { HeldTexts, NamedCall, Transcript } from './transcript.ts';

/** The characters of the response a page shows before it is opened. */
const PREVIEW_CHARS = 140;

function heldCall(call: NamedCall): NamedCall {
  const { request, response } = call;
  const reasoning = response.reasoning ?? '';
  const held: HeldTexts = {
    prompt: request.messages.reduce((sum, m) => sum + m.content.length, 0),
    response: response.content.length,
    reasoning: reasoning.length,
    preview: response.content.slice(0, PREVIEW_CHARS * 4).replace(/\s+/g, ' ').slice(0, PREVIEW_CHARS),
  };
  return {
    ...call,
    request: { ...request, messages: request.messages.map((m) => ({ ...m, content: '' })) },
    response: { ...response, content: '', reasoning: response.reasoning === null ? null : '' },
    held,
  };
}

/** The transcript with every call's texts held back. */
export function heldBack(transcript: Transcript): Transcript {
  return {
    ...transcript,
    candidates: transcript.candidates.map(({ candidate, calls }) => ({ candidate, calls: calls.map(heldCall) })),
    problemCalls: transcript.problemCalls.map(heldCall),
  };
}
