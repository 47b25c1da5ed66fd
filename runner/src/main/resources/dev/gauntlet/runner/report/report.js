// The Gauntlet report and compare pages: reads the data embedded by HtmlPage and draws it with uPlot.
// When every chart has drawn, <html> gets data-rendered="true" with data-charts-expected and
// data-charts-drawn, or data-render-error with the reason: ReportIT reads these from the DOM.
// report.html#window=A,B opens every run's timelines zoomed to seconds A..B, its percentiles recomputed for them
// (data-windows-drawn counts the runs whose window curve was drawn).
(function () {
  'use strict';

  // The grid of LatencyBuckets.java and the levels of PercentileCurve.java.
  const BUCKET_MIN_MS = 0.001;
  const BUCKET_RATIO = Math.pow(2, 1 / 16);
  const LEVELS_PER_DECADE = 20;
  const COLORS = ['#2f6db5', '#d9480f', '#2b8a3e', '#862e9c', '#c2255c', '#0b7285', '#e67700', '#5c940d', '#364fc7', '#a61e4d'];
  // More runs not ok than this are listed under one collapsed line.
  const BANNERS_SHOWN = 8;
  // Rows a comparison left out are the page's side notes: more than this fold into one line at once.
  const NOT_COMPARED_SHOWN = 3;
  const MIN_PAUSE_PX = 4;
  const PAUSE_COLORS = { target: 'rgba(201, 42, 42, 0.75)', generator: 'rgba(134, 46, 156, 0.75)' };
  // One colour per meaning across a run's charts, none of them a pause's: a time's percentiles and the lag.
  const SERIES_COLORS = { response: COLORS[0], service: COLORS[2], lag: '#6b5b3e', p50: COLORS[0], p99: COLORS[1], max: COLORS[5] };
  const ROW_METRICS = [
    { key: 'p50Ms', label: 'p50 ms', term: 'p50', better: 'lower' },
    { key: 'p99Ms', label: 'p99 ms', term: 'p99', better: 'lower' },
    { key: 'p999Ms', label: 'p99.9 ms', term: 'p99.9', better: 'lower' },
    { key: 'maxMs', label: 'max ms', term: 'max', better: 'lower' },
    { key: 'achievedRatePerSec', label: 'achieved /s', term: 'achieved /s', better: 'higher' },
    { key: 'errors', label: 'errors', term: 'errors', better: 'lower' },
    { key: 'droppedQueueFull', label: 'dropped unsent', term: 'dropped unsent', better: 'lower' },
    { key: 'serverMaxInFlight', label: 'held in the target at once', term: 'held in the target at once', better: 'higher' },
  ];

  // What each kind of scenario is measured by: an open loop by its tail at the rate offered, a closed loop by the
  // rate it reached, max concurrency by the requests the target held at once.
  const OWN_METRIC = { open: 'p99Ms', closed: 'achievedRatePerSec', 'max-concurrency': 'serverMaxInFlight' };
  // The figures intervals.json holds over forks (Intervals.java), by the row's key.
  const INTERVALS = { achievedRatePerSec: 'rate', p50Ms: 'p50Ms', p99Ms: 'p99Ms', maxMs: 'maxMs' };
  // Whose figures a run's are, by its verdict, most trusted first: the class is its banner's colour.
  const TRUST = {
    ok: { rank: 0, cls: ' ok', says: 'the figures are the target\'s' },
    'platform-noisy': { rank: 1, cls: ' noisy', says: 'the figures are the target\'s within the machine\'s own noise' },
    'not-steady': { rank: 2, cls: '', says: 'the figures are the target\'s, but of a moving target' },
    'target-overloaded': { rank: 2, cls: '', says: 'the figures are the target\'s under overload' },
    'client-limited': { rank: 3, cls: ' foreign', says: 'the figures are the client library\'s, not the target\'s' },
    'generator-limited': { rank: 3, cls: ' foreign', says: 'the figures are the generator\'s, not the target\'s' },
  };
  const NO_FIGURES = { rank: 4, cls: ' failed', says: 'no figures' };
  // The mark of times not free of coordinated omission (results.json's freeOfCoordinatedOmission false), and why.
  const FROM_SEND = '†';
  const FROM_SEND_SAYS = 'closed loop (and max concurrency after its burst): each request waited for the answer before ' +
    'it, so its time runs from its actual send, as wrk\'s, and is not free of coordinated omission';
  // Every term the pages use, as the glossary lists it; a table's column header that is one of these explains itself
  // on hover. Kept in the order a reader meets them.
  const GLOSSARY = [
    ['response time', 'From a request\'s intended start (its place in the schedule) to the last byte of its answer. An open ' +
      'loop\'s schedule does not wait for answers, so a stall of the target or of the generator shows in it: free of ' +
      'coordinated omission. A closed loop intends each request when the answer before it came (as wrk does): its times ' +
      'run from the actual send, marked ' + FROM_SEND + '.'],
    ['coordinated omission', 'A generator that waits for each answer before the next request sends nothing while the target ' +
      'stalls, so the requests the stall would have held up are never timed, and the tail looks shorter than it is. An ' +
      'open loop\'s times are free of it; a closed loop\'s, and max concurrency\'s after its burst, are not: ' + FROM_SEND + '.'],
    ['service time', 'From the actual send of a request to the last byte of its answer.'],
    ['schedule lag', 'Actual send minus intended start: how late a request left, waiting for the generator\'s loop or for a free connection.'],
    ['p50', 'The median: half the requests took less.'],
    ['p99', 'The 99th percentile: one request in a hundred took longer.'],
    ['p99.9', 'The 99.9th percentile: one request in a thousand took longer.'],
    ['max', 'The slowest request of the measured phase.'],
    ['offered /s', 'An open loop\'s target rate: requests are scheduled at it whatever the answers do. A closed loop offers none.'],
    ['achieved /s', 'Requests of the measured phase completed within it, per second of it.'],
    ['sustained /s', 'Open loop: requests completed per second over the second half of the measured phase. Below the offered ' +
      'rate, the target did not keep up.'],
    ['goodput /s', 'What the target answered correctly per second of the measured phase, whatever each answer\'s intended ' +
      'start: under overload the warm-up\'s backlog, answered while the measured requests wait behind it, counts here, so a ' +
      'busy target whose achieved rate is 0 still shows what it completed.'],
    ['completed/s', 'Requests answered in that second.'],
    ['held in the target at once', 'Max concurrency: the most requests the target had started and not yet answered at one time, ' +
      'as its admin endpoint counted them.'],
    ['errors', 'Failed requests of the measured phase, every class together; a failed request is never retried.'],
    ['dropped unsent', 'Open loop: requests of the measured phase the generator never sent, because they fell due while its ' +
      'queue of requests waiting for a connection was full; not errors, and not in any time. A column only where a run dropped some.'],
    ['response-time distribution', 'How many requests of the measured phase took how long: counts by response time, each ' +
      'bucket 19 % wide, on a log axis.'],
    ['requests in flight', 'Requests sent and not yet answered or failed, at the end of each second of the run.'],
    ['connections open', 'The generator\'s sockets open (connecting ones included) at the end of each second of the run.'],
    ['error class', 'Why a request failed, one of the classes below.'],
    ['HTTP status', 'The status of a bad-status answer; each status is a row of its own.'],
    ['first message', 'What the first failure of its kind said: its exception\'s message, "status 503", or what the ' +
      'built-in engine saw (it keeps no exceptions: "no whole response within 2000 ms").'],
    ['count', 'How many there were, in the measured phase.'],
    ['first second', 'The second of the measured phase (0 is its first) in which the first of them failed.'],
    ['last second', 'The second of the measured phase in which the last of them failed.'],
    ['bytes sent', 'Bytes the generator wrote to its sockets from the measured phase\'s start, TLS records and HTTP/2 frames ' +
      'as they are on the wire (k6\'s data_sent).'],
    ['bytes received', 'Bytes the generator read from its sockets from the measured phase\'s start (k6\'s data_received).'],
    ['time on the wire', 'Where a request\'s time went, as the built-in engine sees it: connect, TLS handshake, waiting and ' +
      'receiving (k6\'s http_req_connecting, tls_handshaking, waiting, receiving). A client library does not say.'],
    ['connect', 'From a TCP connect\'s start to its establishment.'],
    ['TLS handshake', 'From a connection\'s establishment to the end of its TLS handshake.'],
    ['waiting', 'From a request\'s send to the first byte of its answer: the server\'s time, and the network\'s.'],
    ['receiving', 'From the first byte of an answer to its last.'],
    ['refused', 'Error class: the connection was refused (nothing listening, or the backlog full).'],
    ['connect timeout', 'Error class: the connection was not established within the connect timeout.'],
    ['reset', 'Error class: the target reset or closed the connection before a whole answer arrived.'],
    ['response timeout', 'Error class: no whole answer within the response timeout.'],
    ['bad status', 'Error class: a well-formed answer with another status than 200.'],
    ['bad body', 'Error class: a well-formed answer with another body than the contract\'s.'],
    ['protocol', 'Error class: an answer that is not valid HTTP/1.1.'],
    ['no thread', 'Error class: the client could not start a thread for the request.'],
    ['client', 'Error class: a client library failed the request on its own side.'],
    ['verdict', 'Whose figures a run\'s are: one of the verdicts below, with its evidence in one sentence.'],
    ['ok', 'Verdict: the figures are the target\'s.'],
    ['target-overloaded', 'Verdict: the target did not keep up: its figures, errors and timeouts included, are what it does under overload.'],
    ['generator-limited', 'Verdict: the generator was the bottleneck (its CPU, or too few connections for the rate): the figures are ' +
      'the generator\'s, not the target\'s.'],
    ['client-limited', 'Verdict: a client library engine was the bottleneck: the figures are the library\'s, what a client study ' +
      'measures; a server study reads them as generator-limited.'],
    ['not-steady', 'Verdict: the warm-up did not settle within its maximum, or the measured phase drifted between its halves: ' +
      'a moving target\'s figures.'],
    ['platform-noisy', 'Verdict: lateness within what the machine\'s own measured stalls explain, large enough to change the figure.'],
    ['no figures', 'The run failed (its target died, say): it has no figures.'],
    ['warm-up', 'Load before the measured phase, for the JIT and the pools to settle; never recorded. "Until steady": it ends ' +
      'once the rate or percentiles stay within a tolerance over the last windows.'],
    ['measured phase', 'The seconds whose requests the figures are made of.'],
    ['repetition', 'Another run of the same target and scenario, without restarting the JVMs; #2 is the second.'],
    ['fork', 'A start of the target\'s JVM afresh, which runs the suite\'s scenarios and repetitions for it (forks: N in the ' +
      'suite, or --forks N): f3 #2 is the second repetition of the third. Repetitions share their fork\'s JVM, its JIT ' +
      'decisions and its heap, so only forks are independent samples: each counts once, the mean of its repetitions.'],
    ['interval', 'A confidence interval over forks, 95 % (compare: --confidence): Student\'s t over the forks\' means for a ' +
      'figure, Welch\'s t for the difference between two targets (in compare, between BASE and NEW). None with one fork: ' +
      'one start of a JVM says nothing of how the next would do.'],
    ['no difference detectable', 'The interval of a difference spans 0: the two may be equal, and they share a rank. The ' +
      'smallest detectable difference is the one these forks would resolve four times in five; more forks narrow it.'],
    ['CV', 'Coefficient of variation: the standard deviation of the repetitions divided by their mean.'],
    ['hiccup', 'A stall of the machine itself, as a sleeping thread sees it (jHiccup\'s method): how late it wakes.'],
    ['platform noise floor', 'The machine\'s hiccups and loopback round trip, measured before the suite: lateness within it is the platform\'s. ' +
      'Beside them each role\'s capacity: how much its CPUs could run a second, a fixed probe\'s speed times the share of their time ' +
      'no other process took; compare tells hosts apart by it.'],
    ['GC pause', 'A stop-the-world pause of a JVM\'s garbage collector, from its JFR recording. The measured phase\'s are ' +
      'those that began in it: one count, longest and total wherever the page gives them (JVM table, chart note, a ' +
      'verdict\'s evidence, downloads); a chart draws every pause of the run.'],
    ['heap after GC', 'Heap in use right after a collection: what the JVM keeps alive.'],
    ['platform threads', 'Operating-system threads of the JVM, at most, from its JFR recording.'],
    ['virtual mounted', 'Virtual threads running on a carrier thread at once.'],
    ['virtual queued', 'Virtual threads ready to run and waiting for a carrier.'],
    ['CPU', 'A process\'s CPU time as a share of the CPUs it was given (its CPU set, less its quota; a pod\'s limit): 100 % ' +
      'is every one of them busy. The measured phase\'s is the process\'s own CPU time over it, as its JVM counts its CPUs (a ' +
      'fractional quota as the next whole CPU): the figure a verdict\'s evidence quotes. Each second\'s, and the busiest, ' +
      'is JFR\'s load, a share of the machine sampled once a second, rescaled to the CPUs given.'],
    ['allocation', 'Bytes allocated per second on the heap, from JFR.'],
    ['resident memory', 'The process\'s resident set, heap and everything else.'],
    ['measured by', 'A scenario\'s own metric: p99 for an open loop (the tail at the rate offered), the achieved rate for a ' +
      'closed loop, the requests held at once for max concurrency; in a latency-diff suite the median round trip.'],
    ['best', 'On the scenario\'s own metric, among the targets that kept up (never a baseline, nor one whose run was ' +
      'target-overloaded in any fork): with forks, the targets of the first rank, ranked by their mean over forks, a rank ' +
      'shared until a difference is resolved (not "no difference detectable"), and the sentence that sets the next rank ' +
      'apart; in one fork, the leader, undecided, and the targets tied with it (their repetitions\' ranges overlap, or ' +
      'their times are closer than the machine\'s noise floor). latency-diff answers with what each target adds to the ' +
      'baseline\'s median round trip instead.'],
    ['baseline', 'A reference of the suite (baselines: in it, dummy unless it names others): shown beside the ranking as ' +
      'what the others are measured against, never ranked.'],
    ['bound', 'A generator- or client-limited figure: the target would have done at least as well, so a time is "at most" ' +
      'and a rate "at least". Ranked by its figure; a bound below another target is not decided against it.'],
    ['BASE', 'compare: the results directory compared against.'],
    ['NEW', 'compare: the results directory judged.'],
    ['change', 'compare: NEW\'s mean over its forks (each fork the mean of its repetitions) against BASE\'s, in percent of BASE.'],
    ['noise', 'compare: beyond when the change\'s interval excludes no change, within when it spans 0; a threshold fails only beyond it.'],
    ['compared', 'compare: whether a target × scenario\'s figures were compared, on the runs whose figures are the target\'s on ' +
      'both sides (ok, platform-noisy, client-limited, and not-steady with that caveat named); when not, why: only on one side, ' +
      'or no such run on a side (each side\'s runs by verdict stand in place of its figures).'],
  ];
  const GLOSSED = new Map(GLOSSARY.map(([term, text]) => [term.toLowerCase(), text]));

  const root = document.documentElement;
  const charts = { expected: 0, drawn: 0, windowsDrawn: new Set() };
  // How many labels each log axis got (logSplits), by chart and axis index, for markRanges.
  const logTicks = new WeakMap();
  // The run sections of the page, each {details, draw}: closed until opened, drawn when first opened.
  const runSections = [];
  // What each role's CPU share is a share of ("1 of 2 CPUs"), as ReportData says it (renderReport).
  const cpusGiven = { target: '', generator: '' };
  // The first timeline of each drawn run, zoomed by report.html#window=A,B.
  const zoomable = [];

  // ---- small helpers -------------------------------------------------------------------------

  // A file of the results directory, from wherever this page is: beside it (report.html), or in a site, which sets
  // data.filesBase to the directory's path relative to the page's copy.
  let filesBase = '';
  function rawFile(path) {
    return filesBase + path;
  }

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v == null) continue;
      if (k === 'class') e.className = v;
      else if (k === 'style') e.style.cssText = v;
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v);
    }
    for (const c of children.flat(Infinity)) {
      if (c != null) e.append(c instanceof Node ? c : String(c));
    }
    return e;
  }

  // results.json writes NaN (a run without figures) as the string "NaN".
  function num(v, digits) {
    if (typeof v === 'string') v = Number(v);
    if (v == null || Number.isNaN(v)) return '–';
    // Thousands separated, as 50,119.
    if (Math.abs(v) >= 1000) return Math.round(v).toLocaleString('en-US');
    if (digits != null) return v.toFixed(digits);
    if (Number.isInteger(v)) return String(v);
    if (v !== 0 && Math.abs(v) < 0.001) return String(Number(v.toPrecision(2)));
    const a = Math.abs(v);
    return a >= 100 ? v.toFixed(0) : a >= 10 ? v.toFixed(1) : a >= 1 ? v.toFixed(2) : v.toFixed(3);
  }

  function isNum(v) {
    return typeof v === 'number' && !Number.isNaN(v);
  }

  function median(values) {
    const s = values.filter(isNum).sort((a, b) => a - b);
    if (!s.length) return NaN;
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  function uniq(values) {
    return [...new Set(values)];
  }

  // A cell that shows a figure (`text`, else the figure as num writes it) and carries it as data: data-value is the
  // figure as the data holds it (results.json's, at full precision), empty when there is none. Downloads and sorting
  // read it, never the text, which has thousands separators, units and '–'.
  function figureCell(value, text, attrs) {
    const v = typeof value === 'string' ? Number(value) : value;
    return el('td', Object.assign({ class: 'num' }, attrs, { 'data-value': isNum(v) ? String(v) : '' }),
      text === undefined ? num(v) : text);
  }

  // What a download holds of a cell: its figure (data-value), else its text whole; a cell that shows more than its own
  // figure or name (a shared rank, its standing) says what it holds in its data-text.
  function cellData(cell) {
    if (cell.dataset.value != null) return cell.dataset.value;
    if (cell.dataset.text != null) return cell.dataset.text;
    return cell.textContent.trim();
  }

  // A column's name in a download: the header's text, or its data-column where the header leaves out the unit or the
  // metric its cells are in ('p99 max ms' under 'max').
  function columnOf(th) {
    return th.dataset.column || th.textContent.trim();
  }

  // A cell's further figures, which a download gives columns of their own: over forks {mean, low, high, forks}, a
  // single fork's best {median}.
  function figuresOf(cell) {
    return cell && cell.dataset.figures ? JSON.parse(cell.dataset.figures) : {};
  }

  // A cell's figure for sorting, else its text; a cell without a figure is null.
  function sortKey(cell) {
    if (!cell) return null;
    if (cell.dataset.value != null) return cell.dataset.value === '' ? null : Number(cell.dataset.value);
    const text = cellData(cell);
    return text === '' || text === '–' ? null : text.toLowerCase();
  }

  // The table, its header row sorting it on a click (a second click the other way; cells without a figure stay
  // last), with links to its rows as CSV and JSON.
  function sortable(table, name) {
    table.classList.add('sortable');
    const header = table.rows[0];
    [...header.cells].forEach((th, col) => {
      th.title = (th.title ? th.title + ' ' : '') + '(a click sorts by it)';
      th.addEventListener('click', () => {
        const dir = th.dataset.sorted === 'up' ? -1 : 1;
        [...header.cells].forEach(h => delete h.dataset.sorted);
        th.dataset.sorted = dir === 1 ? 'up' : 'down';
        const rows = [...table.rows].slice(1);
        rows.sort((a, b) => {
          const x = sortKey(a.cells[col]);
          const y = sortKey(b.cells[col]);
          if (x === null || y === null) return (x === null) - (y === null);
          if (typeof x !== typeof y) return typeof x === 'number' ? -1 : 1;
          return dir * (x < y ? -1 : x > y ? 1 : 0);
        });
        rows.forEach(tr => tr.parentNode.append(tr));
      });
    });
    return el('div', { class: 'table-wrap' }, table, downloads(table, name));
  }

  // The table's rows as CSV and as JSON (one object per row, keyed by the header row, the table's first): each
  // cell's data (cellData); where a column's cells have further figures, each of those a column after it ('p99 low',
  // 'p99 high', 'p99 forks'). A row that labels the columns rather than holding data (data-caption) is left out.
  function downloads(table, name) {
    const [header, ...cells] = [...table.rows].filter(tr => tr.dataset.caption == null).map(tr => [...tr.cells]);
    const extra = header.map((h, col) => uniq(cells.flatMap(row => Object.keys(figuresOf(row[col])))));
    const head = header.flatMap((h, col) => [columnOf(h)].concat(extra[col].map(k => columnOf(h) + ' ' + k)));
    const body = cells.map(row => row.flatMap((cell, col) => [cellData(cell)]
      .concat(extra[col].map(k => figuresOf(cell)[k]))));
    return downloadLinks(head, body, name);
  }

  // Rows (arrays of strings or numbers under `head`) as CSV and JSON links.
  function downloadLinks(head, body, name, what) {
    const rows = [head].concat(body).map(cells => cells.map(c => (c == null ? '' : String(c))));
    const csv = rows.map(cells => cells.map(c => (/[",\n]/.test(c) ? '"' + c.replace(/"/g, '""') + '"' : c)).join(',')).join('\n') + '\n';
    const json = JSON.stringify(rows.slice(1).map(cells => Object.fromEntries(head.map((h, i) => [h, cells[i]]))), null, 1);
    const file = name.replace(/[^A-Za-z0-9_.-]+/g, '_');
    return el('p', { class: 'downloads' }, 'download' + (what ? ' ' + what : '') + ': ',
      el('a', { href: 'data:text/csv;charset=utf-8,' + encodeURIComponent(csv), download: file + '.csv' }, 'CSV'), ' · ',
      el('a', { href: 'data:application/json;charset=utf-8,' + encodeURIComponent(json), download: file + '.json' }, 'JSON'));
  }

  // A header cell; one that names a term of the glossary (`term`, else its own text) explains it on hover. `column`:
  // its name in a download, where the text leaves out a unit.
  function th(text, term, column) {
    const gloss = GLOSSED.get((term || text).toLowerCase());
    return el('th', Object.assign(gloss ? { class: 'term', title: gloss } : {}, { 'data-column': column }), text);
  }

  function noData(text) {
    return el('div', { class: 'nodata' }, text);
  }

  function percentLabel(x) {
    if (x <= 1) return '0%';
    const p = 100 * (1 - 1 / x);
    const digits = Math.max(0, Math.round(Math.log10(x)) - 2);
    return p.toFixed(digits) + '%';
  }

  // Axis labels in one format (num's, and no trailing zeros below 1: 0.5, not 0.500); a tick uPlot leaves
  // unlabelled (null) stays blank.
  function tickLabels(u, splits) {
    return splits.map(v => (v == null ? '' : Math.abs(v) >= 1 ? num(v) : String(Number(v.toPrecision(3)))));
  }

  // The ticks of a log axis (log-axis.js), counted for markRanges.
  function logSplits(u, axisIdx, min, max) {
    const splits = GauntletLogAxis.splits(min, max);
    logTicks.set(u, Object.assign(logTicks.get(u) || {}, { [axisIdx]: splits.length }));
    return splits;
  }

  // A log y scale fitted to the data uPlot passes: a margin of 8 % of the data's own span in decades (1 % at least)
  // beyond its lowest and highest points, rounded to three digits, not out to the decades around them, so curves
  // between 1,000 and 1,010 ms fill the chart instead of a sliver of it. logSplits labels whatever range results.
  function fittedLogY() {
    return { distr: 3, log: 10, range: (u, min, max) => {
      if (!(min > 0 && max > 0 && Number.isFinite(min) && Number.isFinite(max))) return [1, 10];
      const lo = Math.log10(min);
      const hi = Math.log10(max);
      const pad = Math.max(0.08 * (hi - lo), 0.004);
      return [roundedLog(Math.pow(10, lo - pad), Math.floor, 3), roundedLog(Math.pow(10, hi + pad), Math.ceil, 3)];
    } };
  }

  // v rounded down or up (by `round`) to `digits` significant digits. By division for negative powers, where
  // 9 * 0.001 is not 0.009.
  function roundedLog(v, round, digits) {
    const k = Math.floor(Math.log10(v)) - digits + 1;
    const m = round(k < 0 ? v * Math.pow(10, -k) : v / Math.pow(10, k));
    return k < 0 ? m / Math.pow(10, -k) : m * Math.pow(10, k);
  }

  // A log y range drawn and the range of the data on it, on the chart's box: ReportIT checks one covers the other.
  function markRanges(u, box) {
    // How many y scales its series are drawn on: one, so that no series (the lag, say) is drawn above another on a
    // scale of its own.
    box.dataset.yScales = uniq(u.series.slice(1).map(sr => sr.scale || 'y')).length;
    if (u.scales.y.distr !== 3 || u.scales.y.min == null) return;
    const values = u.series.slice(1).flatMap((sr, i) => ((sr.scale || 'y') === 'y' && u.data[i + 1]
      ? u.data[i + 1].filter(v => v != null && Number.isFinite(v) && v > 0) : []));
    if (!values.length) return;
    box.dataset.yMin = u.scales.y.min;
    box.dataset.yMax = u.scales.y.max;
    box.dataset.dataMin = values.reduce((a, b) => Math.min(a, b));
    box.dataset.dataMax = values.reduce((a, b) => Math.max(a, b));
    if (logTicks.has(u)) box.dataset.yTicks = logTicks.get(u)[1];
  }

  function cssColor(name) {
    return getComputedStyle(root).getPropertyValue(name).trim();
  }

  // A width that fits the page; charts are drawn once, at load.
  function chartWidth(container) {
    return Math.max(480, Math.min(1150, (container.clientWidth || document.body.clientWidth || 1100) - 8));
  }

  // Creates a uPlot chart inside `parent` and counts its first draw.
  function chart(parent, opts, data) {
    const box = el('div', { class: 'chart' });
    parent.append(box);
    charts.expected++;
    markCharts();
    let counted = false;
    opts.width = opts.width || chartWidth(parent);
    // The canvas takes no CSS: axes and grid in the page's colours (dark mode has others), every log axis labelled.
    const fg = cssColor('--fg');
    const grid = cssColor('--grid');
    opts.axes = (opts.axes || [{}, {}]).map((a, i) => {
      const scale = opts.scales && opts.scales[a.scale || (i === 0 ? 'x' : 'y')];
      const own = { stroke: fg };
      if (scale && scale.distr === 3) {
        own.splits = logSplits;
        // uPlot labels only some mantissas of a log axis (1, or 1, 2 and 5, by the room); logSplits chose these.
        own.filter = (u, splits) => splits;
      }
      return Object.assign(own, a, { grid: Object.assign({ stroke: grid }, a.grid), ticks: Object.assign({ stroke: grid }, a.ticks) });
    });
    opts.hooks = opts.hooks || {};
    opts.hooks.draw = (opts.hooks.draw || []).concat([u => {
      markRanges(u, box);
      if (!counted) {
        counted = true;
        charts.drawn++;
        markCharts();
      }
    }]);
    return new uPlot(opts, data, box);
  }

  // x axis of a percentile chart: 1/(1-p) on a log scale, labelled with p.
  function percentileAxes(yLabel) {
    return {
      scales: { x: { time: false, distr: 3, log: 10 }, y: fittedLogY() },
      axes: [
        {
          label: 'percentile (the last point of each curve is its maximum)',
          splits: (u, ai, min, max) => {
            const s = [1];
            for (let x = 10; x <= max * 1.0001; x *= 10) s.push(x);
            return s.filter(x => x >= min * 0.9999);
          },
          values: (u, splits) => splits.map(percentLabel),
        },
        { label: yLabel, size: 60, values: tickLabels },
      ],
    };
  }

  // Percentile curves with different x arrays on one chart (uPlot wants one shared x).
  function percentileChart(parent, title, curves, note) {
    const usable = curves.filter(c => c.curve && c.curve.x && c.curve.x.length);
    parent.append(el('div', { class: 'chart-title' }, title));
    if (!usable.length) {
      parent.append(noData('No times to draw: no request completed, or no interval log.'));
      return null;
    }
    const joined = uPlot.join(usable.map(c => [c.curve.x, c.curve.ms.map(v => (v > 0 ? v : null))]));
    const series = [{ label: 'percentile', value: (u, v) => (v == null ? '–' : percentLabel(v)) }].concat(
      usable.map((c, i) => ({ label: c.label, stroke: c.color || COLORS[i % COLORS.length], width: c.width || 2, dash: c.dash,
        spanGaps: true, value: (u, v) => (v == null ? '–' : num(v) + ' ms') })));
    const opts = Object.assign({ height: 300, series, padding: [null, 40, null, null] }, percentileAxes('ms'));
    // A band between a pair of curves marked high and low (sideCurves'); uPlot's series indices count x as 0.
    const bands = usable.flatMap((c, i) => (c.band && c.band.edge === 'high'
      ? [{ series: [i + 1, usable.findIndex((d, j) => j > i && d.band && d.band.edge === 'low') + 1], fill: c.band.fill }] : []))
      .filter(b => b.series[1] > 0);
    if (bands.length) opts.bands = bands;
    // Room on the right for the last percentile label.
    const u = chart(parent, opts, joined);
    if (note) parent.append(el('p', { class: 'chart-note' }, note));
    return u;
  }

  // ---- data ----------------------------------------------------------------------------------



  function runKey(r) {
    return r.target + ' · ' + r.scenario + ' ' + runName(r);
  }

  // A run within its target × scenario, as the runs table names it: #2 in fork 1, f3 #2 in fork 3.
  function runName(r) {
    return ((r.fork || 1) > 1 ? 'f' + r.fork + ' ' : '') + '#' + r.repetition;
  }

  function targetsOf(data) {
    const listed = (data.suite && data.suite.targets) || [];
    return uniq(listed.concat(data.rows.map(r => r.target)));
  }

  // A warm-up scenario is never recorded: it has no row to show.
  function scenariosOf(data) {
    const listed = ((data.suite && data.suite.scenarios) || []).filter(s => !s.warmUp).map(s => s.name);
    return uniq(listed.concat(data.rows.map(r => r.scenario)));
  }

  function scenarioDef(data, name) {
    return ((data.suite && data.suite.scenarios) || []).find(s => s.name === name) || {};
  }

  // A client suite runs each case once per client, as scenarios named CASE.CLIENT: the page compares the
  // clients within a case as it compares the targets within a scenario.
  function caseOf(scenario, client) {
    return client && scenario.endsWith('.' + client) ? scenario.slice(0, -client.length - 1) : scenario;
  }

  function casesOf(data) {
    return uniq(scenariosOf(data).map(name => caseOf(name, (scenarioDef(data, name).generator || {}).client)));
  }

  function byClient(data) {
    return data.rows.some(r => r.client);
  }

  // What a run measures: its target, or the client that sent its requests (beside its target when there are several).
  function entryOf(data, r) {
    if (!r.client) return r.target;
    return targetsOf(data).length > 1 ? r.target + ' · ' + r.client : r.client;
  }

  function entriesOf(data) {
    return byClient(data) ? uniq(data.rows.map(r => entryOf(data, r))) : targetsOf(data);
  }

  // A reference of the suite (its baselines, the dummy in a suite written before it named them): what the others are
  // measured against, never ranked. A study of clients has none: its entries are the clients of one server.
  function isBaseline(data, target) {
    const baselines = (data.suite && data.suite.baselines) || ['dummy'];
    return !byClient(data) && baselines.includes(target.replace(/@[^@]*$/, ''));
  }

  function offeredRate(model) {
    return model && model.type === 'open' ? model.ratePerSec : null;
  }

  // ---- 1. header -----------------------------------------------------------------------------

  function header(data, main) {
    const suite = data.suite || {};
    const env = data.environment || {};
    main.append(el('h1', {}, 'Gauntlet · ' + (suite.name || 'suite')));
    if (suite.description) main.append(el('p', { class: 'lead' }, suite.description));
    headline(data, main);
    main.append(el('h2', { id: 'environment' }, '1. Environment'));
    const iso = env.isolation || {};
    const role = r => (r ? [r.mechanism, r.cpus && 'CPUs ' + r.cpus, r.cpuQuota && 'quota ' + r.cpuQuota,
      r.memory && 'memory ' + r.memory].filter(Boolean).join(', ') : '–');
    const resumes = Array.isArray(data.resumes) ? data.resumes : [];
    const facts = [
      ['started', env.startedAt || '–'],
      ['commit', env.gitCommit || '–'],
      ...resumes.map((r, i) => ['resumed' + (resumes.length > 1 ? ' (' + (i + 1) + ')' : ''),
        (r.startedAt || '–') + ' at commit ' + (r.gitCommit || '–')]),
      ['JDK', env.jdk || '–'],
      ['machine', [env.cpus && env.cpus + ' CPUs', env.os, env.kernel && 'kernel ' + env.kernel,
        env.openFilesLimit && 'open files ' + env.openFilesLimit].filter(Boolean).join(', ') || '–'],
      ['target placement', role(iso.target)],
      ['generator placement', role(iso.generator)],
      ['network', (iso.network && iso.network.mode) || '–'],
      ['platform noise floor', platformText(data.platform)],
      ['results', data.dir],
    ];
    main.append(el('table', {}, facts.map(([k, v]) => el('tr', {}, th(k), el('td', {}, v)))));
    (iso.notes || []).forEach(n => main.append(el('div', { class: 'banner' }, 'isolation: ' + n)));
    // Findings come from one commit's runs: a directory resumed at another (--allow-commit-change) says so first.
    const commits = uniq([env.gitCommit, ...resumes.map(r => r.gitCommit)].filter(Boolean));
    if (commits.length > 1) {
      main.append(el('div', { class: 'banner failed' }, el('b', {}, 'mixed commits: '),
        'these runs were measured at ' + commits.join(', ') + '; the rows measured after a resume name their commit'));
    }
    (data.unreadable || []).forEach(u => main.append(el('div', { class: 'banner failed' },
      el('b', {}, 'could not read ' + u.file + ': '), u.problem + ' — what it holds is missing from this page')));
    const rows = data.rows || [];
    const noRows = (data.unreadable || []).some(u => u.file === 'results.json') ? 'results.json does not read: no run can be shown.'
      : 'results.json has no rows yet: the suite was interrupted before its first run ended.';
    if (!rows.length) main.append(noData(noRows));
  }

  // Up to `shown` banners (BANNERS_SHOWN by default) as they are; more fold into one line, the title and how many
  // banners there are of each kind (kinds[i] is banners[i]'s), with the banners one click away, so what follows stays
  // in sight. The line's colour is summaryClass's: ' failed', ' subject' or ''.
  // kindClasses, when given, colours each kind's count as its banners are.
  function appendBanners(main, banners, kinds, summaryClass, title, kindClasses, shown) {
    if (banners.length <= (shown || BANNERS_SHOWN)) {
      main.append(...banners);
      return;
    }
    const counts = new Map();
    kinds.forEach(k => counts.set(k, (counts.get(k) || 0) + 1));
    const count = ([k, n], i) => [i ? ', ' : '', kindClasses ? el('span', { class: 'chip' + kindClasses(k) }, n + ' ' + k) : n + ' ' + k];
    main.append(el('details', { class: 'banners' }, el('summary', { class: 'banner' + summaryClass },
      el('b', {}, title), [...counts].map(count), ' (show each)'), banners));
  }

  // ---- 0. the answer: a headline per scenario --------------------------------------------------

  function trustOf(data, row) {
    if (!row.verdict || row.verdict === '-') return NO_FIGURES;
    // In a study of clients, the library's limit is the figure under study.
    if (row.verdict === 'client-limited' && byClient(data)) return { rank: 0, cls: ' subject', says: 'the figures are the client library\'s, what this study measures' };
    return TRUST[row.verdict] || TRUST['target-overloaded'];
  }

  function loadTypeOf(data, scenario) {
    const load = scenarioDef(data, scenario).load;
    if (load && load.type) return load.type;
    const run = data.runs.find(r => r.scenario === scenario);
    return (run && run.model && run.model.type) || 'open';
  }

  // latency-diff asks what a server adds to the median round trip of one request at a time: its p50, whatever its load.
  function ownMetricOf(data, scenario) {
    const latencyDiff = data.suite && data.suite.table === 'latency-diff';
    const key = latencyDiff ? 'p50Ms' : OWN_METRIC[loadTypeOf(data, scenario)] || 'p99Ms';
    return ROW_METRICS.find(m => m.key === key);
  }

  // Whether a row has a figure for the metric: a run that completed nothing has no latency and no rate worth ranking.
  // results.json writes droppedQueueFull only when some were dropped.
  function figureOf(row, metric) {
    const v = Number(metric.key === 'droppedQueueFull' ? row.droppedQueueFull || 0 : row[metric.key]);
    if (!isNum(v)) return NaN;
    if (metric.key !== 'serverMaxInFlight' && !isCount(metric) && !(row.requests > 0)) return NaN;
    return v;
  }

  // A metric that counts requests (errors, dropped): a whole number, whose best may be zero.
  function isCount(metric) {
    return metric.key === 'errors' || metric.key === 'droppedQueueFull';
  }

  // A metric of response time, which a closed loop times from the actual send.
  function isTime(metric) {
    return /Ms$/.test(metric.key);
  }

  // Whether a row's times are known not to be free of coordinated omission; a row written before it was said is not.
  function timedFromSend(row) {
    return row.freeOfCoordinatedOmission === false;
  }

  // After a cell's own figure, so its sorting and downloads read the figure alone.
  function fromSendMark() {
    return el('sup', { class: 'from-send', title: FROM_SEND_SAYS }, FROM_SEND);
  }

  function metricText(metric, v) {
    if (!isNum(v)) return '–';
    if (metric.key === 'achievedRatePerSec') return num(v) + '/s';
    if (metric.key === 'serverMaxInFlight') return num(v) + ' held at once';
    if (metric.key === 'errors') return num(v, 0) + ' errors';
    if (metric.key === 'droppedQueueFull') return num(v, 0) + ' dropped';
    return num(v) + ' ms';
  }

  // The best figure of a case on a metric, for the overview's colours: among the runs that may be ranked as CaseDecision
  // ranks them (no reference, no entry that collapsed, a bound at its figure), the best entry's median: {entry, value}.
  function bestOf(data, rows, metric) {
    const byEntry = new Map();
    const collapsed = new Set(rows.filter(r => r.verdict === 'target-overloaded').map(r => entryOf(data, r)));
    rows.filter(r => trustOf(data, r).rank <= 3 && !isBaseline(data, r.target) && !collapsed.has(entryOf(data, r))).forEach(r => {
      if (!isNum(figureOf(r, metric))) return;
      const e = entryOf(data, r);
      byEntry.set(e, (byEntry.get(e) || []).concat([figureOf(r, metric)]));
    });
    let best = null;
    for (const [entry, values] of byEntry) {
      const value = median(values);
      if (!best || (metric.better === 'lower' ? value < best.value : value > best.value)) best = { entry, value };
    }
    return best;
  }

  // The headline's decision of a case (ReportData's, by ForkRanking): its entries ranked over forks on its own metric.
  function decisionOf(data, c) {
    return data.decisions.find(d => d.case === c) || { places: [] };
  }

  // A figure over forks as Estimate says it, with the page's separators: 95 % CI 40,100–42,360, 3 forks.
  function intervalText(e) {
    const forks = Number(e.samples);
    if (!(forks >= 2)) return forks + (forks === 1 ? ' fork' : ' forks') + ': no interval';
    return Number((100 * e.confidence).toPrecision(3)) + ' % CI ' + num(e.low) + '–' + num(e.high) + ', ' + forks + ' forks';
  }

  // The verdicts beside a best figure that is the target's with a caveat.
  function verdictsNote(verdicts) {
    return verdicts.every(v => v === 'ok') ? '' : ' (' + verdicts.join(', ') + ')';
  }

  // A figure of the headline as CaseDecision gives it: its mean, "at most" or "at least" before a bound.
  function placeText(metric, p) {
    return (p.bound ? p.bound + ' ' : '') + metricText(metric, Number(p.figure.mean));
  }

  // The answer of a case (CaseDecision's). With forks, the first rank's entries with their means and intervals, each
  // one's standing against the one above it, and the sentence that sets the next rank apart; in one fork, the leader,
  // undecided, and the entries tied with it. Beside it: a bound ranked below, which may yet be better; the entries
  // that collapsed; the references. A download gets the first rank's names and figures (' / ' between them).
  function bestCell(data, metric, decision) {
    const places = decision.places || [];
    const forked = places.some(p => p.figure.samples >= 2);
    const first = forked ? places.filter(p => p.rank === 1) : places.slice(0, 1);
    const td = el('td', { 'data-text': first.map(p => p.entry).join(' / ') });
    if (first.length) {
      // A download's figures as data: several a cell with ' / ' between them; no interval in one fork.
      const figures = key => first.map(p => (isNum(p.figure[key]) ? p.figure[key] : '')).join(' / ');
      td.dataset.figures = JSON.stringify({ mean: figures('mean'), low: figures('low'), high: figures('high'),
        forks: figures('samples') });
      td.append(...first.map((p, i) => [i ? ' · ' : '', el('b', { class: 'best' }, p.entry), ' ' + placeText(metric, p) +
        (forked ? ' (' + intervalText(p.figure) + ')' : '') + verdictsNote(p.verdicts)]).flat());
    } else {
      td.append(el('span', { class: 'muted' }, 'none: no run has figures that are the target\'s below collapse'));
    }
    const note = text => td.append(el('div', { class: 'standing' }, text));
    if (forked) {
      first.slice(1).forEach(p => note(places[places.indexOf(p) - 1].entry + ' against ' + p.entry + ': ' + p.standing));
      if (decision.separation) note(decision.separation);
    } else if (first.length) {
      (decision.ties || []).forEach(t => note('tied with ' + t.entry + ' ' +
        placeText(metric, places.find(p => p.entry === t.entry)) + ': ' + t.why));
      td.append(el('div', { class: 'standing muted' }, 'one fork: no interval; ' +
        (places.length > 1 ? 'run with --forks N to decide' : 'run with --forks N for one')));
    }
    places.filter(p => p.bound && !first.includes(p)).forEach(p => note(p.entry + ' ' + placeText(metric, p) +
      verdictsNote(p.verdicts) + ': a bound, whose target may be better than ' + first[0].entry + '; not ranked against it'));
    (decision.collapsed || []).forEach(c => note('collapsed, not ranked: ' + c.entry + ' ' +
      (c.figure ? metricText(metric, Number(c.figure.mean)) : 'no figure') + ' (target-overloaded in ' + c.forks + ' forks)'));
    (decision.references || []).forEach(r => td.append(el('div', { class: 'standing reference' }, 'reference: ' + r.entry + ' ' +
      metricText(metric, Number(r.figure.mean)) + verdictsNote(r.verdicts))));
    return td;
  }

  // latency-diff's answer: what each target adds to the baseline's median round trip, least first, with its interval
  // over forks (LatencyDiffTable's differences, the terminal's table); the baseline's own median beside them.
  function differencesCell(data, decision, caseRows) {
    const us = v => (v >= 0 ? '+' : '−') + num(Math.abs(v), 1) + ' µs';
    const differences = decision.differences.slice().sort((a, b) => a.micros.difference - b.micros.difference);
    const td = el('td', { 'data-text': differences.map(d => d.entry + ' ' + us(d.micros.difference)).join(' / ') });
    differences.forEach(d => {
      const c = d.micros;
      const forks = c.samplesA + (c.samplesA === 1 ? ' fork' : ' forks');
      const spread = !isNum(c.low) ? forks + ': no interval'
        : Number((100 * c.confidence).toPrecision(3)) + ' % CI ' + us(c.low) + ' to ' + us(c.high) + ', ' + forks +
          (c.low > 0 || c.high < 0 ? '' : ': no difference detectable (smallest detectable ±' + num(c.smallestDetectable, 1) + ' µs)');
      td.append(el('div', { class: 'difference' }, el('b', {}, d.entry), ' ' + us(c.difference) + ' (' + spread + ')'));
    });
    if (!differences.length) td.append(el('span', { class: 'muted' }, 'none: no target shares a fork with the baseline'));
    const baseline = caseRows.find(r => r.target === 'dummy');
    const median = baseline && intervalOf(data, baseline, ROW_METRICS.find(m => m.key === 'p50Ms'));
    if (median) td.append(el('div', { class: 'standing reference' }, 'reference: dummy\'s median round trip ' + num(1000 * median.mean, 0) + ' µs'));
    return td;
  }

  // Per case: the best, on the case's own metric, and which runs can be trusted; then one sentence per run that is
  // not ok, saying what its verdict means and what to do about it.
  function headline(data, main) {
    const rows = data.rows || [];
    const section = el('section', { class: 'headline', id: 'answer' }, el('h2', {}, 'The answer, per scenario'));
    main.append(section);
    if (!rows.length) return;
    const table = el('table', { class: 'headline-table' }, el('tr', {}, ['scenario', 'measured by', 'best', 'runs']
      .map(h => th(h))));
    for (const c of casesOf(data)) {
      const caseRows = rows.filter(r => caseOf(r.scenario, r.client) === c);
      if (!caseRows.length) continue;
      const metric = ownMetricOf(data, caseRows[0].scenario);
      const notOk = caseRows.filter(r => r.verdict !== 'ok');
      const worst = notOk.reduce((w, r) => (trustOf(data, r).rank > w.rank ? trustOf(data, r) : w), TRUST.ok);
      const runs = notOk.length ? [notOk.length + ' of ' + caseRows.length + ' not ok: ',
        notOk.map((r, i) => [i ? ', ' : '', el('a', { href: '#' + runId(r) }, label(data, r, true)), ' ' + verdictWord(r)])]
        : caseRows.length === 1 ? 'its 1 run ok' : 'all ' + caseRows.length + ' runs ok';
      const decision = decisionOf(data, c);
      table.append(el('tr', { class: 'verdict' + worst.cls }, el('th', {}, c), decision.differences
        ? el('td', {}, 'µs added to dummy\'s median round trip, lower is better') : el('td', {}, metric.label + ', ' + metric.better + ' is better'),
      decision.differences ? differencesCell(data, decision, caseRows) : bestCell(data, metric, decision), el('td', {}, runs)));
    }
    section.append(table, downloads(table, 'headline'));
    const notOk = rows.filter(r => r.verdict !== 'ok');
    if (!notOk.length) {
      section.append(el('p', { class: 'all-ok' }, 'All ' + rows.length + ' runs ok: every figure on this page is the target\'s.'));
      return;
    }
    const banners = notOk.sort((a, b) => trustOf(data, b).rank - trustOf(data, a).rank).map(r => el('div', { class: 'banner' + trustOf(data, r).cls },
      el('b', {}, el('a', { href: '#' + runId(r) }, runKey(r)), ': ' + verdictWord(r)), ' — ' + advice(data, r),
      r.note ? el('div', { class: 'evidence' }, 'evidence: ' + r.note) : null));
    const classOf = new Map(notOk.map(r => [verdictWord(r), trustOf(data, r).cls]));
    const worst = notOk.map(r => trustOf(data, r)).reduce((w, t) => (t.rank > w.rank ? t : w));
    appendBanners(section, banners, notOk.map(verdictWord), worst.cls,
      notOk.length + ' of ' + rows.length + ' runs are not ok: ', k => classOf.get(k));
  }

  function verdictWord(r) {
    return !r.verdict || r.verdict === '-' ? 'no figures' : r.verdict;
  }

  // One plain sentence: whose figures these are, and what would make them the target's.
  function advice(data, r) {
    const who = entryOf(data, r);
    const note = r.note || '';
    const says = trustOf(data, r).says;
    const connections = /waited for (one of its \d+ connections|a connection)/.test(note);
    switch (r.verdict) {
      case 'platform-noisy':
        return 'The machine\'s own stalls were as large as the lateness measured: ' + says + ' only to within that noise. ' +
          'Run again on a quieter machine, with nothing else running, or with the target and generator pinned to their own CPUs.';
      case 'not-steady':
        return who + ' was still changing while it was measured: ' + says + '. Give the scenario a longer warm-up ' +
          '(warmupMs, or steady: with a larger maxMs) or a longer measured phase.';
      case 'target-overloaded':
        return who + ' did not keep up with the load: ' + says + ' (its errors and its slowest times are what it does when overloaded). ' +
          (connections ? 'Requests queued for a busy connection: if the target should take more at once, raise the connection cap ' +
            '(generator.maxConnections in the suite, --max-connections for ./gauntlet load); otherwise offer a lower rate.'
            : 'To measure it below saturation, offer a lower rate.');
      case 'generator-limited':
        return 'The generator, not ' + who + ', was the bottleneck: ' + says + '. ' + (connections
          ? 'It had too few connections for the rate: raise the connection cap (generator.maxConnections in the suite, --max-connections for ./gauntlet load).'
          : 'Give the generator more CPUs (resources.generator.cpus, or generator.processes), or run it on a quieter machine.');
      case 'client-limited':
        return byClient(data) ? 'The client library was the bottleneck, which is what a client study measures: compare it with the other clients.'
          : 'The client library, not the target, was the bottleneck: ' + says + '. Use the built-in client for a study of servers, or give the generator more CPUs.';
      default:
        if (!r.verdict || r.verdict === '-') {
          return 'This run has ' + says + (note ? ' (' + note + ')' : '') + ': read its log files in ' + runDir(r) + ' and run it again.';
        }
        return says + '.';
    }
  }

  // As ResultsDirectory names it: the repetition in fork 1, f<fork>-<repetition> in a later fork.
  function runDir(r) {
    const fork = r.fork || 1;
    return 'runs/' + r.target + '/' + r.scenario + '/' + (fork === 1 ? '' : 'f' + fork + '-') + r.repetition + '/';
  }

  // PlatformCalibration's figures: hiccups on each role's CPUs and the round trip, p99 and max of each; each role's capacity.
  function platformText(platform) {
    if (!platform || typeof platform !== 'object') return 'not recorded';
    if (platform.skipped) return 'not measured (' + platform.skipped + ')';
    const figure = (label, p) => (p && isNum(p.p99Ms) ? label + ' p99 ' + num(p.p99Ms) + ' ms, max ' + num(p.maxMs) + ' ms' : null);
    // CapacityLevel: the probe's units a second, and the seconds' spread in percent of their mean.
    const capacity = (label, c) => (c && isNum(c.mean) && c.mean > 0 ? label + ' ' + num(c.mean, 0) + ' a second (±' +
      num(100 * c.standardDeviation / c.mean, 0) + ' %, ' + c.seconds + ' s)' : null);
    const parts = [
      figure('hiccups on the target\'s CPUs' + (platform.targetCpus ? ' (' + platform.targetCpus + ')' : ''), platform.targetHiccups),
      figure('on the generator\'s' + (platform.generatorCpus ? ' (' + platform.generatorCpus + ')' : ''), platform.generatorHiccups),
      figure((platform.path || 'network') + ' round trip', platform.roundTrip),
      figure('loopback round trip', platform.loopbackRoundTrip),
      capacity('capacity of the target\'s CPUs', platform.targetCapacity),
      capacity('of the generator\'s', platform.generatorCapacity),
    ].filter(Boolean);
    if (isNum(platform.seconds)) parts.push('measured for ' + platform.seconds + ' s before the suite');
    return parts.join('; ') || JSON.stringify(platform);
  }

  // ---- 2. overview matrix --------------------------------------------------------------------

  function overview(data, main) {
    main.append(el('h2', { id: 'overview' }, '2. Overview: ' + (byClient(data) ? 'clients × cases' : 'targets × scenarios')));
    const rows = (data.rows || []).filter(r => r.verdict && r.verdict !== '-');
    if (!rows.length) {
      main.append(noData('No measured run yet.'));
      return;
    }
    main.append(el('p', { class: 'muted' }, 'Each cell: the median over repetitions (min – max below it when there are several; ' +
      'with forks, the mean over forks and its interval below that, for rates, p50, p99 and max), coloured by its share ' +
      'of the best in that scenario, in the metric\'s own direction (lower is better for times and ' +
      'errors, higher for rates and requests held): green is the best, red the furthest from it. The best is never a ' +
      'baseline (italic, uncoloured: the reference) nor a target that collapsed (target-overloaded, hatched red). Hatched grey: ' +
      'figures that are not the target\'s (generator- or client-limited), bounds on what it would do, which take no ' +
      'part in the colouring unless one beats every other figure; their verdict is in the cell\'s tooltip.'));
    const own = { key: 'own', label: data.suite && data.suite.table === 'latency-diff' ? 'each scenario\'s own (the median round trip)'
      : 'each scenario\'s own (p99 for open loops, rate for closed, held for concurrency)' };
    const select = el('select', {}, [own].concat(ROW_METRICS).map(m => el('option', { value: m.key }, m.label)));
    select.value = own.key;
    const holder = el('div');
    main.append(el('div', { class: 'controls' }, 'metric ', select), holder);
    const draw = () => {
      const table = matrix(data, rows, select.value === own.key ? null : ROW_METRICS.find(m => m.key === select.value));
      const note = table.querySelector('.from-send') ? el('p', { class: 'chart-note' }, FROM_SEND + ' ' + FROM_SEND_SAYS + '.') : null;
      holder.replaceChildren(...[el('div', { class: 'matrix-wrap' }, table), downloads(table, 'overview-' + select.value), note]
        .filter(Boolean));
    };
    select.addEventListener('change', draw);
    draw();
  }

  // A metric that describes a kind of scenario: held at once only max concurrency, which completes nothing to time.
  function applies(metric, loadType) {
    return metric.key === 'serverMaxInFlight' ? loadType === 'max-concurrency' : loadType !== 'max-concurrency' || isCount(metric);
  }

  // `fixed` null: each scenario's own metric.
  function matrix(data, rows, fixed) {
    const targets = entriesOf(data);
    const scenarios = casesOf(data);
    const metricOf = {};
    const best = {};
    const ofCase = s => rows.filter(r => caseOf(r.scenario, r.client) === s);
    for (const s of scenarios) {
      const caseRows = ofCase(s);
      const loadType = loadTypeOf(data, caseRows.length ? caseRows[0].scenario : s);
      metricOf[s] = fixed || ownMetricOf(data, caseRows.length ? caseRows[0].scenario : s);
      const b = applies(metricOf[s], loadType) ? bestOf(data, caseRows, metricOf[s]) : null;
      best[s] = b ? b.value : NaN;
    }
    // A download names each column by its scenario and metric ('open p99 ms'): the measured-by row is the page's alone.
    const table = el('table', { class: 'matrix' },
      el('tr', {}, el('th', {}, byClient(data) ? 'client \\ case' : 'target \\ scenario'),
        scenarios.map(s => el('th', { 'data-column': s + ' ' + metricOf[s].label }, s))));
    if (!fixed) {
      table.append(el('tr', { class: 'measured-by', 'data-caption': '' }, el('th', {}, 'measured by'),
        scenarios.map(s => el('td', {}, metricOf[s].label))));
    }
    for (const t of targets) {
      const tr = el('tr', {}, el('th', {}, t));
      for (const s of scenarios) {
        const metric = metricOf[s];
        const group = ofCase(s).filter(r => entryOf(data, r) === t && isNum(figureOf(r, metric)));
        const values = group.map(r => figureOf(r, metric));
        if (!values.length) {
          tr.append(figureCell(NaN, '–', { class: 'missing' }));
          continue;
        }
        const m = median(values);
        const b = best[s];
        const foreign = group.every(r => trustOf(data, r).rank > 2);
        const verdicts = uniq(group.map(r => r.verdict)).join(', ');
        const text = fixed ? num(m, isCount(metric) ? 0 : undefined) : metricText(metric, m);
        let td;
        if (isBaseline(data, t)) {
          td = figureCell(m, text, { class: 'num reference', title: verdicts + ': the baseline, what the others are measured against, not ranked' });
        } else if (group.some(r => r.verdict === 'target-overloaded')) {
          td = figureCell(m, text, { class: 'num collapsed', title: verdicts + ': collapsed under the load, neither ranked nor coloured' });
        } else if (foreign || !isNum(b)) {
          td = figureCell(m, text, { class: 'num' + (foreign ? ' foreign' : ''), title: verdicts + (foreign ? ': not the target\'s figures' : '') });
        } else {
          let share;
          if (isCount(metric)) share = (b + 1) / (m + 1);
          else share = metric.better === 'lower' ? (m > 0 ? b / m : 1) : (b > 0 ? m / b : 1);
          share = Math.max(0, Math.min(1, share));
          td = figureCell(m, text, { class: 'num scored', style: 'background: hsl(' + Math.round(120 * share) + ', 65%, 82%)',
            title: Math.round(100 * share) + ' % of the best; ' + verdicts });
        }
        if (isTime(metric) && group.some(timedFromSend)) td.append(fromSendMark());
        if (values.length > 1) {
          td.append(el('span', { class: 'spread' }, num(Math.min(...values)) + ' – ' + num(Math.max(...values)) +
            ' (' + values.length + ' reps)'));
        }
        const forked = intervalOf(data, group[0], metric);
        if (forked && forked.samples >= 2) {
          td.append(el('span', { class: 'spread' }, 'mean ' + num(forked.mean) + ', ' + intervalText(forked)));
          td.dataset.figures = JSON.stringify({ mean: forked.mean, low: forked.low, high: forked.high, forks: forked.samples });
        }
        tr.append(td);
      }
      table.append(tr);
    }
    return table;
  }

  // The metric's figure over forks for the row's target × scenario (intervals.json's): an Estimate, or undefined for a
  // metric it does not hold.
  function intervalOf(data, row, metric) {
    const field = INTERVALS[metric.key];
    const c = data.intervals.find(i => i.target === row.target && i.scenario === row.scenario);
    return field && c ? c[field] : undefined;
  }

  // ---- 3. per scenario -----------------------------------------------------------------------

  function perScenario(data, main) {
    main.append(el('h2', { id: 'scenarios' }, '3. Per scenario'));
    const cases = casesOf(data);
    if (!cases.length) {
      main.append(noData('The suite names no scenario.'));
      return;
    }
    const entries = entriesOf(data);
    if (data.suite && data.suite.table === 'sweep') sweepCharts(data, main);
    for (const c of cases) {
      const runs = data.runs.filter(r => caseOf(r.scenario, r.client) === c);
      const def = scenarioDef(data, runs.length ? runs[0].scenario : c);
      const section = el('section', {}, el('h3', {}, c));
      main.append(section);
      if (def.description) section.append(el('p', { class: 'muted' }, def.description));
      const manyReps = runs.some(r => r.repetition > 1 || r.fork > 1);
      const fromSend = runs.some(r => timedFromSend(rowOf(data, r)));
      percentileChart(section, 'Response time from the ' + (fromSend ? 'actual send ' + FROM_SEND : 'intended start') + ', every ' +
        (byClient(data) ? 'client' : 'target'), runs.map(r => ({
        label: label(data, r, manyReps),
        color: COLORS[entries.indexOf(entryOf(data, r)) % COLORS.length],
        dash: r.repetition > 1 ? [6, 3] : undefined,
        curve: r.curves.response,
      })), fromSend ? FROM_SEND + ' ' + FROM_SEND_SAYS + '.' : null);
      rateChart(data, runs, manyReps, section);
      section.append(scenarioTable(data, runs), jvmCostsTable(data, runs));
    }
  }

  // A sweep's scenarios are levels of one load: each target's p99 and rate as a line across them.
  function sweepCharts(data, main) {
    const levels = scenariosOf(data).map(name => ({ name, level: loadLevel(scenarioDef(data, name).load) }))
      .filter(l => isNum(l.level)).sort((a, b) => a.level - b.level);
    const closed = levels.length && (scenarioDef(data, levels[0].name).load || {}).type === 'closed';
    const section = el('section', {}, el('h3', {}, 'Every target across the levels'));
    main.append(section);
    if (levels.length < 2) {
      section.append(noData('Fewer than two levels with figures.'));
      return;
    }
    const rows = (data.rows || []).filter(r => r.verdict && r.verdict !== '-');
    const xs = levels.map(l => l.level);
    const across = (metric, skipEmpty) => targetsOf(data).map((t, i) => ({ label: t, stroke: COLORS[i % COLORS.length], width: 2,
      values: levels.map(l => {
        const v = median(rows.filter(r => r.target === t && r.scenario === l.name && !(skipEmpty && r.requests === 0))
          .map(r => Number(r[metric])));
        return isNum(v) && (!skipEmpty || v > 0) ? v : null;
      }) }));
    const draw = (title, yLabel, series, logY) => {
      section.append(el('div', { class: 'chart-title' }, title));
      chart(section, {
        height: 280,
        scales: { x: { time: false, distr: 3, log: 10, range: () => [xs[0] / 1.5, xs[xs.length - 1] * 1.5] }, y: logY ? fittedLogY() : { range: (u, min, max) => [0, Math.max(max, 1) * 1.1] } },
        // uPlot leaves out (as null) a level whose label would not fit.
        axes: [{ label: closed ? 'connections' : 'offered requests/s', splits: () => xs, values: (u, v) => v.map(x => (x == null ? '' : num(x))) },
          { label: yLabel, size: 70, values: tickLabels }],
        series: [{ label: closed ? 'connections' : 'offered/s' }].concat(series.map(s => ({ label: s.label, stroke: s.stroke,
          width: s.width, spanGaps: false, points: { show: true } }))),
      }, [xs].concat(series.map(s => s.values)));
    };
    draw('p99 response time at each level (log axes)', 'ms', across('p99Ms', true), true);
    draw('Achieved rate at each level', 'requests/s', across('achievedRatePerSec', false), false);
    section.append(el('p', { class: 'chart-note' }, 'Each point: the median over repetitions of the runs with figures; ' +
      'a gap is a level where the target completed nothing.' + (rows.some(timedFromSend) ? ' p99: ' + FROM_SEND + ' ' +
      FROM_SEND_SAYS + '.' : '')));
  }

  function loadLevel(load) {
    if (!load) return NaN;
    return load.type === 'closed' ? load.connections : load.type === 'open' ? load.ratePerSec : NaN;
  }

  // One bar per run: its achieved rate, the rate of its errors stacked on it, the offered rate as a dashed line.
  // Max concurrency completes nothing by design: its bars are the requests the target held at once.
  function rateChart(data, runs, manyReps, parent) {
    const measured = runs.filter(r => isNum(Number(rowOf(data, r).achievedRatePerSec)));
    const held = measured.length > 0 && measured.every(r => r.model && r.model.type === 'max-concurrency');
    parent.append(el('div', { class: 'chart-title' }, held ? 'Requests held in the target at once' : 'Achieved against offered rate'));
    if (!measured.length) {
      parent.append(noData('No run of this scenario has figures yet.'));
      return;
    }
    const labels = measured.map(r => label(data, r, manyReps));
    const bars = uPlot.paths.bars({ size: [0.6, 48] });
    const x = measured.map((r, i) => i);
    const series = [{ label: 'run', value: (u, i) => (i == null ? '–' : labels[i]) }];
    const rows = [x];
    if (held) {
      series.push({ label: 'held', fill: 'rgba(43, 138, 62, 0.75)', stroke: COLORS[2], paths: bars, points: { show: false } });
      rows.push(measured.map(r => Number(rowOf(data, r).serverMaxInFlight)));
    } else {
      const achieved = measured.map(r => Number(rowOf(data, r).achievedRatePerSec));
      const errorRate = measured.map(r => (r.measuredSec > 0
        ? Object.values(r.errors || {}).reduce((a, b) => a + b, 0) / r.measuredSec : 0));
      const offered = measured.map(r => offeredRate(r.model));
      const rate = (u, v) => (v == null ? '–' : num(v) + '/s');
      series.push({ label: 'errors/s', fill: 'rgba(201, 42, 42, 0.7)', stroke: '#c92a2a', paths: bars, points: { show: false },
        value: (u, v, si, i) => (i == null ? '–' : num(errorRate[i]) + '/s') },
      { label: 'achieved/s', fill: 'rgba(43, 138, 62, 0.75)', stroke: COLORS[2], paths: bars, points: { show: false }, value: rate });
      rows.push(achieved.map((a, i) => a + errorRate[i]), achieved);
      if (offered.some(isNum)) {
        series.push({ label: 'offered/s', stroke: '#555', dash: [5, 4], width: 2, points: { show: true, size: 7 }, value: rate });
        rows.push(offered);
      }
      // A marker, not a bar: under overload the measured requests' own rate may be 0 while the target answers the
      // warm-up's backlog, and that work must be seen.
      const goodput = measured.map(r => Number(rowOf(data, r).goodputPerSec));
      if (goodput.some(isNum)) {
        series.push({ label: 'goodput/s', stroke: COLORS[0], fill: COLORS[0], paths: () => null,
          points: { show: true, size: 9, fill: COLORS[0] }, value: rate });
        rows.push(goodput.map(v => (isNum(v) ? v : null)));
      }
    }
    chart(parent, {
      height: 260,
      padding: [null, 48, null, null],
      scales: { x: { time: false, range: [-0.5, measured.length - 0.5] }, y: { range: (u, min, max) => [0, Math.max(max, 1) * 1.1] } },
      axes: [{ splits: () => x, values: (u, splits) => splits.map(i => labels[i] || ''),
        rotate: measured.length > 6 ? -30 : 0, size: measured.length > 6 ? 110 : 40, gap: 4 },
      { label: held ? 'requests' : 'requests/s', size: 70 }],
      series,
    }, rows);
    if (measured.some(r => r.model && r.model.type === 'closed')) {
      parent.append(el('p', { class: 'chart-note' }, 'A closed loop offers no rate: it sends as fast as answers come.'));
    }
    if (!held && measured.some(r => Number(rowOf(data, r).goodputPerSec) > 1.1 * Number(rowOf(data, r).achievedRatePerSec))) {
      parent.append(el('p', { class: 'chart-note' }, 'goodput/s (the blue dot) above achieved/s: the target was answering a ' +
        'backlog, the warm-up\'s requests, while the measured ones waited behind it. It was busy, not idle.'));
    }
  }

  function label(data, r, manyReps) {
    return entryOf(data, r) + (manyReps ? ' ' + runName(r) : '');
  }

  // A row written before forks is fork 1's.
  function rowOf(data, run) {
    return data.rows.find(x => x.target === run.target && x.scenario === run.scenario && (x.fork || 1) === (run.fork || 1)
      && x.repetition === run.repetition) || {};
  }

  // run-TARGET-SCENARIO-REPETITION in fork 1, as before forks; run-TARGET-SCENARIO-fN-REPETITION in fork N.
  function runId(r) {
    return 'run-' + [r.target, r.scenario].concat((r.fork || 1) > 1 ? ['f' + r.fork] : [], [r.repetition]).join('-')
      .replace(/[^A-Za-z0-9_.-]/g, '_');
  }

  function scenarioTable(data, runs) {
    if (!runs.length) return noData('No run of this scenario yet.');
    // Only the classes that occurred, and dropped requests only if some were: a column of zeros says nothing.
    const classes = uniq(runs.flatMap(r => Object.keys(r.errors || {}).filter(c => r.errors[c] > 0)));
    const dropping = runs.some(r => rowOf(data, r).droppedQueueFull > 0);
    const table = el('table', {}, el('tr', {}, ['run', 'offered /s', 'achieved /s', 'sustained /s', 'goodput /s', 'verdict']
      .concat(classes.map(errorLabel), dropping ? ['dropped unsent'] : []).map(h => th(h))));
    for (const r of runs) {
      const row = rowOf(data, r);
      table.append(el('tr', {}, el('td', {}, el('a', { href: '#' + runId(r) }, label(data, r, true))),
        figureCell(offeredRate(r.model)),
        figureCell(row.achievedRatePerSec),
        figureCell(r.sustainedRatePerSec),
        figureCell(row.goodputPerSec),
        el('td', row.verdict ? {} : { 'data-text': '' }, row.verdict || '–'),
        classes.map(c => figureCell(r.errors && c in r.errors ? r.errors[c] : NaN)),
        dropping ? figureCell(row.verdict && row.verdict !== '-' ? row.droppedQueueFull || 0 : NaN) : null));
    }
    const wrap = el('div', {}, el('div', { class: 'chart-title' }, 'Rates and errors by class'),
      sortable(table, 'rates-' + caseOf(runs[0].scenario, runs[0].client)));
    // A run that completed none of its measured requests and failed none still has them waiting: not "no errors".
    const stuck = runs.filter(r => !(rowOf(data, r).achievedRatePerSec > 0) && r.unansweredAtEnd > 0);
    if (!classes.length) {
      wrap.append(el('p', { class: 'chart-note' }, stuck.length ? 'No errors, but ' + stuck.map(r => label(data, r, true) + ' left ' +
        num(r.unansweredAtEnd, 0)).join(', ') + ' measured requests unanswered when the phase ended: they count in no rate ' +
        'and no time (goodput /s shows what the target completed meanwhile).' : 'No errors in these runs.'));
    }
    return wrap;
  }

  // Each run's JVM costs in the measured phase, the figures of its JVM table (ReportData's), to sort and download.
  function jvmCostsTable(data, runs) {
    const measured = runs.filter(r => r.jvm && (r.jvm.target || r.jvm.generator));
    if (!measured.length) return noData('No JVM figures: no run of this scenario has a jvm.json (JFR recordings not read).');
    const sides = ['target', 'generator'];
    const table = el('table', {}, el('tr', {}, th('run'), sides.map(side => [th(side + ' GC pauses', 'GC pause'),
      th(side + ' GC longest ms', 'GC pause'), th(side + ' GC total ms', 'GC pause'), th(side + ' CPU %', 'CPU'),
      th(side + ' CPU busiest second %', 'CPU')])));
    for (const r of measured) {
      table.append(el('tr', {}, el('td', {}, el('a', { href: '#' + runId(r) }, label(data, r, true))), sides.map(side => {
        const m = r.jvm[side] || {};
        const gc = m.gcPauses || {};
        const cpu = m.cpu || {};
        return [figureCell(gc.count, isNum(gc.count) ? String(gc.count) : '–'), figureCell(gc.maxMs), figureCell(gc.totalMs),
          figureCell(cpu.measuredPercent, cpuText(cpu.measuredPercent)), figureCell(cpu.busiestSecondPercent, cpuText(cpu.busiestSecondPercent))];
      })));
    }
    return el('div', {}, el('div', { class: 'chart-title' }, 'JVM costs in the measured phase'),
      sortable(table, 'jvm-' + caseOf(runs[0].scenario, runs[0].client)), jvmOptionsNote(data, runs));
  }

  // The JVM options these runs' targets started with (the suite's, or a target's own: jvm.perTarget), targets with the
  // same options together, and the generator's: the collector and heap behind the costs above.
  function jvmOptionsNote(data, runs) {
    const options = data.jvmOptions || {};
    const byOptions = new Map();
    for (const target of [...new Set(runs.map(r => r.target))]) {
      const own = ((options.targets || {})[target] || []).join(' ');
      if (!byOptions.has(own)) byOptions.set(own, []);
      byOptions.get(own).push(target);
    }
    const parts = [...byOptions].filter(([own]) => own).map(([own, targets]) => targets.join(', ') + ': ' + own);
    if (options.generator && options.generator.length) parts.push('generator: ' + options.generator.join(' '));
    return parts.length ? el('p', { class: 'chart-note jvm-options' }, 'JVM options — ' + parts.join(' · ')) : null;
  }

  // ---- 4. per run ----------------------------------------------------------------------------

  function perRun(data, main) {
    main.append(el('h2', { id: 'runs' }, '4. Per run'));
    if (!data.runs.length) {
      main.append(noData('No run yet.'));
      return;
    }
    main.append(el('p', { class: 'muted' }, 'Timelines share one cursor and zoom; drag across a timeline to select a time ' +
      'window and the response-time percentile chart is recomputed for it (double-click to reset). Warm-up is shaded; ' +
      'GC pauses are bars at their real time, as tall as they lasted, on the latency axis:',
      el('span', { class: 'key', style: 'background:' + PAUSE_COLORS.target }), 'target',
      el('span', { class: 'key', style: 'background:' + PAUSE_COLORS.generator }), 'generator'));
    // Each run's charts are drawn when its section is first opened (by a click, a link to #run-..., the buttons, or
    // printing), so a suite of hundreds of runs still opens quickly and the page stays short.
    main.append(el('p', { class: 'controls' },
      el('button', { type: 'button', onclick: () => openRuns(runSections) }, 'open every run'), ' ',
      el('button', { type: 'button', onclick: () => runSections.forEach(s => { s.details.open = false; }) }, 'close every run'),
      ' ', el('span', { class: 'muted' }, data.runs.length + ' runs; a summary line each, its charts below it when opened')));
    for (const r of data.runs) {
      const row = rowOf(data, r);
      const figures = r.model && r.model.type === 'max-concurrency' ? metricText(ROW_METRICS.find(m => m.key === 'serverMaxInFlight'), Number(row.serverMaxInFlight))
        : 'p99 ' + num(row.p99Ms) + ' ms' + (timedFromSend(row) ? FROM_SEND : '') + ', ' + num(row.achievedRatePerSec) + '/s';
      const details = el('details', { class: 'run', id: runId(r) }, el('summary', {}, runKey(r) + ' — ' + (row.verdict || '–') +
        ', ' + figures));
      main.append(details);
      let drawn = false;
      const draw = () => {
        if (!drawn && details.open) {
          drawn = true;
          runSection(r, row, details);
        }
      };
      details.addEventListener('toggle', draw);
      runSections.push({ details, draw });
    }
  }

  // Opens the sections and draws their charts now (the toggle event would come a task later).
  function openRuns(sections) {
    sections.forEach(s => {
      s.details.open = true;
      s.draw();
    });
  }

  function runSection(r, row, parent) {
    if (row.note) parent.append(el('p', { class: 'muted' }, row.note));
    if (r.steadiness) parent.append(el('p', { class: 'chart-note' }, warmupText(r)));
    // One axis for the three: a request's response time is its lag plus its service time, so neither can be drawn
    // above it. The response line is the widest and the others are dashed on top of it: where a closed loop's
    // response and service times coincide, both stay visible.
    const curves = percentileChart(parent, 'Response and service time and schedule lag, by percentile', [
      { label: 'response', curve: r.curves.response, color: SERIES_COLORS.response, width: 4 },
      { label: 'service', curve: r.curves.service, color: SERIES_COLORS.service, dash: [6, 4] },
      { label: 'schedule lag', curve: r.curves.lag, color: SERIES_COLORS.lag, dash: [2, 3] },
    ], timedFromSend(row) ? 'Response time: ' + FROM_SEND + ' ' + FROM_SEND_SAYS + '.' : null);
    parent.append(percentileDownloads(r));
    const tl = r.timeline && r.timeline.response;
    if (!tl || !tl.t.length) {
      parent.append(noData('No response.hlog: no timeline for this run.'));
    } else {
      timelines(r, tl, parent, curves);
    }
    requestDetails(r, parent);
    parent.append(jvmTable(r));
    if (r.files && r.files.length) {
      parent.append(el('p', { class: 'muted' }, 'Raw files: ', r.files.map((f, i) =>
        [i ? ', ' : '', el('a', { href: rawFile(r.dir + '/' + f) }, f)])));
    }
  }

  // The run's percentile distributions, one row per level of PercentileCurve (the last row of each is its maximum).
  function percentileDownloads(r) {
    const kinds = [['response', 'response ms'], ['service', 'service ms'], ['lag', 'schedule lag ms']]
      .filter(([k]) => r.curves[k] && r.curves[k].x);
    if (!kinds.length) return null;
    const joined = uPlot.join(kinds.map(([k]) => [r.curves[k].x, r.curves[k].ms]));
    const body = joined[0].map((x, i) => [Number((100 * (1 - 1 / x)).toPrecision(8))].concat(joined.slice(1).map(ys => ys[i])));
    return downloadLinks(['percentile'].concat(kinds.map(([, h]) => h)), body, 'percentiles-' + runId(r).slice(4),
      'the percentile distributions');
  }

  // How the warm-up went: "Warm-up 24 s, until steady (23 windows judged): <rule>", or fixed, or its maximum reached.
  function warmupText(r) {
    const st = r.steadiness;
    const how = st.settled === null || st.settled === undefined ? 'fixed'
      : st.settled ? 'until steady (' + st.windows + ' windows judged)' : 'its maximum, not settled: the figures are not a steady state\'s';
    return 'Warm-up ' + num(r.warmupSec) + ' s, ' + how + '. Rule: ' + st.rule + '.';
  }

  function timelines(r, tl, parent, curves) {
    const warmup = r.warmupSec || 0;
    const lastT = tl.t[tl.t.length - 1];
    // A leading empty point so the x scale reaches back over the warm-up, where pauses may also fall, then the warm-up's
    // judged windows ([start, completed/s, p50, p99]: ReportData's), so the warm-up shows what the target did in it.
    const warm = warmup > 0 ? ((r.steadiness && r.steadiness.warmup) || []).filter(w => w[0] > -warmup) : [];
    const lead = warmup > 0 ? [-warmup].concat(warm.map(w => w[0])) : [];
    const x = lead.concat(tl.t);
    const positive = a => a.map(v => (v > 0 ? v : null));
    const pad = a => lead.map(() => null).concat(a);
    const warmed = (a, column) => (warmup > 0 ? [null].concat(warm.map(w => w[column])) : []).concat(a);
    const key = 'run-' + runKey(r);
    const group = [];
    // No range function: it would override a zoom; the data's own extent spans warm-up to the last second.
    const xScale = { time: false };
    const common = {
      height: 220,
      cursor: { sync: { key, setSeries: false } },
      hooks: {
        setScale: [(u, k) => { if (k === 'x') zoomed(u); }],
      },
    };
    let syncing = false;
    const zoomed = u => {
      if (syncing) return;
      syncing = true;
      const { min, max } = u.scales.x;
      // uPlot commits a scale later, so a chart the zoom reached calls this again: it passes it on only once.
      group.forEach(o => { if (o !== u && (o.scales.x.min !== min || o.scales.x.max !== max)) o.setScale('x', { min, max }); });
      syncing = false;
      if (curves) windowCurve(r, tl, curves, min, max, -warmup, lastT);
    };
    const pauseHook = u => drawPauses(u, r.gc || {}, warmup);

    // A run that answered nothing while measured (max concurrency holds its requests by design) has no response
    // times and no completions to draw: its timelines are the lag of the held requests and the target's threads.
    const answered = tl.count.some(c => c > 0);
    const lag = r.timeline.lag;
    // The lag per second on the response times' own axis: it is part of each response time, never above it.
    const lagP99 = lag && lag.t.length ? tl.t.map(t => { const i = lag.t.indexOf(t); return i < 0 ? null : lag.p99[i]; }) : null;
    if (answered) {
      parent.append(el('div', { class: 'chart-title' }, 'Response time per second (log axis)' + (lagP99 ? ', with the schedule lag' : '')));
      const timeSeries = [{ label: 's' }, { label: 'p50', stroke: SERIES_COLORS.p50 }, { label: 'p99', stroke: SERIES_COLORS.p99 },
        { label: 'max', stroke: SERIES_COLORS.max }];
      const timeRows = [x, positive(warmed(tl.p50, 2)), positive(warmed(tl.p99, 3)), pad(positive(tl.max))];
      if (lagP99) {
        timeSeries.push({ label: 'lag p99', stroke: SERIES_COLORS.lag, dash: [2, 3] });
        timeRows.push(pad(positive(lagP99)));
      }
      group.push(chart(parent, Object.assign({}, common, {
        scales: { x: xScale, y: fittedLogY() },
        axes: [{ label: 's after the measured phase began' }, { label: 'ms', size: 60, values: tickLabels }],
        series: timeSeries,
        hooks: Object.assign({}, common.hooks, { drawClear: [pauseHook] }),
      }), timeRows));
      parent.append(el('p', { class: 'chart-note' }, pauseCounts(r), ' ', resolutionNote(lastT + 1)));

      const offered = offeredRate(r.model);
      parent.append(el('div', { class: 'chart-title' }, 'Completed per second' + (offered ? ' against offered' : '')));
      const series = [{ label: 's' }, { label: 'completed/s', stroke: COLORS[2], width: 2 }];
      const rows = [x, warmed(tl.count, 1)];
      if (offered) {
        series.push({ label: 'offered/s', stroke: '#888', dash: [5, 4] });
        rows.push(x.map(() => offered));
      }
      const top = Math.max(1, ...rows.slice(1).flat().filter(isNum));
      group.push(chart(parent, Object.assign({}, common, {
        scales: { x: xScale, y: { range: () => [0, top * 1.1] } },
        axes: [{ label: 's after the measured phase began' }, { label: 'requests/s', size: 60 }],
        series,
        hooks: Object.assign({}, common.hooks, { drawClear: [u => shadeWarmup(u, warmup)] }),
      }), rows));
    } else {
      parent.append(noData('No request was answered in the measured phase' + (r.model && r.model.type === 'max-concurrency'
        ? ' (a max-concurrency run holds its requests by design)' : '') + ': no response time or completions per second. ' +
        'The schedule lag below is how late each request was sent; the threads chart shows the target taking them on.'));
    }

    if (!answered && lag && lag.t.length) {
      parent.append(el('div', { class: 'chart-title' }, 'Schedule lag per second (log axis)'));
      group.push(chart(parent, Object.assign({}, common, {
        scales: { x: xScale, y: fittedLogY() },
        axes: [{ label: 's after the measured phase began' }, { label: 'ms', size: 60, values: tickLabels }],
        series: [{ label: 's' }, { label: 'lag p99', stroke: SERIES_COLORS.lag }, { label: 'lag max', stroke: SERIES_COLORS.max }],
        hooks: Object.assign({}, common.hooks, { drawClear: [pauseHook] }),
      }), [lead.concat(lag.t), pad(positive(lag.p99)), pad(positive(lag.max))]));
      parent.append(el('p', { class: 'chart-note' }, pauseCounts(r)));
    }
    // The first timeline takes report.html#window=A,B; the others follow its zoom.
    if (group.length) zoomable.push(group[0]);

    const frame = [-warmup, lastT + 1];
    // `least`: the lowest top the y axis may have (100 for a share in percent).
    const sampled = (title, yLabel, series, missing, least) => {
      parent.append(el('div', { class: 'chart-title' }, title));
      const usable = series.filter(s => s.points && s.points.some(p => p[1]));
      const zero = series.filter(s => s.points && s.points.length && !usable.includes(s)).map(s => s.label);
      if (!usable.length) {
        parent.append(noData(missing));
        return;
      }
      // The y range from every point, not the zoomed window's alone: a line to a point outside the window stays inside.
      const top = Math.max(1, ...usable.flatMap(s => s.points.map(p => p[1])).filter(isNum));
      group.push(chart(parent, Object.assign({}, common, {
        scales: { x: xScale, y: { range: () => [0, Math.max(least || 0, top * 1.1)] } },
        axes: [{ label: 's after the measured phase began' }, { label: yLabel, size: 60, values: tickLabels }],
        series: [{ label: 's' }].concat(usable.map(s => ({ label: s.label, stroke: s.color, width: 2, dash: s.dash,
          spanGaps: true, points: { show: s.points.length < 120 } }))),
        hooks: Object.assign({}, common.hooks, { drawClear: [u => shadeWarmup(u, warmup)] }),
      }), framed(frame, usable.map(s => s.points))));
      if (zero.length) parent.append(el('p', { class: 'chart-note' }, 'Left out, zero throughout: ' + zero.join(', ') + '.'));
    };

    const errors = r.timeline.errors;
    const classes = errors ? Object.keys(errors.perSec) : [];
    sampled('Errors per second, by class', 'errors/s',
      classes.map((c, i) => ({ label: errorLabel(c), color: COLORS[(i + 4) % COLORS.length],
        points: errors.t.map((t, j) => [t, errors.perSec[c][j]]) })),
      errors ? 'No errors in this run.' : 'No errors.csv: this run\'s generator kept no errors per second.');

    const samples = r.samples || {};
    // The JVMs start before the warm-up and are read a little after the end: only the timelines' span is drawn.
    const side = (name, key, scale) => ((samples[name] || {})[key] || [])
      .filter(([t]) => t >= frame[0] && t <= frame[1]).map(([t, v]) => [t, v * (scale || 1)]);
    const noJfr = 'Not in the JFR recordings of this run.';
    sampled('Heap after GC', 'MB', [
      { label: 'target', color: PAUSE_COLORS.target, points: side('target', 'heapAfterGcBytes', 1 / 1048576) },
      { label: 'generator', color: PAUSE_COLORS.generator, points: side('generator', 'heapAfterGcBytes', 1 / 1048576) },
    ], 'No collection in this run, or no JFR recording.');
    sampled('Threads', 'threads', [
      { label: 'target platform', color: PAUSE_COLORS.target, points: side('target', 'platformThreads') },
      { label: 'generator platform', color: PAUSE_COLORS.generator, points: side('generator', 'platformThreads') },
      { label: 'target virtual mounted', color: COLORS[5], dash: [5, 3], points: side('target', 'virtualMounted') },
      { label: 'target virtual queued', color: COLORS[6], dash: [2, 3], points: side('target', 'virtualQueued') },
    ], noJfr);
    // ReportData rescaled JFR's load, a share of the machine, to the CPUs each process was given.
    sampled('CPU, % of the CPUs each process was given', '%', [
      { label: 'target (' + cpusGiven.target + ')', color: PAUSE_COLORS.target, points: side('target', 'cpuPercentOfGiven') },
      { label: 'generator (' + cpusGiven.generator + ')', color: PAUSE_COLORS.generator, points: side('generator', 'cpuPercentOfGiven') },
    ], noJfr, 100);
  }

  // A side's GC pauses of the measured phase (jvm.json's, the JVM table's figure): '4, longest 89.8 ms, total 120 ms'.
  function pausesText(gcPauses) {
    if (!gcPauses) return '–';
    return gcPauses.count + (gcPauses.count > 0 ? ', longest ' + num(gcPauses.maxMs) + ' ms, total ' + num(gcPauses.totalMs) + ' ms' : '');
  }

  // A side's CPU figure, a share of the CPUs it was given: '31.4 %'.
  function cpuText(percent) {
    return isNum(percent) ? num(percent, 1) + ' %' : '–';
  }

  // How many GC pauses the chart draws (the whole run, warm-up and the time after it included) beside the measured
  // phase's, the JVM table's figure itself.
  function pauseCounts(r) {
    return 'GC pauses drawn: ' + ['target', 'generator'].map(side => {
      const all = (r.gc || {})[side];
      if (!all) return side + ' none recorded (no JFR pause timeline)';
      const measured = ((r.jvm || {})[side] || {}).gcPauses;
      return side + ' ' + all.length + ' over the whole run; in the measured phase ' + pausesText(measured) + ' (the JVM table\'s)';
    }).join('; ') + '. A pause shorter than the axis\' foot is a short bar on the axis.';
  }

  // The interval logs hold one histogram a second, written by the generator's once-a-second tick that also feeds its
  // steady-state judge: there is nothing finer to draw.
  function resolutionNote(measuredSec) {
    return measuredSec < 10 ? 'One point a second: the interval logs hold no finer histograms; the percentile chart above ' +
      'has every request of the ' + num(measuredSec) + ' s, and a window selected here recomputes it.' : '';
  }

  // Series sampled at their own times as one uPlot data set over a common x; `frame` makes the x scale
  // span the same seconds as the latency timelines, so a zoom means the same window on every chart.
  function framed(frame, pointLists) {
    const joined = uPlot.join([[frame, frame.map(() => null)]].concat(pointLists.map(points =>
      [points.map(p => p[0]), points.map(p => p[1])])));
    joined.splice(1, 1);
    return joined;
  }

  function errorLabel(errorClass) {
    return errorClass.toLowerCase().replace(/_/g, ' ');
  }

  function shadeWarmup(u, warmup) {
    if (!warmup) return;
    const ctx = u.ctx;
    const x0 = u.valToPos(-warmup, 'x', true);
    const x1 = u.valToPos(0, 'x', true);
    ctx.save();
    ctx.fillStyle = 'rgba(120, 120, 120, 0.12)';
    ctx.fillRect(x0, u.bbox.top, Math.max(0, x1 - x0), u.bbox.height);
    ctx.restore();
  }

  // Each pause: a bar at its start, as wide as it lasted (2 px at least) and as tall as its duration in ms.
  function drawPauses(u, gc, warmup) {
    shadeWarmup(u, warmup);
    const ctx = u.ctx;
    const bottom = u.bbox.top + u.bbox.height;
    ctx.save();
    for (const side of ['target', 'generator']) {
      ctx.fillStyle = PAUSE_COLORS[side];
      for (const [startSec, durationMs] of gc[side] || []) {
        const x0 = u.valToPos(startSec, 'x', true);
        const x1 = u.valToPos(startSec + durationMs / 1000, 'x', true);
        // A pause shorter than the axis' foot still shows, as a bar of MIN_PAUSE_PX on the axis.
        const y = durationMs > u.scales.y.min ? u.valToPos(durationMs, 'y', true) : bottom - MIN_PAUSE_PX;
        if (x1 < u.bbox.left || x0 > u.bbox.left + u.bbox.width) continue;
        const top = Math.min(bottom - MIN_PAUSE_PX, Math.max(u.bbox.top, y));
        ctx.fillRect(x0, top, Math.max(2, x1 - x0), bottom - top);
      }
    }
    ctx.restore();
  }

  // The selected window's percentile curve, from the per-second bucket counts.
  function windowCurve(r, tl, curves, min, max, fullMin, fullMax) {
    const windowIndex = curves.series.findIndex(s => s.label === 'window');
    const whole = min <= fullMin + 0.5 && max >= fullMax - 0.5;
    const counts = new Map();
    let total = 0;
    let windowMax = 0;
    tl.t.forEach((t, i) => {
      if (whole || t + 1 <= min || t >= max) return;
      const pairs = (tl.buckets || [])[i] || [];
      for (let j = 0; j < pairs.length; j += 2) {
        counts.set(pairs[j], (counts.get(pairs[j]) || 0) + pairs[j + 1]);
        total += pairs[j + 1];
      }
      if (tl.max[i] > windowMax) windowMax = tl.max[i];
    });
    const xs = curves.data[0];
    let ys = xs.map(() => null);
    if (total > 0) {
      const buckets = [...counts.keys()].sort((a, b) => a - b);
      ys = xs.map(x => {
        if (x > total) return null;
        const wanted = (1 - 1 / x) * total;
        let seen = 0;
        for (const b of buckets) {
          seen += counts.get(b);
          if (seen >= wanted && seen > 0) return Math.min(BUCKET_MIN_MS * Math.pow(BUCKET_RATIO, b), windowMax);
        }
        return windowMax;
      });
      // The window's maximum, exact from the per-second maxima, at x = its count (as PercentileCurve ends).
      const last = xs.findIndex(x => x >= total);
      if (last >= 0) ys[last] = windowMax;
      charts.windowsDrawn.add(runKey(r));
    }
    if (whole && windowIndex < 0) return;
    const data = curves.data.slice();
    if (windowIndex < 0) {
      curves.addSeries({ label: 'window', stroke: cssColor('--fg'), width: 2, dash: [4, 3], spanGaps: true,
        value: (u, v) => (v == null ? '–' : num(v) + ' ms') });
      data.push(ys);
    } else {
      data[windowIndex] = ys;
    }
    curves.setData(data);
  }

  function jvmTable(r) {
    const jvm = r.jvm || {};
    if (!jvm.target && !jvm.generator) {
      return noData('No JVM figures: the run has no jvm.json (JFR recordings not read).' +
        (jvm.notes && jvm.notes.length ? ' ' + jvm.notes.join(' ') : ''));
    }
    const mb = b => (isNum(b) ? num(b / 1048576) + ' MB' : '–');
    const facts = [
      ['GC', 'GC pause', m => m.gc || '–'],
      ['GC pauses', 'GC pause', m => pausesText(m.gcPauses)],
      ['heap after GC, max', 'heap after GC', m => mb(m.heap && m.heap.usedMaxBytes)],
      ['platform threads, peak', 'platform threads', m => (m.threads && m.threads.platformPeak != null ? m.threads.platformPeak : '–')],
      ['CPU, % of the CPUs given', 'CPU', m => cpuText((m.cpu || {}).measuredPercent)],
      ['CPU, busiest second, % of the CPUs given', 'CPU', m => cpuText((m.cpu || {}).busiestSecondPercent)],
      ['allocation', 'allocation', m => (m.cpu && isNum(m.cpu.allocationMBPerSec) ? num(m.cpu.allocationMBPerSec) + ' MB/s' : '–')],
      ['resident memory, max', 'resident memory', m => mb(m.memory && m.memory.residentMaxBytes)],
    ];
    const table = el('table', {}, el('tr', {}, th('JVM, measured phase', 'measured phase'), th('target'), th('generator')));
    for (const [label, term, f] of facts) {
      table.append(el('tr', {}, th(label, term), ['target', 'generator'].map(s => el('td', {}, jvm[s] ? String(f(jvm[s])) : '–'))));
    }
    const wrap = el('div', {}, table);
    (jvm.notes || []).forEach(n => wrap.append(el('p', { class: 'chart-note' }, n)));
    return wrap;
  }

  // What a k6 or Gatling user looks for in a run: the response-time distribution, requests in flight and connections
  // open over the run, the error table, the bytes on the wire and where a request's time went.
  function requestDetails(r, parent) {
    distributionChart(r, parent);
    trafficChart(r, parent);
    parent.append(errorTable(r), bytesTable(r), timingsTable(r));
  }

  // The measured phase's response times by bucket, from the per-second buckets summed: four of LatencyBuckets' grid
  // to a bar (2^(1/4), 19 % wide), on a log axis of ms.
  function distributionChart(r, parent) {
    parent.append(el('div', { class: 'chart-title' }, 'Response-time distribution, measured phase'));
    const tl = r.timeline && r.timeline.response;
    const counts = new Map();
    ((tl && tl.buckets) || []).forEach(pairs => {
      for (let j = 0; j < pairs.length; j += 2) {
        const bar = Math.floor(pairs[j] / 4);
        counts.set(bar, (counts.get(bar) || 0) + pairs[j + 1]);
      }
    });
    if (!counts.size) {
      parent.append(noData(tl ? 'No request completed in the measured phase: no distribution to draw.'
        : 'No response.hlog: no distribution for this run.'));
      return;
    }
    const bars = [...counts.keys()].sort((a, b) => a - b);
    // Each bar at its bucket's middle on the log axis.
    const ms = bars.map(b => BUCKET_MIN_MS * Math.pow(BUCKET_RATIO, 4 * b + 2));
    chart(parent, {
      height: 220,
      scales: { x: { time: false, distr: 3, log: 10, range: (u, min, max) => [min / 1.5, max * 1.5] },
        y: { range: (u, min, max) => [0, Math.max(max, 1) * 1.1] } },
      axes: [{ label: 'response time, ms (log axis)', values: tickLabels }, { label: 'requests', size: 60, values: tickLabels }],
      series: [{ label: 'ms', value: (u, v) => (v == null ? '–' : num(v) + ' ms') },
        { label: 'requests', stroke: COLORS[0], fill: 'rgba(47, 109, 181, 0.35)', paths: uPlot.paths.bars({ size: [0.9, 40] }),
          points: { show: false } }],
    }, [ms, bars.map(b => counts.get(b))]);
    parent.append(el('p', { class: 'chart-note' }, 'Requests answered in the measured phase, by response time; each bar is ' +
      '19 % wide. ' + num([...counts.values()].reduce((a, b) => a + b, 0)) + ' requests.'));
  }

  // Requests in flight and connections open at the end of each second of the run, warm-up shaded (traffic.csv).
  function trafficChart(r, parent) {
    parent.append(el('div', { class: 'chart-title' }, 'Requests in flight and connections open, per second'));
    const traffic = r.timeline && r.timeline.traffic;
    if (!traffic || !traffic.t.length) {
      parent.append(noData('Requests in flight and connections open were not recorded: this run\'s generator wrote no traffic.csv.'));
      return;
    }
    const connectionsKnown = traffic.connections.some(v => v != null);
    const series = [{ label: 's' }, { label: 'requests in flight', stroke: COLORS[0], width: 2 }];
    const rows = [traffic.t, traffic.inFlight];
    if (connectionsKnown) {
      series.push({ label: 'connections open', stroke: COLORS[2], width: 2, dash: [5, 3] });
      rows.push(traffic.connections);
    }
    chart(parent, {
      height: 220,
      cursor: { sync: { key: 'run-' + runKey(r), setSeries: false } },
      scales: { x: { time: false }, y: { range: (u, min, max) => [0, Math.max(max, 1) * 1.1] } },
      axes: [{ label: 's after the measured phase began' }, { label: 'at the second\'s end', size: 60, values: tickLabels }],
      series,
      hooks: { drawClear: [u => shadeWarmup(u, r.warmupSec || 0)] },
    }, rows);
    parent.append(el('p', { class: 'chart-note' }, connectionsKnown
      ? 'Each point is the count at the end of its second; the warm-up is shaded.'
      : 'Connections open: not measured by this engine (a client library keeps its connections to itself).'));
  }

  // Each kind of failure: class, status of a bad status, the first message, count, first and last second. Nothing when
  // there were none: the errors chart above says so.
  function errorTable(r) {
    const kinds = r.errorKinds;
    const errors = Object.values(r.errors || {}).reduce((a, b) => a + b, 0);
    if (!Array.isArray(kinds)) {
      return errors ? noData('Errors by kind were not recorded: this run\'s generator kept only its counts by class, ' +
        'in the chart above.') : null;
    }
    if (!kinds.length) return null;
    const table = el('table', { class: 'errors' }, el('tr', {}, th('error class'), th('HTTP status'), th('first message'),
      th('count'), th('first second'), th('last second')));
    kinds.forEach(k => table.append(el('tr', {}, el('td', {}, errorLabel(k.errorClass)), el('td', { class: 'num' }, k.status || '–'),
      el('td', {}, k.message || '–'), el('td', { class: 'num' }, num(k.count)), el('td', { class: 'num' }, num(Math.floor(k.firstSec))),
      el('td', { class: 'num' }, num(Math.floor(k.lastSec))))));
    return el('div', {}, el('div', { class: 'chart-title' }, 'Errors by kind, measured phase'), table);
  }

  // The bytes on the wire from the measured phase's start, in all and per second of it.
  function bytesTable(r) {
    const b = r.bytes;
    if (!b) {
      return noData(r.client ? 'Bytes sent and received: not measured by this engine (a client library keeps its sockets to itself).'
        : 'Bytes sent and received were not recorded by this run\'s generator.');
    }
    const size = v => (v >= 1048576 ? num(v / 1048576, 1) + ' MiB' : v >= 1024 ? num(v / 1024, 1) + ' KiB' : num(v) + ' B');
    return el('table', {}, el('tr', {}, th('measured phase'), th('bytes sent'), th('bytes received')),
      el('tr', {}, th('total'), el('td', { class: 'num' }, size(b.sent)), el('td', { class: 'num' }, size(b.received))),
      el('tr', {}, th('per second'), el('td', { class: 'num' }, size(b.sentPerSec) + '/s'),
        el('td', { class: 'num' }, size(b.receivedPerSec) + '/s')));
  }

  // Connect, TLS handshake, waiting and receiving, p50 / p99 / max, where the built-in engine measured them.
  function timingsTable(r) {
    const t = r.timings;
    if (!t) {
      return noData(r.client ? 'Connect, TLS handshake, waiting and receiving: not measured by this engine (a client library\'s).'
        : 'Connect, TLS handshake, waiting and receiving were not recorded by this run\'s generator.');
    }
    const ms = (p, key) => (p && p.count > 0 ? num(p[key]) + ' ms' : '–');
    const table = el('table', {}, el('tr', {}, th('time on the wire'), th('count'), th('p50'), th('p99'), th('max')));
    [['connect', t.connect], ['TLS handshake', t.tlsHandshake], ['waiting', t.waiting], ['receiving', t.receiving]]
      .forEach(([name, p]) => table.append(el('tr', {}, th(name), el('td', { class: 'num' }, num((p && p.count) || 0)),
        el('td', { class: 'num' }, ms(p, 'p50Ms')), el('td', { class: 'num' }, ms(p, 'p99Ms')), el('td', { class: 'num' }, ms(p, 'maxMs')))));
    return el('div', {}, table, el('p', { class: 'chart-note' }, 'Connects and handshakes of every connection the run opened ' +
      '(warm-up included; none in clear for TLS); waiting and receiving of the measured HTTP/1.1 requests answered.'));
  }

  // ---- 5. repetitions, 6. reading guide ------------------------------------------------------

  // Each target × scenario run more than once, on its case's own metric (RepetitionSpreads'): a throughput suite's
  // spread is of its rates, an open loop's of its p99.
  function repetitions(data, main) {
    main.append(el('h2', { id: 'repetitions' }, '5. Repetitions'));
    const spreads = data.spreads || [];
    if (!spreads.length) {
      main.append(noData('Each target × scenario ran once: no spread to show. A suite with repetitions: N fills this section.'));
      return;
    }
    main.append(el('p', { class: 'muted' }, 'Each repetition\'s figure, on its scenario\'s own metric, as a dot on a scale from ' +
      'the group\'s lowest to its highest, and the coefficient of variation (standard deviation / mean).'));
    const table = el('table', {}, el('tr', {}, th('target · scenario'), th('metric', 'measured by'), th('each repetition', 'repetition'),
      th('min'), th('max', 'none'), th('CV', null, 'CV %')));
    for (const s of spreads) {
      const metric = ROW_METRICS.find(m => m.key === s.metric) || { label: s.metric };
      const [lo, hi] = [s.min, s.max];
      const dots = el('div', { class: 'dots' }, s.values.map(x => el('span', {
        style: 'left:' + (4 + 92 * (hi > lo ? (x - lo) / (hi - lo) : 0.5)) + '%', title: metricText(metric, x) })));
      table.append(el('tr', {}, el('td', {}, s.target + ' · ' + s.scenario), el('td', {}, metric.label),
        el('td', { 'data-text': s.values.join(' / ') }, dots), figureCell(lo), figureCell(hi),
        figureCell(s.cvPercent, isNum(s.cvPercent) ? num(s.cvPercent, 1) + ' %' : '–')));
    }
    main.append(sortable(table, 'repetitions'));
  }

  function guide(data, main) {
    main.append(el('h2', { id: 'guide' }, '6. How to read this, environment, raw files'));
    main.append(el('ul', {},
      el('li', {}, 'Response time runs from each request\'s intended start (its place in the schedule), so in an open loop a ' +
        'stall of the server or the generator shows in it (no coordinated omission); service time runs from the actual ' +
        'send; schedule lag is the difference. A closed loop intends each request when the answer before it came, as wrk ' +
        'does: its times, marked ' + FROM_SEND + ', run from the actual send and are not free of coordinated omission.'),
      el('li', {}, 'Percentile charts: the x axis is 1/(1−p) on a log scale, so 90 %, 99 %, 99.9 % are evenly spaced and ' +
        'the tail is as visible as the median. A step in a curve is a cluster of slow requests; compare its height with ' +
        'the longest GC pause of the run.'),
      el('li', {}, 'Each run has one verdict, which says whose figures they are; every verdict, column and term of the page is ' +
        'in the ', el('a', { href: '#glossary' }, 'glossary'), ' below, and a column header that names one explains it on hover.'),
    ));
    main.append(el('p', {}, 'Raw files: ', el('a', { href: rawFile('suite.json') }, 'suite.json'), ', ',
      el('a', { href: rawFile('results.json') }, 'results.json'), ', ', el('a', { href: rawFile('runs/') }, 'runs/'),
      ' (each run\'s *.hlog opens in HdrHistogram\'s HistogramLogAnalyzer; *.jfr in JDK Mission Control).'));
    main.append(el('details', {}, el('summary', {}, 'environment, as recorded in suite.json'),
      el('pre', {}, JSON.stringify({ environment: data.environment, platform: data.platform }, null, 2))));
  }

  function glossary(main, number) {
    main.append(el('h2', { id: 'glossary' }, (number ? number + '. ' : '') + 'Glossary'));
    main.append(el('dl', { class: 'glossary' }, GLOSSARY.map(([term, text]) =>
      [el('dt', { id: 'term-' + term.replace(/[^A-Za-z0-9]+/g, '-') }, term), el('dd', {}, text)])));
  }

  function renderReport(data, main) {
    Object.assign(cpusGiven, data.cpusGiven);
    header(data, main);
    overview(data, main);
    perScenario(data, main);
    perRun(data, main);
    repetitions(data, main);
    guide(data, main);
    glossary(main, 7);
  }

  // ---- compare -------------------------------------------------------------------------------

  function renderCompare(data, main) {
    main.append(el('h1', {}, 'Gauntlet compare · ' + ((data.base.suite || {}).name || '') + ' → ' + ((data.new.suite || {}).name || '')));
    const lost = lostRows(data);
    const failingChanges = (data.rowChanges || []).filter(c => !c.allowedBy);
    // HostDifference's line, first as on the terminal: the hosts differ, or their capacity was not recorded.
    if (data.hosts) main.append(el('div', { class: data.hostsDiffer ? 'banner failed' : 'banner', id: 'hosts' }, data.hosts));
    if (data.gated && data.hostsDiffer) {
      main.append(el('div', { class: 'gate fail', id: 'gate' }, el('span', { class: 'gate-word' }, 'FAIL'),
        'the hosts differ; compare runs made on one host: no threshold of ' + data.thresholds + ' is judged',
        el('ul', {}, failingChanges.map(c => el('li', {}, 'row failed: ' + c.row + ': ' + c.change)))));
    } else if (data.gated) {
      main.append(el('div', { class: 'gate ' + (data.passes ? 'pass' : 'fail'), id: 'gate' },
        el('span', { class: 'gate-word' }, data.passes ? 'PASS' : 'FAIL'),
        data.passes ? ['every threshold of ' + data.thresholds + ' holds' +
          ((data.withinNoise || []).length ? ' beyond the noise' : '') + '; no row failed, went missing or turned from ok' +
          ((data.rowChanges || []).length ? ' but those allowed' : ''),
          el('ul', {}, (data.withinNoise || []).map(w => el('li', {}, 'within the noise, not failed: ' + w)))]
          : [data.failures.length + ' threshold' + (data.failures.length === 1 ? '' : 's') + ' breached, ' +
            failingChanges.length + ' row' + (failingChanges.length === 1 ? '' : 's') + ' failed, missing or turned from ok',
          el('ul', {}, data.failures.map(f => el('li', {}, 'threshold breached: ' + f)),
            failingChanges.map(c => el('li', {}, 'row failed: ' + c.row + ': ' + c.change)))]));
    } else {
      main.append(el('div', { class: 'gate none', id: 'gate' }, el('span', { class: 'gate-word' }, 'NO GATE'),
        'no --fail-on thresholds were given, so nothing passes or fails' +
        (lost.length ? '; but ' + lost.length + ' row' + (lost.length === 1 ? '' : 's') + ' of NEW failed or went missing, listed below' : '')));
    }
    if (data.sameRun) {
      main.append(el('div', { class: 'banner failed' }, el('b', {}, 'the same run twice: '), data.sameRun +
        ' — every change below is zero by construction; pass two different results directories.'));
    }
    const facts = [['BASE', [data.base.dir + ' (' + ((data.base.environment || {}).gitCommit || 'no commit') + ') · ',
        el('a', { href: data.baseReport }, 'its report')]],
      ['NEW', [data.new.dir + ' (' + ((data.new.environment || {}).gitCommit || 'no commit') + ') · ',
        el('a', { href: data.newReport }, 'its report')]],
      ['thresholds', data.thresholds || 'none']];
    if (data.trendPage) facts.push(['trend', el('a', { href: data.trendPage }, 'each figure over every run given')]);
    main.append(el('table', {}, facts.map(([k, v]) => el('tr', {}, el('th', {}, k), el('td', {}, v)))));
    if (lost.length) {
      main.append(el('h2', { id: 'lost' }, 'Failed or missing in NEW'));
      main.append(sortable(lostTable(data, lost), 'failed-or-missing'));
    }
    // Verdicts turned from ok, allowed or not (failed and missing rows are in the table above).
    (data.rowChanges || []).filter(c => c.kind === 'TURNED').forEach(c => main.append(el('div',
      { class: c.allowedBy ? 'banner' : 'banner failed' },
      (c.allowedBy ? 'allowed by ' + c.allowedBy + ': ' : 'row failed: ') + c.row + ': ' + c.change)));
    // Comparison.NotCompared: row, reason, note.
    const notCompared = data.notCompared || [];
    appendBanners(main, notCompared.map(n => el('div', { class: 'banner' }, 'not compared: ' + n.row + ': ' + n.reason,
      n.note ? el('div', { class: 'evidence' }, 'evidence: ' + n.note) : null)),
      notCompared.map(n => n.reason), '', notCompared.length + ' rows not compared: ', null, NOT_COMPARED_SHOWN);

    main.append(el('h2', {}, 'Notable changes'));
    const notable = (data.deltas || []).filter(d => d.notable);
    if (!notable.length) main.append(noData('No figure moved by more than ' + data.notablePercent + ' %.'));
    else main.append(sortable(deltaTable(data, notable, false), 'notable-changes'));

    main.append(el('h2', { id: 'every' }, 'Every target × scenario'));
    if (!(data.deltas || []).length) main.append(noData('BASE and NEW have no target × scenario with figures in common.'));
    main.append(sortable(deltaTable(data, data.deltas || [], true), 'changes'));

    main.append(el('h2', {}, 'Response-time percentiles, BASE against NEW'));
    const pairs = uniq((data.deltas || []).map(d => d.target + '\u0000' + d.scenario));
    for (const p of pairs) {
      const [t, s] = p.split('\u0000');
      const of = side => side.runs.filter(r => r.target === t && r.scenario === s && r.curves.response);
      const sides = [[data.new, 'NEW', COLORS[0], undefined], [data.base, 'BASE', COLORS[1], [7, 5]]];
      // Each side's median curve, over a band from its lowest to its highest repetition at each percentile; BASE drawn
      // last, dashed over NEW, so where the two coincide both stay visible.
      const curves = sides.flatMap(([side, label, color, dash]) => sideCurves(of(side), label, color, dash));
      const repeated = sides.some(([side]) => of(side).length > 1);
      percentileChart(main, t + ' · ' + s, curves, repeated
        ? 'Each side\'s median over its repetitions, the shaded band from its lowest to its highest repetition at each percentile ' +
          '(the noise of repeating the run): NEW solid blue, BASE dashed orange on top of it.'
        : 'One run a side, so no band of noise: NEW solid blue, BASE dashed orange on top of it.');
    }
    glossary(main);
  }

  // A side's runs as curves for percentileChart: one run its curve; several their median and, as a band, their lowest
  // and highest at each percentile level (PercentileCurve's levels are the same for every run, up to each one's count).
  function sideCurves(runs, label, color, dash) {
    if (runs.length < 2) return runs.map(r => ({ label, curve: r.curves.response, color, dash }));
    const joined = uPlot.join(runs.map(r => [r.curves.response.x, r.curves.response.ms]));
    const at = i => joined.slice(1).map(ys => ys[i]).filter(v => v != null && v > 0);
    const xs = joined[0].filter((x, i) => at(i).length);
    const values = xs.map(x => at(joined[0].indexOf(x)));
    const curve = f => ({ x: xs, ms: values.map(f) });
    const band = { color, fill: color + '22' };
    return [
      { label: label + ' median of ' + runs.length, curve: curve(median), color, dash },
      { label: label + ' highest', curve: curve(v => Math.max(...v)), color: color + '55', width: 1, band: Object.assign({ edge: 'high' }, band) },
      { label: label + ' lowest', curve: curve(v => Math.min(...v)), color: color + '55', width: 1, band: Object.assign({ edge: 'low' }, band) },
    ];
  }

  // As RowChange.java names a row: its fork before its repetition when it has one beyond the first.
  function rowName(r) {
    return r.target + ' · ' + r.scenario + (r.fork > 1 ? ' f' + r.fork : '') + ' #' + r.repetition;
  }

  // Rows of BASE that NEW lost (missing, or without figures), and rows only in NEW that failed: {name, base, now, allowedBy}.
  function lostRows(data) {
    const now = new Map(data.new.rows.map(r => [rowName(r), r]));
    const base = new Map(data.base.rows.map(r => [rowName(r), r]));
    const failed = r => !r.verdict || r.verdict === '-';
    const allowed = name => ((data.rowChanges || []).find(c => c.row === name && c.allowedBy) || {}).allowedBy;
    const lost = [];
    base.forEach((b, name) => {
      const n = now.get(name);
      if (!n || failed(n)) lost.push({ name, base: b, now: n, allowedBy: allowed(name) });
    });
    now.forEach((n, name) => {
      if (!base.has(name) && failed(n)) lost.push({ name, base: null, now: n });
    });
    return lost;
  }

  function lostTable(data, lost) {
    const table = el('table', { class: 'lost' }, el('tr', {}, [['row'], ['in NEW', 'NEW'], ['BASE verdict', 'verdict'],
      ['BASE p50 ms', 'p50'], ['BASE p99 ms', 'p99'], ['BASE achieved /s', 'achieved /s'], ['BASE errors', 'errors']]
      .map(([h, term]) => th(h, term))));
    for (const l of lost) {
      const b = l.base || {};
      const what = !l.now ? 'missing' : 'failed' + (l.now.note ? ': ' + l.now.note : '');
      table.append(el('tr', { class: l.allowedBy ? null : 'delta-worse' }, el('td', {}, l.name),
        el('td', {}, what + (l.allowedBy ? ' (allowed by ' + l.allowedBy + ')' : '')),
        el('td', {}, l.base ? b.verdict : 'not in BASE'),
        // A run that completed nothing has no times.
        figureCell(b.requests > 0 ? b.p50Ms : NaN), figureCell(b.requests > 0 ? b.p99Ms : NaN),
        figureCell(b.achievedRatePerSec), figureCell(b.errors, num(b.errors, 0))));
    }
    return table;
  }

  // Each figure's mean over forks on both sides, the range of its runs below it, and the change with its interval over
  // forks (Comparison.Delta): a change within the noise (its interval spans 0) is not coloured, however large, nor is
  // any change between hosts that differ (data.hostsDiffer), which is the machine's as much as the target's. The last
  // column says what the comparison made of its target × scenario (Comparison.TargetScenario): compared, with the
  // caveat of not-steady runs or of runs left out, or not and why. `every` lists each target × scenario of either
  // side in turn, one not compared as one row with each side's runs by verdict in place of its figures.
  function deltaTable(data, deltas, every) {
    const table = el('table', {}, el('tr', {}, ['target', 'scenario', 'metric', 'BASE', 'NEW'].map(h => th(h)),
      th('change', null, 'change %'), th('interval'), th('noise'), th('compared')));
    const targetScenarios = data.targetScenarios || [];
    const of = (d, ts) => d.target === ts.target && d.scenario === ts.scenario;
    const rows = every
      ? targetScenarios.flatMap(ts => ts.compared ? deltas.filter(d => of(d, ts)).map(d => deltaRow(d, ts, data.hostsDiffer))
        : [notComparedRow(ts)])
      : deltas.map(d => deltaRow(d, targetScenarios.find(ts => of(d, ts)), data.hostsDiffer));
    table.append(...rows);
    return table;
  }

  function deltaRow(d, targetScenario, hostsDiffer) {
    const figure = (mean, range) => figureCell(mean, [num(mean), range && range.repetitions > 1
      ? el('span', { class: 'spread' }, num(range.low) + ' – ' + num(range.high) + ' (' + range.repetitions + ' runs)') : null]);
    const pct = v => (v > 0 ? '+' : '') + num(v, 1) + ' %';
    const c = d.change || {};
    const bounded = d.noise !== 'unknown' && c.reference;
    const interval = bounded ? Math.round(c.confidence * 100) + ' % CI ' + pct(100 * c.low / c.reference) + ' – '
      + pct(100 * c.high / c.reference) : 'no interval: one fork a side';
    const cls = d.noise === 'within' || hostsDiffer ? null : d.worse ? 'delta-worse' : d.better ? 'delta-better' : null;
    return el('tr', { class: cls }, el('td', {}, d.target), el('td', {}, d.scenario), el('td', {}, d.metric),
      figure(d.base, d.baseRange), figure(d.now, d.nowRange),
      figureCell(d.percent, isNum(d.percent) ? pct(d.percent) : '–'), el('td', {}, interval),
      d.noise === 'unknown' ? el('td', { 'data-text': '' }, '–') : el('td', {}, d.noise),
      el('td', {}, targetScenario.why ? 'yes: ' + targetScenario.why : 'yes'));
  }

  function notComparedRow(ts) {
    const none = () => el('td', { 'data-text': '' }, '–');
    return el('tr', { class: 'muted' }, el('td', {}, ts.target), el('td', {}, ts.scenario), none(),
      el('td', {}, ts.base), el('td', {}, ts.now), figureCell(NaN, '–'), none(), none(), el('td', {}, 'no: ' + ts.why));
  }

  // ---- start ---------------------------------------------------------------------------------

  // The counts ReportIT reads, once the first drawing is done and again as opened runs draw theirs.
  function markCharts() {
    if (!root.dataset.rendered) return;
    root.dataset.chartsExpected = charts.expected;
    root.dataset.chartsDrawn = charts.drawn;
    root.dataset.windowsDrawn = charts.windowsDrawn.size;
  }

  // report.html#run-... opens that run's section, which draws its charts, and scrolls to it.
  function openLinkedRun() {
    const id = location.hash.startsWith('#run-') && decodeURIComponent(location.hash.slice(1));
    const linked = runSections.filter(s => s.details.id === id);
    openRuns(linked);
    if (linked.length) linked[0].details.scrollIntoView();
  }

  async function start() {
    const main = document.getElementById('page');
    try {
      const data = await window.gauntletPageData();
      filesBase = data.filesBase || '';
      main.replaceChildren();
      if (data.kind === 'compare') renderCompare(data, main);
      else renderReport(data, main);
      openLinkedRun();
      window.addEventListener('hashchange', openLinkedRun);
      // A printed page holds every run, drawn.
      window.addEventListener('beforeprint', () => openRuns(runSections));
      const zoom = /^#window=(-?[\d.]+),(-?[\d.]+)$/.exec(location.hash);
      if (zoom) openRuns(runSections);
      // uPlot draws on the next microtask; wait one frame so every first draw has happened.
      await new Promise(resolve => requestAnimationFrame(() => setTimeout(resolve, 0)));
      if (zoom) {
        zoomable.forEach(u => u.setScale('x', { min: Number(zoom[1]), max: Number(zoom[2]) }));
        await new Promise(resolve => requestAnimationFrame(() => setTimeout(resolve, 0)));
      }
      root.dataset.rendered = 'true';
      markCharts();
    } catch (e) {
      root.dataset.renderError = String(e && e.message || e);
      main.prepend(el('div', { class: 'banner failed' }, 'The page could not be drawn: ' + root.dataset.renderError));
      console.error(e);
    }
  }

  start();
}());
