// Results tables shaped like the seeds' (test, metric, each run, mean, unit), CSV / JSON download, and two executions
// compared as netpulse compare compares them (the same rows: /api/compare is its JSON). Refreshed whenever a result
// arrives on the live feed.
(function () {
  'use strict';
  const { $, el, json, text, stops, feed } = window.np;

  const pick = $('plan');
  const sides = {
    a: { select: $('exec-a'), typed: $('typed-a'), shown: $('side-a'), name: 'A' },
    b: { select: $('exec-b'), typed: $('typed-b'), shown: $('side-b'), name: 'B' },
  };

  // what the plan says it measured on (instance_type=..., region=...): schema-2 results carry it
  function labels(map) {
    const entries = Object.entries(map || {});
    return entries.length === 0 ? '—' : entries.map(([k, v]) => k + '=' + v).join(', ');
  }

  function utc(ms) {
    return new Date(ms).toISOString().slice(0, 19).replace('T', ' ') + ' UTC';
  }

  function fillPlans(plans) {
    const current = pick.value || plans[0];
    pick.replaceChildren(...plans.map((p) => new Option(p, p)));
    if (plans.includes(current)) pick.value = current;
  }

  // one option per execution, newest first: its id (or plan, for older producers), labels and time
  function fillExecutions(side, executions, preferred) {
    const select = side.select;
    const current = select.value || preferred;
    select.replaceChildren(...executions.map((e) => {
      const plan = e.execution && e.execution.startsWith(e.plan) ? '' : ' · plan ' + e.plan;
      return new Option(e.select + plan + ' · ' + labels(e.labels) + ' · ' + utc(e.latestMs), e.select);
    }));
    if (executions.some((e) => e.select === current)) select.value = current;
    listOrTyped(side);
  }

  // what was typed for a side is in effect: nothing is shown picked in its list (and picking any entry, even
  // the one picked before, replaces it); with nothing typed, something is picked
  function listOrTyped(side) {
    if (side.typed.value.trim()) side.select.selectedIndex = -1;
    else if (side.select.selectedIndex < 0 && side.select.options.length > 0) side.select.selectedIndex = 0;
  }

  function load() {
    return Promise.all([json('/api/plans'), json('/api/executions')]).then(([plans, executions]) => {
      fillPlans(plans);
      // by default the newest execution (B) against the one before it (A)
      fillExecutions(sides.a, executions, (executions[1] ?? executions[0] ?? {}).select);
      fillExecutions(sides.b, executions, (executions[0] ?? {}).select);
      refresh();
      compare();
    });
  }

  function refresh() {
    const plan = pick.value;
    const q = plan ? '?plan=' + encodeURIComponent(plan) + '&' : '?';
    $('csv').href = '/api/results' + q + 'format=csv&download=true';
    $('json').href = '/api/results' + q + 'format=json&download=true';
    if (plan) json('/api/results?plan=' + encodeURIComponent(plan)).then(renderResults).catch(() => {});
  }

  function renderResults(results) {
    $('results').tBodies[0].replaceChildren(...results.map((r) => {
      const tr = el('tr');
      const runs = Object.values(r.values || {}).map((v) => text(v, r.unit)).join(' / ');
      tr.append(el('td', r.test), el('td', r.metric), el('td', (r.hosts || []).join(', ')), el('td', runs, 'num'),
        el('td', text(r.mean, r.unit), 'num'), el('td', r.ci95 === null ? '—' : text(r.ci95, r.unit), 'num'),
        el('td', r.stddev === null ? '—' : text(r.stddev, r.unit), 'num'), el('td', r.unit), el('td', stops(r)),
        el('td', labels(r.labels)), el('td', r.execution || '—'));
      return tr;
    }));
  }

  // what a side names: what was typed, else the execution picked
  function given(side) {
    return side.typed.value.trim() || side.select.value;
  }

  // the API's one line ("404 Not Found: b: no execution ... has the labels x=y ..."), without the status
  function showError(message) {
    const box = $('compare-error');
    box.textContent = message.split('\n')[0].replace(/^\d{3} [^:]*: /, '');
    box.hidden = false;
    $('compare').tBodies[0].replaceChildren();
    sides.a.shown.textContent = '';
    sides.b.shown.textContent = '';
    $('compare-only').textContent = '';
  }

  let asked = 0; // only the newest request's answer is shown
  function compare() {
    const a = given(sides.a);
    const b = given(sides.b);
    if (!a || !b) return;
    const mine = ++asked;
    fetch('/api/compare?a=' + encodeURIComponent(a) + '&b=' + encodeURIComponent(b), { cache: 'no-store' })
      .then((r) => (r.ok ? r.json() : r.text().then((t) => { throw new Error(t || 'HTTP ' + r.status); })))
      .then((c) => { if (mine === asked) renderCompare(c); })
      .catch((e) => { if (mine === asked) showError(e.message); });
  }

  function side(name, s) {
    return name + ': ' + (s.execution ? 'execution ' + s.execution : 'execution unknown') + (s.plan ? ' · plan '
      + s.plan : '') + ' · labels ' + labels(s.labels);
  }

  function withCi(s, unit) {
    if (!s || s.n === 0) return '—';
    return text(s.mean, unit) + (s.ci95 === null || s.ci95 === undefined ? '' : ' ± ' + text(s.ci95, unit))
      + ' (' + s.n + ')';
  }

  /** Verdicts as netpulse compare gives them (Welch's test at 0.05, the metric's direction): B's, against A. */
  function verdictClass(verdict) {
    return verdict === 'better' ? 'better' : verdict === 'worse' ? 'worse' : undefined;
  }

  function renderCompare(c) {
    $('compare-error').hidden = true;
    sides.a.shown.textContent = side('A', c.a);
    sides.b.shown.textContent = side('B', c.b);
    $('compare').tBodies[0].replaceChildren(...c.comparisons.map((row) => {
      const tr = el('tr');
      tr.append(el('td', row.test), el('td', row.metric), el('td', withCi(row.a, row.unit), 'num'),
        el('td', withCi(row.b, row.unit), 'num'),
        el('td', row.ratio === null ? '—' : row.ratio.toFixed(3), 'num'),
        el('td', row.p === null ? '—' : (row.p < 0.0001 ? '<0.0001' : row.p.toFixed(4)), 'num'),
        el('td', row.verdict + ' (' + row.direction.replace(/_/g, ' ') + ')', verdictClass(row.verdict)),
        el('td', row.unit));
      return tr;
    }));
    const only = [];
    if (c.comparisons.length === 0) only.push('A and B have no test and metric in common.');
    if (c.onlyInA.length) only.push('only in A (not compared): ' + c.onlyInA.join(', '));
    if (c.onlyInB.length) only.push('only in B (not compared): ' + c.onlyInB.join(', '));
    $('compare-only').textContent = only.join(' · ');
  }

  pick.addEventListener('change', refresh);
  for (const s of Object.values(sides)) {
    // picking from the list replaces what was typed for that side
    s.select.addEventListener('change', () => { s.typed.value = ''; compare(); });
  }
  $('compare-form').addEventListener('submit', (e) => {
    e.preventDefault();
    Object.values(sides).forEach(listOrTyped);
    compare();
  });
  let pending = null;
  load().catch(() => {}).finally(() => feed('results', {
    // results come in bursts (one per metric): refresh once per burst
    result: () => { clearTimeout(pending); pending = setTimeout(() => load().catch(() => {}), 200); },
  }, $('status')));
})();
