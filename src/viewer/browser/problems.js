// The problem list of the viewer (plain ES2017, no build step), at #/problems?runs=R,S&…:
// per problem across the runs selected, final Pass@1, changes between iterations, judge ≠ rule,
// disagreement between the runs, tokens and failed calls. A column header sorts; the filters and
// the sort live in the URL, so a reload, a problem's page (its link carries the list) and Back keep them.
(function () {
  'use strict';
  var pages = window.tmasPages = window.tmasPages || {};
  var COLUMNS = [
    { key: 'id', label: 'problem' },
    { key: 'pass1', label: 'Pass@1', title: 'final Pass@1, mean over the runs' },
    { key: 'changes', label: 'changes', title: 'iterations whose majority answer or Pass@1 differs from the one before, over the runs' },
    { key: 'judgeRule', label: 'judge ≠ rule', title: 'candidates the judge and the rule-based grader grade differently' },
    { key: 'disagreement', label: 'disagreement', title: 'highest minus lowest final Pass@1 among the runs' },
    { key: 'tokens', label: 'tokens', title: 'prompt and completion tokens of every call of the problem' },
    { key: 'failures', label: 'failed calls', title: 'calls behind its candidates that failed for good' },
  ];
  var FLAGS = [
    { key: 'changed', label: 'answer or grade changed' },
    { key: 'judge', label: 'judge ≠ rule' },
    { key: 'disagree', label: 'runs disagree' },
    { key: 'failed', label: 'failed calls' },
  ];

  function number(v) { return v === null || v === undefined ? '–' : Number(v).toLocaleString('en'); }

  // The filters bar: each change writes the URL, and the page is drawn again from it.
  function filterBar(kit, query, go) {
    var pass = kit.el('select', { 'aria-label': 'Pass@1', name: 'pass' }, [['', 'any Pass@1'], ['zero', 'Pass@1 = 0'], ['partial', '0 < Pass@1 < 1'], ['full', 'Pass@1 = 1']].map(function (o) { return kit.el('option', { value: o[0], text: o[1] }); }));
    pass.value = query.pass || '';
    pass.onchange = function () { go({ pass: pass.value }); };
    var flags = FLAGS.map(function (f) {
      var box = kit.el('input', { type: 'checkbox', name: f.key });
      box.checked = query[f.key] === '1';
      box.onchange = function () { var change = {}; change[f.key] = box.checked; go(change); };
      return kit.el('label', {}, [box, ' ' + f.label]);
    });
    var tokens = kit.el('input', { type: 'number', min: '0', name: 'tokens', placeholder: 'tokens at least', value: query.tokens || '' });
    tokens.onchange = function () { go({ tokens: tokens.value }); };
    var search = kit.el('input', { type: 'search', name: 'q', placeholder: 'problem id', value: query.q || '' });
    search.onchange = function () { go({ q: search.value }); };
    return kit.el('div', { class: 'filters' }, [pass].concat(flags).concat([tokens, search]));
  }

  function header(kit, query, runs, go) {
    var cells = COLUMNS.map(function (c) {
      var on = (query.sort || 'id') === c.key;
      var desc = query.desc === '1';
      var th = kit.el('th', { class: 'sortable' + (on ? ' on' : ''), 'data-sort': c.key, title: c.title, 'aria-sort': on ? (desc ? 'descending' : 'ascending') : 'none' }, [c.label + (on ? (desc ? ' ▼' : ' ▲') : '')]);
      // The first click on a column sorts the largest first (problem ids: in order); the next reverses it.
      th.onclick = function () { go({ sort: c.key, desc: on ? !desc : c.key !== 'id' }); };
      return th;
    });
    return kit.el('tr', {}, cells.concat(runs.map(function (run) { return kit.el('th', { class: 'run-col', text: run.label }); })));
  }

  // The problem's page in each run that has it; its URL carries this list, which the header links back to.
  function problemHref(s, run) {
    var last = Math.max(0, s.iterations - 1);
    return window.tmasKit.problemHash(run, s.problem, last) + '?list=' + encodeURIComponent(location.hash.slice(1));
  }

  function row(kit, r, selected, runs) {
    var firstAt = r.runs.findIndex(Boolean);
    var cells = [
      kit.el('td', { class: 'id' }, [firstAt < 0 ? r.id : kit.el('a', { href: problemHref(r.runs[firstAt], selected[firstAt]), text: r.id })]),
      kit.el('td', { class: 'pass1', text: kit.percent(r.pass1) }),
      kit.el('td', { text: String(r.changes) }),
      kit.el('td', { text: String(r.judgeRule) }),
      kit.el('td', { text: r.disagreement === null ? '–' : kit.percent(r.disagreement) }),
      kit.el('td', { class: 'tokens', text: number(r.tokens) }),
      kit.el('td', { text: String(r.failures) }),
    ];
    r.runs.forEach(function (s, i) {
      if (s === null) { cells.push(kit.el('td', { class: 'muted', text: '–' })); return; }
      cells.push(kit.el('td', {}, [kit.el('a', { href: problemHref(s, selected[i]), title: runs[i].label, text: kit.percent(s.pass1) + (s.answer === null ? '' : ' · ' + kit.asMath(s.answer)) })]));
    });
    return kit.el('tr', { 'data-id': r.id }, cells);
  }

  pages.problems = function (app, query) {
    var kit = window.tmasKit;
    var folder = window.tmasFolder;
    var selected = folder.selection(query);
    if (!selected.length) selected = [0];
    function go(change) {
      var next = {};
      for (var k in query) next[k] = query[k];
      for (var c in change) next[c] = change[c];
      location.hash = folder.hashOf('problems', next);
    }
    var params = { runs: selected.join(','), limit: 100 };
    ['sort', 'desc', 'pass', 'changed', 'judge', 'disagree', 'failed', 'tokens', 'q'].forEach(function (k) { if (query[k] !== undefined) params[k] = query[k]; });
    return Promise.all([folder.json('runs'), folder.json('problem-list', params)]).then(function (both) {
      var runs = selected.map(function (i) { return both[0].runs[i] || { label: 'run ' + i }; });
      var table = kit.el('table', { class: 'problem-list' });
      var more = kit.el('button', { text: 'more problems' });
      var total = kit.el('p', { class: 'muted total' });
      table.appendChild(header(kit, query, runs, go));
      function add(page) {
        page.rows.forEach(function (r) { table.appendChild(row(kit, r, page.runs, runs)); });
        kit.math(table);
        total.textContent = page.matched + ' of ' + page.total + ' problems';
        more.hidden = page.next === null;
        more.onclick = function () { params.from = page.next; folder.json('problem-list', params).then(add); };
      }
      app.replaceChildren(kit.el('section', { class: 'card' }, [
        kit.el('h1', {}, ['problems of ', runs.map(function (r) { return r.label; }).join(', '), ' ', kit.el('a', { class: 'small', href: folder.hashOf('', { runs: selected.join(',') }), text: '(runs)' })]),
        filterBar(kit, query, go), total, table, more,
      ]));
      add(both[1]);
    });
  };

  // The header's way back to the list from a problem's page whose URL carries it.
  function trail() {
    var back = document.getElementById('back-to-list');
    var match = /[?&]list=([^&]*)/.exec(location.hash);
    back.hidden = !match;
    if (match) back.setAttribute('href', '#' + decodeURIComponent(match[1]));
  }
  window.addEventListener('hashchange', trail);
  document.addEventListener('DOMContentLoaded', trail);
})();
