// The viewer's browser script (plain ES2017, no build step): builds the page
// from the JSON API of src/viewer/server.ts. Routes live in the URL hash:
//   #/                          the runs page (runs.js); a lone run opens at #/run/0
//   #/problems?runs=R,S&sort=…  the problem list of runs R and S (problems.js)
//   #/run/R                     a run: curves, problem table, calls, errors
//   #/run/R/problem/P/T         problem P of run R at iteration T: a transcript per candidate (transcript.js);
//                               P is the problem's id, URL-encoded (every link writes it so), or its input
//                               position from 0 when no problem has that id (the server resolves it)
// Texts are put in with textContent (never innerHTML), then KaTeX renders the math.
(function () {
  'use strict';
  var app = document.getElementById('app');
  var statusLine = document.getElementById('status');
  var runs = [];
  var charts = [];
  var poller = null;
  // What the browser test reads: points drawn per run on the curves.
  window.__tmasView = { points: {}, rendered: 0 };

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) for (var k in attrs) {
      if (attrs[k] === undefined || attrs[k] === null) continue;
      if (k === 'text') node.textContent = attrs[k];
      else if (k === 'onclick' || k === 'onchange' || k === 'oninput' || k === 'ontoggle') node[k] = attrs[k];
      else node.setAttribute(k, attrs[k]);
    }
    (children || []).forEach(function (c) { if (c !== null && c !== undefined) node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
    return node;
  }
  // GET a JSON answer; an error answer's text becomes the error.
  function getJson(url, params) {
    var query = [];
    for (var k in params || {}) if (params[k] !== undefined && params[k] !== null && params[k] !== '') query.push(encodeURIComponent(k) + '=' + encodeURIComponent(params[k]));
    return fetch(url + (query.length ? '?' + query.join('&') : '')).then(function (r) {
      if (!r.ok) return r.text().then(function (t) { throw new Error(t); });
      return r.json();
    });
  }
  function api(pathname, params) { return getJson('/api/runs' + pathname, params); }
  function percent(v) { return v === null || v === undefined ? '–' : Math.round(v * 1000) / 10 + '%'; }
  function score(v) { return v === null || v === undefined ? '–' : Number(v).toFixed(2); }
  function math(node) {
    if (window.renderMathInElement) {
      window.renderMathInElement(node, {
        delimiters: [
          { left: '$$', right: '$$', display: true }, { left: '\\[', right: '\\]', display: true },
          { left: '\\(', right: '\\)', display: false }, { left: '$', right: '$', display: false },
        ],
        throwOnError: false,
        ignoredTags: ['script', 'noscript', 'style', 'textarea', 'option', 'summary'],
      });
      window.__tmasView.rendered = document.querySelectorAll('.katex').length;
    }
    return node;
  }
  // A text block: math rendered; collapsed behind its first line when long.
  function textBlock(label, text, options) {
    options = options || {};
    var body = el('div', { class: 'text', 'data-kind': options.kind }, [text === null || text === undefined ? '' : String(text)]);
    var long = (text || '').length > 400;
    if (options.collapsed || long) {
      var preview = (text || '').replace(/\s+/g, ' ').slice(0, 140);
      var details = el('details', { class: 'block', 'data-kind': options.kind }, [el('summary', {}, [el('b', { text: label }), ' ', el('span', { class: 'muted', text: preview + ((text || '').length > 140 ? '…' : '') })]), body]);
      return details;
    }
    return el('div', { class: 'block', 'data-kind': options.kind }, [el('b', { text: label }), body]);
  }
  // The page of a problem at an iteration: named by its id, which stays right when the input is reordered.
  function problemHash(runIndex, id, iteration) { return '#/run/' + runIndex + '/problem/' + encodeURIComponent(id) + '/' + iteration; }
  // An answer is LaTeX without delimiters: typeset it inline unless it already has some.
  function asMath(answer) { return /\$|\\\(/.test(answer) ? answer : '$' + answer + '$'; }
  // Calls and transcripts (transcript.js).
  var views = window.tmasTranscript({ el: el, textBlock: textBlock });
  function setStatus(text) { statusLine.textContent = text; }

  var leaving = [];
  function destroyCharts() {
    charts.forEach(function (c) { c.destroy(); });
    charts = [];
    if (poller) { clearInterval(poller); poller = null; }
    leaving.splice(0).forEach(function (f) { f(); });
  }
  // What the pages of other files (runs.js, problems.js) use: they register in window.tmasPages by the route's first part.
  window.tmasKit = { el: el, getJson: getJson, math: math, percent: percent, asMath: asMath, problemHash: problemHash, setStatus: function (t) { setStatus(t); }, onLeave: function (f) { leaving.push(f); } };
  var pages = window.tmasPages = window.tmasPages || {};
  // A run's description is asked for when one of its pages is first shown: a folder of many runs opens none up front.
  function withRun(index) {
    if (runs[index]) return Promise.resolve(runs[index]);
    return api('/' + index).then(function (summary) { runs[index] = summary; return summary; });
  }

  // The curves of a run: one line per figure that means something for its strategy.
  var SERIES = [
    { key: 'pass1', label: 'Pass@1', color: '#4e79a7' },
    { key: 'majority', label: 'majority vote', color: '#f28e2b' },
    { key: 'bestVerified', label: 'best-verified', color: '#59a14f', verifier: true },
    { key: 'oracle', label: 'pass@N', color: '#b07aa1' },
  ];
  function curveData(run, iterations) {
    return SERIES.filter(function (s) { return !s.verifier || run.hasVerifier; }).map(function (s) {
      return {
        label: s.label, borderColor: s.color, backgroundColor: s.color, fill: false,
        data: iterations.filter(function (it) { return it[s.key] !== null && it[s.key] !== undefined; }).map(function (it) { return { x: it.iteration, y: it[s.key] }; }),
      };
    });
  }
  function drawCurves(container, run) {
    var box = el('div', { class: 'chart' }, [el('canvas', { id: 'curves-' + run.index })]);
    var note = el('p', { class: 'muted note' });
    container.appendChild(box);
    container.appendChild(note);
    var chart = new Chart(box.firstChild, {
      type: 'line',
      data: { datasets: [] },
      options: {
        animation: false, responsive: true, maintainAspectRatio: false,
        scales: { x: { type: 'linear', title: { display: true, text: 'iteration' }, ticks: { stepSize: 1, precision: 0 } }, y: { beginAtZero: true, max: 1, title: { display: true, text: run.simulated ? 'share correct (simulated model)' : 'share correct' }, ticks: { callback: function (v) { return percent(v); } } } },
        plugins: { legend: { position: 'bottom' }, title: { display: true, text: run.name + ' · ' + run.strategy + (run.live ? ' · live' : '') } },
      },
    });
    charts.push(chart);
    function update() {
      return api('/' + run.index + '/curves').then(function (curves) {
        chart.data.datasets = curveData(run, curves.iterations);
        chart.options.plugins.title.text = run.name + ' · ' + run.strategy + (curves.live ? ' · live' : '');
        chart.update();
        var points = chart.data.datasets.length ? chart.data.datasets[0].data.length : 0;
        window.__tmasView.points[run.index] = points;
        var graded = curves.iterations.some(function (it) { return it.graded > 0; });
        note.textContent = curves.iterations.length === 0
          ? (curves.live ? 'No iteration has completed yet: the curves appear when the first one does.' : 'No iteration completed in this run.')
          : graded ? '' : 'No curve: no problem could be graded (no reference answers, or a proof run without reference solutions).';
        if (!curves.live && poller) { clearInterval(poller); poller = null; }
        return curves;
      });
    }
    return update().then(function (curves) {
      if (curves.live && !poller) poller = setInterval(function () { update().catch(function () {}); }, 1000);
    });
  }

  function runHeader(run) {
    return el('section', { class: 'run-head' }, [
      el('h1', {}, [el('a', { href: '#/run/' + run.index, text: run.name }), ' ', el('span', { class: 'tag', text: run.strategy }), run.live ? el('span', { class: 'tag live', text: 'live' }) : null, run.simulated ? el('span', { class: 'tag sim', text: 'simulated model' }) : null]),
      el('p', { class: 'muted', text: run.settings + ' · ' + run.sampling }),
      el('ul', { class: 'models' }, run.models.map(function (m) { return el('li', { text: m }); })),
    ]);
  }

  function problemTable(run, container, state) {
    var filter = el('select', { 'aria-label': 'correctness' }, ['all', 'correct', 'wrong', 'failed'].map(function (f) { return el('option', { value: f, text: f === 'all' ? 'all problems' : f === 'correct' ? 'with a correct candidate' : f === 'wrong' ? 'with a wrong candidate' : 'with failed calls' }); }));
    var search = el('input', { type: 'search', placeholder: 'problem id', 'aria-label': 'problem id' });
    var table = el('table', { class: 'problems' });
    var more = el('button', { text: 'more problems' });
    container.appendChild(el('div', { class: 'filters' }, [filter, search]));
    container.appendChild(table);
    container.appendChild(more);
    var next = 0;
    function head() {
      table.replaceChildren(el('tr', {}, ['problem', 'answer', 'iterations', 'last iteration: candidates (answer · score)'].map(function (h) { return el('th', { text: h }); })));
    }
    function load(reset) {
      if (reset) { next = 0; head(); }
      return api('/' + run.index + '/problems', { from: next, limit: 50, filter: filter.value, search: search.value }).then(function (page) {
        page.rows.forEach(function (row) {
          var last = Math.max(0, row.iterations - 1);
          var cells = el('td', { class: 'cands' }, row.candidates.map(function (c, i) {
            var cls = c.correct === true ? 'ok' : c.correct === false ? 'bad' : 'unk';
            return el('a', { class: 'cand ' + cls, href: problemHash(run.index, row.id, last) + '?c=' + i, title: 'candidate ' + i + (c.failures ? ', ' + c.failures + ' failed call(s)' : ''), text: (c.answer === null ? '∅' : asMath(c.answer)) + (run.hasVerifier ? ' · ' + score(c.score) : '') });
          }));
          table.appendChild(el('tr', {}, [
            el('td', {}, [el('a', { href: problemHash(run.index, row.id, last), text: row.id })]),
            el('td', { text: row.answer === null ? '–' : asMath(row.answer) }),
            el('td', { text: String(row.iterations) }),
            cells,
          ]));
        });
        math(table);
        next = page.next;
        more.hidden = next === null;
        state.total.textContent = page.total + ' problems';
      });
    }
    filter.onchange = function () { load(true); };
    search.oninput = function () { load(true); };
    more.onclick = function () { load(false); };
    return load(true);
  }

  function callBrowser(run, container, initial) {
    var problem = el('input', { type: 'search', placeholder: 'problem id', value: initial.problem || '' });
    var iteration = el('input', { type: 'number', min: '0', placeholder: 'iteration', value: initial.iteration || '' });
    var role = el('input', { type: 'search', placeholder: 'role', value: initial.role || '' });
    var search = el('input', { type: 'search', placeholder: 'text in prompt or response' });
    var list = el('div', { class: 'calls' });
    var more = el('button', { text: 'more calls' });
    var after = null;
    function load(reset) {
      if (reset) { after = null; list.replaceChildren(); }
      var params = { problem: problem.value, role: role.value, search: search.value, after: after, limit: 25 };
      if (problem.value !== '') params.iteration = iteration.value;
      return api('/' + run.index + '/calls', params).then(function (page) {
        page.calls.forEach(function (call) { list.appendChild(views.callView(run.index, call)); });
        if (reset && page.calls.length === 0) list.appendChild(el('p', { class: 'muted', text: page.next ? 'No match in the first calls read; ask for more.' : 'No call matches.' }));
        after = page.next;
        more.hidden = after === null;
        math(list);
      });
    }
    var go = el('button', { text: 'search', onclick: function () { load(true); } });
    container.appendChild(el('div', { class: 'filters' }, [problem, iteration, role, search, go]));
    container.appendChild(list);
    container.appendChild(more);
    more.onclick = function () { load(false); };
    return load(true);
  }

  // The log's error messages. A page that found none before its read budget goes on by itself, so a run without
  // errors says so instead of offering an empty page and a button.
  function errorBrowser(run, container) {
    var list = el('table', { class: 'errors' });
    var more = el('button', { text: 'more errors' });
    var note = el('p', { class: 'muted', text: 'Reading the log…' });
    var after = null;
    var found = 0;
    function load() {
      more.hidden = true;
      return api('/' + run.index + '/messages', { type: 'errors', after: after, limit: 100 }).then(function (page) {
        page.messages.forEach(function (e) {
          var m = e.message;
          list.appendChild(el('tr', {}, [el('td', { text: m.type }), el('td', {}, [m.problem ? el('a', { text: m.problem + ' / ' + m.iteration, href: '#/run/' + run.index + '/calls?problem=' + encodeURIComponent(m.problem) + '&iteration=' + m.iteration }) : '']), el('td', { text: m.role || '' }), el('td', { text: m.code || '' }), el('td', { class: 'text', text: m.error || m.reason || JSON.stringify(m.dropped || '') })]));
        });
        found += page.messages.length;
        after = page.next;
        if (page.messages.length === 0 && after !== null) return load();
        more.hidden = after === null;
        note.textContent = found === 0 ? 'No errors in this run: no failed call, unusable output or trimmed prompt' + (run.live ? ' so far.' : '.') : found + ' error message' + (found === 1 ? '' : 's') + (after === null ? '.' : ' so far; more below.');
        note.className = found === 0 ? 'muted no-errors' : 'muted';
      });
    }
    container.appendChild(note);
    container.appendChild(list);
    container.appendChild(more);
    more.onclick = load;
    return load();
  }

  function showRun(index, tab, query) {
    var run = runs[index];
    if (!run) { app.textContent = 'No run ' + index; return Promise.resolve(); }
    app.replaceChildren();
    app.appendChild(runHeader(run));
    var curves = el('section', { class: 'card' });
    app.appendChild(curves);
    var state = { total: el('span', { class: 'muted' }) };
    var tabs = el('nav', { class: 'tabs' }, [
      el('a', { href: '#/run/' + index, class: tab === 'problems' ? 'on' : '', text: 'problems' }), state.total,
      el('a', { href: '#/run/' + index + '/calls', class: tab === 'calls' ? 'on' : '', text: 'calls' }),
      el('a', { href: '#/run/' + index + '/errors', class: tab === 'errors' ? 'on' : '', text: 'errors' }),
      el('a', { href: '#/problems?runs=' + index, text: 'sortable problem list' }),
    ]);
    app.appendChild(tabs);
    var body = el('section', { class: 'card' });
    app.appendChild(body);
    var work = tab === 'calls' ? callBrowser(run, body, query) : tab === 'errors' ? errorBrowser(run, body) : problemTable(run, body, state);
    return Promise.all([drawCurves(curves, run), work]);
  }

  // What a grading call gave, beside its response: a judge pass's verdict, a verification's score.
  function gradeDetail(c) {
    return function (call) {
      var pass = call.subject ? call.subject.pass : undefined;
      if (pass === undefined) return '';
      if (call.role === 'judge') { var v = c.judge ? c.judge.verdicts[pass] : undefined; return v === undefined ? '' : v === null ? 'no verdict' : v ? 'verdict ✓' : 'verdict ✗'; }
      if (call.role === 'verification' || call.role === 'rater') return c.verificationScores[pass] === undefined ? '' : 'score ' + score(c.verificationScores[pass]);
      return '';
    };
  }

  // A candidate: its grade and scores, then its transcript (every call about it, in the order they started).
  function candidateCard(run, place, c, calls, wanted) {
    var grade = c.correctJudge !== null && c.correctJudge !== undefined ? c.correctJudge > 0.5 : c.correct;
    var verdicts = c.judge ? c.judge.verdicts.map(function (v) { return v === null ? '?' : v ? '✓' : '✗'; }).join(' ') : null;
    var judged = calls.some(function (k) { return k.role === 'judge'; });
    return el('div', { class: 'candidate ' + (grade === true ? 'ok' : grade === false ? 'bad' : 'unk'), id: 'cand-' + c.candidate, 'data-candidate': String(c.candidate) }, [
      el('h3', {}, [
        el('span', { text: 'candidate ' + c.candidate + ' · ' + c.source + ' · answer ' + (c.answer === null ? '(none)' : asMath(c.answer)) + ' · ' + (grade === true ? 'correct' : grade === false ? 'wrong' : 'ungraded') + ' · ' + calls.length + ' call' + (calls.length === 1 ? '' : 's') }), ' ',
        views.downloadLink(views.candidateHref(run.index, place.id, place.iteration, c.candidate), 'transcript JSON'),
      ]),
      el('p', { class: 'muted', text: [
        run.hasVerifier ? 'verification scores ' + c.verificationScores.map(score).join(' ') + ' · summary score ' + score(c.summaryScore) : '',
        verdicts ? 'judge ' + verdicts + (judged ? '' : ' (verdicts reused from an earlier identical judge request)') : '',
        verdicts && c.correct !== null ? 'rule ' + (c.correct ? 'correct' : 'wrong') : '',
      ].filter(Boolean).join(' · ') }),
      c.failures.length ? el('p', { class: 'bad-text', text: 'failed calls: ' + c.failures.join('; ') }) : null,
      views.candidateTranscript(run.index, calls, { open: wanted ? 'summary' : null, detail: gradeDetail(c) }),
    ]);
  }

  function banksView(banks) {
    return el('div', { class: 'banks' }, [
      el('h3', { text: 'experience bank E(t): ' + banks.experience.length + ' records' }),
      el('ul', {}, banks.experience.map(function (r) { return el('li', {}, [el('span', { class: 'tag', text: r.kind }), ' ', el('span', { class: 'text', text: r.text }), el('span', { class: 'muted small', text: '  (iteration ' + r.provenance.iteration + ', candidate ' + (r.provenance.candidate === null ? '–' : r.provenance.candidate) + ')' })]); })),
      el('h3', { text: 'guideline bank G(t): ' + banks.guidelines.length + ' records' }),
      el('ul', {}, banks.guidelines.map(function (r) { return el('li', {}, [el('b', { class: 'text', text: r.strategy }), ': ', el('span', { class: 'text', text: r.outcome })]); })),
    ]);
  }

  // `key` is what the URL names the problem by (its id, or a position); once found, it is asked for by its id.
  function showProblem(index, key, iteration, query) {
    var run = runs[index];
    destroyCharts();
    app.replaceChildren(runHeader(run));
    return api('/' + index + '/problems/' + encodeURIComponent(key)).then(function (detail) {
      var p = detail.problem;
      var ref = encodeURIComponent(p.id);
      var record = detail.iterations.filter(function (r) { return r.iteration === iteration; })[0];
      var nav = el('nav', { class: 'tabs' }, [el('span', { text: 'iteration: ' })].concat(detail.iterations.map(function (r) {
        return el('a', { href: problemHash(index, p.id, r.iteration), class: r.iteration === iteration ? 'on' : '', text: String(r.iteration) });
      })).concat([el('a', { href: '#/run/' + index + '/calls?problem=' + encodeURIComponent(p.id), text: 'every call of this problem' })]));
      var head = el('section', { class: 'card problem' }, [
        el('h2', { text: 'problem ' + p.id }),
        el('div', { class: 'text question', text: p.question }),
        p.answer !== undefined ? el('p', {}, ['reference answer: ', el('span', { class: 'text', text: asMath(p.answer) })]) : null,
        p.solution ? textBlock('reference solution', p.solution, { kind: 'reference', collapsed: true }) : null,
        el('p', {}, [views.downloadLink(views.problemHref(index, p.id), 'download the problem as JSON (its iterations and every call)')]),
        nav,
      ]);
      app.appendChild(head);
      if (!record) {
        app.appendChild(el('p', { class: 'muted', text: detail.iterations.length ? 'Iteration ' + iteration + ' has not completed.' : 'No iteration of this problem has completed yet.' }));
        return math(app);
      }
      var body = el('section', { class: 'card' }, [el('p', { class: 'muted', text: 'Loading calls…' })]);
      app.appendChild(body);
      return Promise.all([
        api('/' + index + '/problems/' + ref + '/transcript/' + iteration),
        run.hasVerifier ? api('/' + index + '/problems/' + ref + '/banks/' + iteration) : null,
      ]).then(function (both) {
        var transcript = both[0];
        var byCandidate = {};
        transcript.candidates.forEach(function (t) { byCandidate[t.candidate] = t.calls; });
        var wanted = query.c === undefined ? null : Number(query.c);
        body.replaceChildren(el('h2', { text: 'iteration ' + iteration + ': ' + record.candidates.length + ' candidates' }));
        if (transcript.truncated) body.appendChild(el('p', { class: 'bad-text', text: 'This iteration has more calls than a page shows; the calls tab lists them all.' }));
        record.candidates.forEach(function (c) { body.appendChild(candidateCard(run, { id: p.id, iteration: iteration }, c, byCandidate[c.candidate] || [], wanted === c.candidate)); });
        // Calls about a candidate this iteration's results do not hold (majority's later samples in iteration 0) stay in view.
        var listed = {};
        record.candidates.forEach(function (c) { listed[c.candidate] = true; });
        transcript.candidates.filter(function (t) { return !listed[t.candidate]; }).forEach(function (t) {
          body.appendChild(el('div', { class: 'candidate unk', id: 'cand-' + t.candidate, 'data-candidate': String(t.candidate) }, [
            el('h3', { text: 'candidate ' + t.candidate + ' · not among the results of iteration ' + iteration + ' · ' + t.calls.length + ' call' + (t.calls.length === 1 ? '' : 's') }),
            views.candidateTranscript(index, t.calls),
          ]));
        });
        body.appendChild(views.problemTimeline(index, transcript.problemCalls));
        if (run.hasVerifier) body.appendChild(el('section', {}, [el('h2', { text: 'banks after iteration ' + iteration }), banksView(both[1])]));
        math(app);
        if (wanted !== null) { var target = document.getElementById('cand-' + wanted); if (target) target.scrollIntoView(); }
      });
    });
  }

  function parseHash() {
    var hash = location.hash.replace(/^#\/?/, '');
    var q = hash.indexOf('?');
    var query = {};
    if (q >= 0) {
      hash.slice(q + 1).split('&').forEach(function (pair) { var kv = pair.split('='); if (kv[0]) query[decodeURIComponent(kv[0])] = decodeURIComponent(kv[1] || ''); });
      hash = hash.slice(0, q);
    }
    // A part may be an encoded problem id (a "/" in it is %2F); one that is not valid encoding is taken as written.
    return { parts: hash.split('/').filter(Boolean).map(function (part) { try { return decodeURIComponent(part); } catch (e) { return part; } }), query: query };
  }
  // Each navigation renders anew; only the latest one, still on its own hash (the home page of one run moves on to
  // that run), may say the page is ready: a test waits for that.
  var routes = 0;
  function route() {
    var generation = ++routes;
    var hash = location.hash;
    destroyCharts();
    var r = parseHash();
    var p = r.parts;
    var done;
    if (p[0] === 'run' && p[2] === 'problem') done = withRun(Number(p[1])).then(function () { return showProblem(Number(p[1]), p[3] || '', Number(p[4] || 0), r.query); });
    else if (p[0] === 'run') done = withRun(Number(p[1])).then(function () { return showRun(Number(p[1]), p[2] || 'problems', r.query); });
    else if (pages[p[0] || '']) done = pages[p[0] || ''](app, r.query);
    else done = Promise.reject(new Error('no page ' + location.hash));
    setStatus('');
    Promise.resolve(done).then(function () { if (generation === routes && location.hash === hash) document.body.setAttribute('data-ready', hash); }).catch(function (e) { setStatus('error: ' + e.message); });
  }

  window.addEventListener('hashchange', route);
  route();
})();
