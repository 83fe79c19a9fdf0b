// Live run view: the runs on the topic, the selected one's phase, elapsed / remaining, its per-second metric with
// the warm-up and the steady window marked, each repetition's value as it arrives and the mean ± CI.
(function () {
  'use strict';
  const { $, el, json, text, exact, stops, duration, feed } = window.np;

  const runs = new Map();     // run id -> RunView
  let selected = null;        // run id the detail shows
  let follow = true;          // follow the newest active run until the user picks one
  let points = [];            // [[t_s, value], ...] of the selected run's metric
  let results = [];           // results of the selected run's plan/test
  let chart = null;

  const ORDER = ['PLANNED', 'PREPARING', 'WARMUP', 'MEASURING', 'STEADY', 'STOPPING', 'DONE', 'FAILED'];
  const METRIC_UNITS = { rx_bps: 'bit/s', tx_bps: 'bit/s', rx_pps: 'packets/s', tx_pps: 'packets/s',
    tcp_estab: 'connections' };

  function ended(run) { return run.phase === 'DONE' || run.phase === 'FAILED'; }

  function onRun(run) {
    runs.set(run.run, run);
    if (follow && !ended(run) && (!selected || ended(runs.get(selected)) || selected === run.run)) {
      if (selected !== run.run) select(run.run, false);
    }
    renderList();
    if (run.run === selected) renderDetail();
  }

  function onResult(result) {
    const run = runs.get(selected);
    if (run && result.plan === run.plan && result.test === run.test) {
      results = results.filter((r) => r.metric !== result.metric).concat([result]);
      renderResults();
    }
  }

  function onRate(rate) {
    const run = runs.get(selected);
    if (!run || rate.host !== run.sut || (rate.iface ?? null) !== (run.iface ?? null) || rate.metric !== run.metric) return;
    // the series is shared by every run on this SUT: keep only this run's seconds
    const started = Math.min(...Object.values(run.phases || {}));
    if (rate.windowEnd < started - 1000) return;
    const t = rate.windowEnd / 1000;
    if (points.length && points[points.length - 1][0] >= t) return;
    points.push([t, rate.mean]);
    renderDetail();
    window.np.shown(rate);
  }

  function select(id, byUser) {
    if (byUser) follow = false;
    selected = id;
    points = [];
    results = [];
    json('/api/runs/' + encodeURIComponent(id)).then((detail) => {
      if (selected !== id) return;
      runs.set(id, detail.run);
      points = detail.series.map((p) => [p.windowEnd / 1000, p.mean]);
      results = detail.results;
      renderList();
      renderDetail();
      renderResults();
    }).catch(() => {});
    renderList();
    renderDetail();
  }

  function renderList() {
    const body = $('runs').tBodies[0];
    const sorted = [...runs.values()].sort((a, b) => b.updated - a.updated).slice(0, 200);
    body.replaceChildren(...sorted.map((run) => {
      const tr = el('tr', null, 'pick' + (run.run === selected ? ' selected' : ''));
      tr.dataset.run = run.run;
      tr.append(el('td', run.plan + ' / ' + run.test), el('td', run.repetition, 'num'));
      const phase = el('td');
      phase.append(el('span', run.phase, 'phase ' + run.phase));
      tr.append(phase);
      tr.addEventListener('click', () => select(run.run, true));
      return tr;
    }));
  }

  function since(run, phase) { return run.phases ? run.phases[phase] : undefined; }

  function renderDetail() {
    const run = runs.get(selected);
    if (!run) return;
    $('run-plan').textContent = run.plan;
    $('run-test').textContent = run.test;
    $('run-rep').textContent = run.repetition;
    $('run-phase').textContent = run.phase;
    $('run-phase').className = 'phase ' + run.phase;
    $('run-reason').textContent = run.reason || '';
    $('run-metric').textContent = run.metric ? run.metric + ' per second' : 'value from the tool at the end';
    $('run-host').textContent = run.sut ? run.sut + (run.iface ? ' / ' + run.iface : '') : '';
    const last = points.length ? points[points.length - 1][1] : null;
    const unit = METRIC_UNITS[run.metric] || '';
    const [n, u] = window.np.scaled(last, unit);
    $('run-now').textContent = n;
    $('run-now-unit').textContent = u;
    if (last !== null) $('run-host').textContent += ' · ' + exact(last, unit);
    renderTime(run);
    drawChart(run, unit);
  }

  function renderTime(run) {
    const start = since(run, 'WARMUP') ?? since(run, 'MEASURING') ?? since(run, 'PREPARING');
    const end = since(run, 'DONE') ?? since(run, 'FAILED');
    const now = end ?? Date.now();
    const elapsed = start ? now - start : null;
    $('run-elapsed').textContent = duration(elapsed);
    const planned = run.planned ? run.planned.warmupMs + run.planned.durationMs : null;
    $('run-stop').textContent = run.planned ? 'stop: ' + run.planned.stop : '';
    const remaining = planned && elapsed !== null && !end ? Math.max(0, planned - elapsed) : (end ? 0 : null);
    $('run-remaining').textContent = duration(remaining);
    const done = end ? 1 : planned && elapsed !== null ? Math.min(1, elapsed / planned) : 0;
    $('run-progress').style.width = (100 * done).toFixed(1) + '%';
  }

  // warm-up and steady window as shaded bands behind the line
  function bands(u) {
    const run = runs.get(selected);
    if (!run) return;
    const ctx = u.ctx;
    const band = (from, to, colour) => {
      if (from === undefined || from === null) return;
      const x0 = u.valToPos(from / 1000, 'x', true);
      const x1 = u.valToPos((to ?? Date.now()) / 1000, 'x', true);
      ctx.save();
      ctx.fillStyle = colour;
      ctx.fillRect(Math.min(x0, x1), u.bbox.top, Math.abs(x1 - x0), u.bbox.height);
      ctx.restore();
    };
    band(since(run, 'WARMUP'), since(run, 'MEASURING') ?? (ended(run) ? since(run, 'STOPPING') : undefined),
      'rgba(244,162,97,0.18)');
    if (run.steady) band(run.steady.ts - run.steady.windowMs, run.steady.ts, 'rgba(82,183,136,0.25)');
  }

  function drawChart(run, unit) {
    const data = [points.map((p) => p[0]), points.map((p) => p[1])];
    if (!chart) {
      const box = $('run-chart');
      chart = new uPlot({
        width: box.clientWidth || 600,
        height: 260,
        legend: { show: false },
        scales: { y: { range: (u, min, max) => [0, max > 0 ? max * 1.1 : 1] } },
        axes: [
          { stroke: '#8b98a5', grid: { stroke: '#2d3a46' } },
          { stroke: '#8b98a5', grid: { stroke: '#2d3a46' }, size: 110, values: (u, s) => s.map((v) => text(v, unit)) },
        ],
        series: [{}, { label: run.metric || 'value', stroke: '#4cc9f0', width: 2 }],
        hooks: { drawClear: [bands] },
      }, data, box);
    } else {
      chart.setData(data);
    }
  }

  function renderResults() {
    const body = $('reps').tBodies[0];
    body.replaceChildren(...results.slice().sort((a, b) => a.metric.localeCompare(b.metric)).map((r) => {
      const tr = el('tr');
      const values = Object.entries(r.values || {}).map(([rep, v]) => '#' + rep + ' ' + text(v, r.unit)).join('  ');
      tr.append(el('td', r.metric), el('td', r.unit), el('td', values, 'num'), el('td', text(r.mean, r.unit), 'num'),
        el('td', r.ci95 === null ? '—' : text(r.ci95, r.unit), 'num'),
        el('td', r.stddev === null ? '—' : text(r.stddev, r.unit), 'num'), el('td', r.n, 'num'), el('td', stops(r)));
      return tr;
    }));
  }

  window.addEventListener('resize', () => {
    if (chart) chart.setSize({ width: $('run-chart').clientWidth, height: 260 });
  });

  json('/api/runs?limit=200').then((list) => {
    list.reverse().forEach((run) => runs.set(run.run, run));
    const active = list.filter((r) => !ended(r)).sort((a, b) => b.updated - a.updated)[0];
    const newest = [...runs.values()].sort((a, b) => b.updated - a.updated)[0];
    if (active || newest) select((active || newest).run, false);
    renderList();
  }).catch(() => {}).finally(() => {
    feed('runs', { run: onRun, steady: (v) => { if (v.run && v.phases) onRun(v); }, result: onResult, rate: onRate },
      $('status'));
    setInterval(() => { const run = runs.get(selected); if (run) renderTime(run); }, 1000);
  });
})();
