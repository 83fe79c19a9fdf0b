// Results tables shaped like the seeds' (test, metric, each run, mean, unit), CSV / JSON download, and two plans
// side by side. Refreshed whenever a result arrives on the live feed.
(function () {
  'use strict';
  const { $, el, json, text, feed } = window.np;

  const pick = $('plan');
  const pickA = $('plan-a');
  const pickB = $('plan-b');

  function withCi(r) {
    if (!r) return '—';
    return text(r.mean, r.unit) + (r.ci95 === null || r.ci95 === undefined ? '' : ' ± ' + text(r.ci95, r.unit));
  }

  function fillPlans(select, plans, preferred) {
    const current = select.value || preferred;
    select.replaceChildren(...plans.map((p) => new Option(p, p)));
    if (plans.includes(current)) select.value = current;
  }

  function loadPlans() {
    return json('/api/plans').then((plans) => {
      fillPlans(pick, plans, plans[0]);
      fillPlans(pickA, plans, plans[0]);
      fillPlans(pickB, plans, plans[1] ?? plans[0]);
      refresh();
    });
  }

  function refresh() {
    const plan = pick.value;
    const q = plan ? '?plan=' + encodeURIComponent(plan) + '&' : '?';
    $('csv').href = '/api/results' + q + 'format=csv&download=true';
    $('json').href = '/api/results' + q + 'format=json&download=true';
    if (plan) json('/api/results?plan=' + encodeURIComponent(plan)).then(renderResults).catch(() => {});
    if (pickA.value && pickB.value) {
      json('/api/compare?a=' + encodeURIComponent(pickA.value) + '&b=' + encodeURIComponent(pickB.value))
        .then(renderCompare).catch(() => {});
    }
  }

  function renderResults(results) {
    $('results').tBodies[0].replaceChildren(...results.map((r) => {
      const tr = el('tr');
      const runs = Object.values(r.values || {}).map((v) => text(v, r.unit)).join(' / ');
      tr.append(el('td', r.test), el('td', r.metric), el('td', (r.hosts || []).join(', ')), el('td', runs, 'num'),
        el('td', text(r.mean, r.unit), 'num'), el('td', r.ci95 === null ? '—' : text(r.ci95, r.unit), 'num'),
        el('td', r.stddev === null ? '—' : text(r.stddev, r.unit), 'num'), el('td', r.unit),
        el('td', labels(r.labels)), el('td', r.execution || '—'));
      return tr;
    }));
  }

  /** Verdicts as netpulse compare gives them (Welch's test at 0.05, the metric's direction): B's, against A. */
  function verdictClass(verdict) {
    return verdict === 'better' ? 'better' : verdict === 'worse' ? 'worse' : undefined;
  }

  // what the plan says it measured on (instance_type=..., region=...): schema-2 results carry it
  function labels(map) {
    const entries = Object.entries(map || {});
    return entries.length === 0 ? '—' : entries.map(([k, v]) => k + '=' + v).join(', ');
  }

  function renderCompare(comparison) {
    $('compare').tBodies[0].replaceChildren(...comparison.rows.map((row) => {
      const tr = el('tr');
      tr.append(el('td', row.test), el('td', row.metric), el('td', withCi(row.a), 'num'), el('td', withCi(row.b), 'num'),
        el('td', row.ratio === null || row.ratio === undefined ? '—' : row.ratio.toFixed(3), 'num'),
        el('td', row.p === null || row.p === undefined ? '—' : (row.p < 0.0001 ? '<0.0001' : row.p.toFixed(4)), 'num'),
        el('td', row.verdict ? row.verdict + ' (' + row.direction + ')' : '—', verdictClass(row.verdict)),
        el('td', row.unit));
      return tr;
    }));
  }

  [pick, pickA, pickB].forEach((s) => s.addEventListener('change', refresh));
  let pending = null;
  loadPlans().catch(() => {}).finally(() => feed('results', {
    // results come in bursts (one per metric): refresh once per burst
    result: () => { clearTimeout(pending); pending = setTimeout(() => loadPlans().catch(() => {}), 200); },
  }, $('status')));
})();
