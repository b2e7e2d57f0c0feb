/**
 * The report's browser script, inlined after Chart.js and the chart data: it
 * draws every ChartSpec (charts.ts) with Chart.js, records per chart how many
 * points it drew for each run in `window.__tmasCharts` (what the browser test
 * reads), draws one band at a time where many lines carry one, and opens
 * the problem details a link points to. Plain ES2017 in a
 * string: it runs in the reader's browser, not in Node.
 */

/**
 * A chart with more lines than this that carry a 95% band draws only the band
 * of the line the pointer is on (the line or its legend entry): six bands at
 * once overlap into one mass.
 */
export const BANDS_ALL_UP_TO = 2;

/** Id of the `<script type="application/json">` element holding the ChartSpec list. */
export const CHART_DATA_ID = 'tmas-chart-data';

/** The script's source. */
export const CLIENT_SCRIPT = `(function () {
  'use strict';
  var specs = JSON.parse(document.getElementById('${CHART_DATA_ID}').textContent);
  function percent(v) { return Math.round(v * 1000) / 10 + '%'; }
  function short(v) {
    var a = Math.abs(v);
    if (a >= 1e6) return Number((v / 1e6).toPrecision(3)) + 'M';
    if (a >= 1e4) return Number((v / 1e3).toPrecision(3)) + 'k';
    return String(Number(Number(v).toPrecision(4)));
  }
  function axis(title, extra) {
    var a = { title: { display: true, text: title } };
    for (var k in extra) a[k] = extra[k];
    return a;
  }
  function pointsPerRun(chart, spec) {
    var counts = [];
    for (var r = 0; r < spec.runs; r++) counts.push(0);
    chart.data.datasets.forEach(function (ds, i) {
      var meta = chart.getDatasetMeta(i);
      if (meta.hidden || ds.tmasBand) return;
      meta.data.forEach(function (el, j) {
        if (!Number.isFinite(el.x) || !Number.isFinite(el.y)) return;
        if (spec.kind === 'bar' && !(ds.data[j] > 0)) return;
        var run = spec.runsAreLabels ? j : ds.tmasRun;
        if (run !== null && run >= 0 && run < counts.length) counts[run] += 1;
      });
    });
    return counts;
  }
  // Runs with equal figures draw on top of each other (the first run on top): later runs get wider lines and larger markers of their own shape, so each stays visible.
  var MARKERS = ['circle', 'triangle', 'rect', 'rectRot', 'star', 'crossRot', 'rectRounded', 'cross'];
  var drawn = [];
  specs.forEach(function (spec) {
    var canvas = document.getElementById('chart-' + spec.id);
    if (spec.empty) {
      // Nothing to draw: say why in the chart's place instead of an empty frame.
      var box = canvas.parentNode;
      box.style.height = 'auto';
      var why = document.createElement('p');
      why.className = 'empty-chart';
      var title = document.createElement('b');
      title.textContent = spec.title;
      why.appendChild(title);
      why.appendChild(document.createElement('br'));
      why.appendChild(document.createTextNode(spec.empty));
      box.replaceChildren(why);
      drawn.push({ id: spec.id, title: spec.title, type: spec.kind, datasets: 0, pointsPerRun: new Array(spec.runs).fill(0), empty: spec.empty });
      return;
    }
    var horizontal = spec.kind === 'bar' && spec.stacked === true;
    var format = spec.percent ? percent : short;
    var tick = { callback: function (v) { return format(v); } };
    var datasets = [];
    var focusOnly = spec.datasets.filter(function (d) { return d.band; }).length > ${BANDS_ALL_UP_TO};
    spec.datasets.forEach(function (d) {
      var ds = { label: d.label, borderColor: d.color, backgroundColor: d.color, tmasRun: d.run };
      if (spec.kind === 'line') {
        ds.data = d.points.map(function (p) { return { x: p[0], y: p[1] }; });
        ds.borderDash = d.dashed ? [6, 4] : [];
        var rank = Math.min(d.run || 0, 3);
        ds.borderWidth = 2 + 2 * rank;
        ds.pointStyle = MARKERS[(d.run || 0) % MARKERS.length];
        ds.pointRadius = 4 + 2 * rank;
        ds.fill = false;
      } else {
        ds.data = d.values;
      }
      datasets.push(ds);
      if (d.band) {
        // The 95% interval as a shaded band: a lower edge, and an upper edge filled down to it.
        var edge = { borderWidth: 0, pointRadius: 0, pointHitRadius: 0, tmasBand: true, tmasRun: d.run, label: d.label + ' (95% interval)' };
        datasets.push(Object.assign({}, edge, { data: d.band.map(function (b) { return { x: b[0], y: b[1] }; }), fill: false }));
        var shade = d.color + '2e';
        datasets.push(Object.assign({}, edge, { data: d.band.map(function (b) { return { x: b[0], y: b[2] }; }), fill: '-1', tmasShade: shade, backgroundColor: focusOnly ? 'transparent' : shade }));
      }
    });
    var scales;
    if (spec.kind === 'line') {
      scales = {
        x: axis(spec.xTitle, { type: 'linear', ticks: spec.integerX ? { stepSize: 1, precision: 0 } : { callback: function (v) { return short(v); } } }),
        y: axis(spec.yTitle, { beginAtZero: true, max: spec.percent ? 1 : undefined, ticks: tick }),
      };
    } else if (horizontal) {
      scales = { x: axis(spec.xTitle, { stacked: true, beginAtZero: true, ticks: tick }), y: axis(spec.yTitle, { stacked: true }) };
    } else {
      scales = { x: axis(spec.xTitle, {}), y: axis(spec.yTitle, { beginAtZero: true, max: spec.percent ? 1 : undefined, ticks: tick }) };
    }
    var entry = { id: spec.id };
    // Shows the band of one run (null: none) where a chart draws bands one at a time.
    function focus(chart, run) {
      if (!focusOnly || entry.bandFocus === run) return;
      entry.bandFocus = run;
      chart.data.datasets.forEach(function (ds) { if (ds.tmasShade) ds.backgroundColor = ds.tmasRun === run ? ds.tmasShade : 'transparent'; });
      chart.update('none');
    }
    function runAt(event, chart) {
      if (event.type === 'mouseout') return null;
      var hit = chart.getElementsAtEventForMode(event, 'nearest', { intersect: false }, false)[0];
      return hit ? chart.data.datasets[hit.datasetIndex].tmasRun : null;
    }
    var chart = new Chart(canvas, {
      type: spec.kind,
      data: { labels: spec.labels, datasets: datasets },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        indexAxis: horizontal ? 'y' : 'x',
        scales: scales,
        onHover: function (event, elements, chart) { focus(chart, runAt(event, chart)); },
        plugins: {
          title: { display: true, text: spec.title, font: { size: 14 } },
          legend: {
            position: 'bottom',
            labels: { boxWidth: 18, filter: function (item, data) { return !data.datasets[item.datasetIndex].tmasBand; } },
            onHover: function (event, item, legend) { focus(legend.chart, legend.chart.data.datasets[item.datasetIndex].tmasRun); },
            onLeave: function (event, item, legend) { focus(legend.chart, null); },
          },
          tooltip: { filter: function (item) { return !item.dataset.tmasBand; }, callbacks: { label: function (ctx) { return ctx.dataset.label + ': ' + format(horizontal ? ctx.parsed.x : ctx.parsed.y); } } },
        },
      },
    });
    var lines = chart.data.datasets.filter(function (ds) { return !ds.tmasBand; }).length;
    // bandFocus: the run whose band alone is drawn (null: none yet); absent where every band is drawn.
    drawn.push(Object.assign(entry, { title: chart.options.plugins.title.text, type: chart.config.type, datasets: lines, bands: chart.data.datasets.length - lines, pointsPerRun: pointsPerRun(chart, spec) }, focusOnly ? { bandFocus: entry.bandFocus === undefined ? null : entry.bandFocus } : {}));
  });
  window.__tmasCharts = drawn;
  // Browsers open a closed <details> around a link's target only in some versions: open it here, and its ancestors.
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id ? document.getElementById(id) : null;
    if (!target) return;
    for (var d = target.closest('details'); d; d = d.parentElement ? d.parentElement.closest('details') : null) d.open = true;
    target.scrollIntoView();
  }
  window.addEventListener('hashchange', openTarget);
  openTarget();
})();
`;
