// The viewer's transcripts (plain ES2017, no build step): one journaled call as
// a transcript entry, a candidate's calls in the order they started, the
// problem's own calls, and the JSON download links. viewer.js hands in its
// helpers (el, textBlock) once: window.tmasTranscript(kit) returns the views.
// What each call is about comes from the server (call.subject, call.name):
// nothing here decodes call indices.
(function () {
  'use strict';
  window.tmasTranscript = function (kit) {
    var el = kit.el;
    var textBlock = kit.textBlock;

    function plural(n, word) { return n + ' ' + word + (n === 1 ? '' : 's'); }
    function tokens(call) {
      if (!call.usage) return '';
      return call.usage.promptTokens + ' + ' + call.usage.completionTokens + ' tokens' + (call.usage.estimated ? ' (estimated)' : '');
    }
    // Name, tokens, latency, attempts and finish reason: what a reader scans a transcript for.
    function headLine(call) {
      return [call.name || call.role, tokens(call), Math.round(call.timings.latencyMs) + ' ms', plural(call.attempts, 'attempt'), call.response.finishReason]
        .concat(call.fromIteration === undefined ? [] : ['made in iteration ' + call.fromIteration])
        .filter(Boolean).join(' · ');
    }
    function downloadLink(href, text) {
      return el('a', { class: 'download', href: href, download: '', text: text || 'JSON' });
    }
    function callHref(runIndex, call) { return '/download/' + runIndex + '/call?key=' + encodeURIComponent(call.key); }
    function prompt(call) {
      var r = call.request;
      return el('details', { class: 'prompt', 'data-kind': 'prompt' }, [el('summary', { text: 'prompt as sent (' + plural(r.messages.length, 'message') + ', temperature ' + r.temperature + ', seed ' + r.seed + ', max ' + r.maxTokens + ' tokens)' })].concat(
        r.messages.map(function (m) { return el('div', { class: 'message' }, [el('span', { class: 'tag', text: m.role }), el('div', { class: 'text', text: m.content })]); }),
      ));
    }

    // One call: its head line, key, response (reasoning apart, collapsed) and the prompt as sent.
    function callView(runIndex, call, options) {
      options = options || {};
      var label = options.label || 'response';
      return el('div', { class: 'call', 'data-key': call.key, 'data-role': call.role, 'data-name': call.name || call.role }, [
        el('div', { class: 'call-head' }, [el('span', { text: headLine(call) }), ' ', downloadLink(callHref(runIndex, call))]),
        el('div', { class: 'muted small', text: call.key + (call.fit && call.fit.dropped.length ? ' · left out to fit: ' + call.fit.dropped.join(', ') : '') }),
        call.response.reasoning ? textBlock('reasoning', call.response.reasoning, { kind: 'reasoning', collapsed: true }) : null,
        // A response's block is of its role's kind (`solution`, `verification`, `judge`…): what the page styles and tests find.
        textBlock(label, call.response.content, { kind: call.role, collapsed: !options.open }),
        prompt(call),
      ]);
    }

    // A candidate's calls, oldest first, as an ordered list: the transcript of the candidate.
    function candidateTranscript(runIndex, calls, options) {
      options = options || {};
      if (!calls.length) return el('p', { class: 'muted', text: 'No call of this iteration is about this candidate.' });
      return el('ol', { class: 'transcript' }, calls.map(function (call) {
        var label = call.subject ? call.subject.label : call.role;
        var detail = options.detail ? options.detail(call) : '';
        return el('li', { class: 'entry', 'data-role': call.role }, [callView(runIndex, call, { label: label + (detail ? ' (' + detail + ')' : ''), open: options.open === call.role })]);
      }));
    }

    // The problem's own calls of the iteration (banks, plans, syntheses over all candidates), oldest first.
    function problemTimeline(runIndex, calls) {
      return el('section', { class: 'timeline' }, [
        el('h2', { text: 'calls about the problem (' + calls.length + ')' }),
        calls.length ? el('ol', { class: 'transcript' }, calls.map(function (call) { return el('li', { class: 'entry', 'data-role': call.role }, [callView(runIndex, call)]); }))
          : el('p', { class: 'muted', text: 'Every call of this iteration is about one candidate.' }),
      ]);
    }

    return {
      callView: callView,
      candidateTranscript: candidateTranscript,
      problemTimeline: problemTimeline,
      downloadLink: downloadLink,
      // A problem's downloads name it by its id, URL-encoded, as its page does.
      candidateHref: function (runIndex, id, iteration, candidate) { return '/download/' + runIndex + '/problem/' + encodeURIComponent(id) + '/iteration/' + iteration + '/candidate/' + candidate; },
      problemHref: function (runIndex, id) { return '/download/' + runIndex + '/problem/' + encodeURIComponent(id); },
    };
  };
})();
