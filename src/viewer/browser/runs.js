// The runs page of the viewer (plain ES2017, no build step), at #/ and #/?runs=R,S:
// every run found under the folders given, with strategy, models, N/M/T, grading,
// final Pass@1, calls and status; the runs selected (their indexes in the URL) have
// their Pass@1 curves overlaid, with the report's caveats when they do not compare.
// Registered in window.tmasPages; viewer.js routes to it and gives its helpers (tmasKit).
(function () {
  'use strict';
  var pages = window.tmasPages = window.tmasPages || {};
  var COLORS = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#b07aa1', '#76b7b2', '#edc948', '#9c755f', '#ff9da7', '#bab0ac'];

  // GET /api/<path> as JSON (viewer.js's getJson, there when a page is drawn).
  function json(path, params) { return window.tmasKit.getJson('/api/' + path, params); }
  // The hash of a page with its query: `#/problems?runs=0,1&sort=tokens`.
  function hashOf(page, query) {
    var pairs = [];
    Object.keys(query).forEach(function (k) { if (query[k] !== undefined && query[k] !== null && query[k] !== '' && query[k] !== false) pairs.push(encodeURIComponent(k) + '=' + encodeURIComponent(query[k] === true ? '1' : query[k]).replace(/%2C/g, ',')); });
    return '#/' + page + (pairs.length ? '?' + pairs.join('&') : '');
  }
  function selection(query) {
    return (query.runs || '').split(',').filter(function (s) { return /^\d+$/.test(s); }).map(Number);
  }
  window.tmasFolder = { json: json, hashOf: hashOf, selection: selection, colors: COLORS };

  function statusCell(kit, run) {
    if (run.error) return kit.el('td', { class: 'status error' }, [kit.el('b', { text: run.error.code })]);
    return kit.el('td', { class: 'status' }, [kit.el('span', { class: 'tag ' + run.status, text: run.status })]);
  }
  function gradingText(run) {
    if (run.grading === null) return '–';
    return run.grading + (run.proof === null ? '' : run.proof ? ' · proof' : ' · answer');
  }
  function count(v) { return v === null || v === undefined ? '–' : String(v); }

  function runRow(kit, run, chosen, toggle) {
    var box = kit.el('input', { type: 'checkbox', 'aria-label': 'select ' + run.label, 'data-run': String(run.index) });
    box.checked = chosen.indexOf(run.index) >= 0;
    box.disabled = run.error !== null;
    box.onchange = function () { toggle(run.index, box.checked); };
    var name = kit.el('td', {}, [run.error ? run.label : kit.el('a', { href: '#/run/' + run.index, text: run.label })]);
    // A run that cannot be read says why across the columns it has no figures for.
    if (run.error) return kit.el('tr', { 'data-run': String(run.index), class: 'unreadable' }, [kit.el('td', {}, [box]), name, kit.el('td', { colspan: '6', class: 'error-text', text: run.error.message }), statusCell(kit, run)]);
    return kit.el('tr', { 'data-run': String(run.index) }, [
      kit.el('td', {}, [box]),
      name,
      kit.el('td', { class: 'strategy', text: run.strategy || '–' }),
      kit.el('td', { text: run.models.join(', ') || '–' }),
      kit.el('td', { text: run.n === null ? '–' : 'N=' + run.n + ' M=' + run.m + ' T=' + run.t }),
      kit.el('td', { text: gradingText(run) }),
      kit.el('td', { class: 'pass1', text: kit.percent(run.pass1) + (run.t !== null && run.iterations < run.t ? ' (' + run.iterations + ' of ' + run.t + ' iterations)' : '') }),
      kit.el('td', { text: count(run.calls) }),
      statusCell(kit, run),
    ]);
  }

  // The overlay: one Pass@1 line per run selected; runs outside the first comparison group dashed, and the caveat said.
  // Returns its update, which reads the overlay again (while a run is live).
  function drawOverlay(kit, container, chosen) {
    var box = kit.el('div', { class: 'chart' }, [kit.el('canvas', { id: 'overlay' })]);
    var notes = kit.el('div', { class: 'caveats' });
    container.replaceChildren(kit.el('h2', { text: 'Pass@1 of the runs selected' }), box, notes,
      kit.el('p', {}, [kit.el('a', { href: hashOf('problems', { runs: chosen.join(',') }), class: 'to-problems', text: 'problem list of the runs selected →' })]));
    var chart = new Chart(box.firstChild, {
      type: 'line', data: { datasets: [] },
      options: {
        animation: false, responsive: true, maintainAspectRatio: false,
        scales: { x: { type: 'linear', title: { display: true, text: 'iteration' }, ticks: { stepSize: 1, precision: 0 } }, y: { beginAtZero: true, max: 1, title: { display: true, text: 'Pass@1' }, ticks: { callback: function (v) { return kit.percent(v); } } } },
        plugins: { legend: { position: 'bottom' } },
      },
    });
    kit.onLeave(function () { chart.destroy(); });
    function update() {
      return json('overlay', { runs: chosen.join(',') }).then(function (overlay) {
        var first = overlay.groups.length ? overlay.groups[0].name : null;
        chart.data.datasets = overlay.runs.map(function (run, i) {
          var color = COLORS[i % COLORS.length];
          return {
            label: run.label + ' · ' + (run.strategy || '?') + (overlay.groups.length > 1 ? ' [' + run.group + ']' : '') + (run.live ? ' · live' : ''),
            borderColor: color, backgroundColor: color, fill: false, borderDash: run.group === first ? [] : [6, 4],
            data: run.points.filter(function (p) { return p.pass1 !== null; }).map(function (p) { return { x: p.iteration, y: p.pass1 }; }),
          };
        });
        chart.update();
        window.__tmasView.overlay = chart.data.datasets.map(function (d) { return d.data.length; });
        notes.replaceChildren();
        if (overlay.groups.length > 1) {
          notes.appendChild(kit.el('p', { class: 'caveat', text: 'These runs do not all compare: their Pass@1 were graded under different protocols, or over different problems or T. Dashed lines are outside group ' + first + '.' }));
          overlay.groups.forEach(function (g) {
            notes.appendChild(kit.el('p', { class: 'muted small', text: 'group ' + g.name + ' (' + g.label + ')' + (g.differences.length ? ': ' + g.differences.join('; ') : '') }));
          });
        }
        overlay.runs.forEach(function (run) {
          if (run.differs.length) notes.appendChild(kit.el('p', { class: 'muted small differs', text: run.label + ' differs from ' + overlay.runs[0].label + ' in ' + run.differs.join('; ') }));
        });
        return overlay;
      });
    }
    return update;
  }

  pages[''] = function (app, query) {
    var kit = window.tmasKit;
    var chosen = selection(query);
    return json('runs').then(function (folder) {
      var readable = folder.runs.filter(function (r) { return r.error === null; });
      if (folder.runs.length === 1 && readable.length === 1 && !query.runs) { location.hash = '#/run/0'; return; }
      function toggle(index, on) {
        var next = chosen.filter(function (i) { return i !== index; });
        if (on) next.push(index);
        location.hash = hashOf('', { runs: next.sort(function (a, b) { return a - b; }).join(',') });
      }
      var table = kit.el('table', { class: 'runs' });
      var head = kit.el('tr', {}, ['', 'run', 'strategy', 'model', 'N / M / T', 'grading', 'final Pass@1', 'calls', 'status'].map(function (h) { return kit.el('th', { text: h }); }));
      function fill(list) { table.replaceChildren.apply(table, [head].concat(list.runs.map(function (run) { return runRow(kit, run, chosen, toggle); }))); }
      fill(folder);
      var overlay = kit.el('section', { class: 'card overlay' });
      app.replaceChildren(kit.el('section', { class: 'card' }, [
        kit.el('h1', { text: folder.runs.length + ' runs' }),
        folder.truncated ? kit.el('p', { class: 'caveat', text: 'Not every run is listed: ' + folder.truncated + '.' }) : null,
        table,
        chosen.length ? null : kit.el('p', { class: 'muted', text: 'Select runs to overlay their Pass@1 curves and list their problems side by side.' }),
      ]));
      var update = null;
      if (chosen.length) {
        app.appendChild(overlay);
        update = drawOverlay(kit, overlay, chosen);
      }
      // While a run is live, its row (and the overlay) are read again every two seconds.
      if (folder.live) {
        var timer = setInterval(function () {
          json('runs').then(function (list) {
            fill(list);
            if (update) update().catch(function () {});
            if (!list.live) clearInterval(timer);
          }).catch(function () {});
        }, 2000);
        kit.onLeave(function () { clearInterval(timer); });
      }
      return update ? update() : null;
    });
  };
})();
