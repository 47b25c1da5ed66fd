// The pages of a Gauntlet site (SiteWriter.java): the front page and a page per target or client, drawn from the data
// SitePages.java embedded; every figure, interval and sentence is computed there, this script only shows it.
// When drawn, <html> gets data-rendered="true" (data-charts-drawn counts the history charts), or data-render-error.
// Deep links: index.html#study-SUITE, #case-SUITE-CASE, #q=WORDS (the filter of targets and clients);
// targets/NAME.html#series-SUITE-CASE.
(function () {
  'use strict';

  const root = document.documentElement;
  let chartsDrawn = 0;

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v == null) continue;
      if (k === 'class') e.className = v;
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v);
    }
    for (const c of children.flat(Infinity)) {
      if (c != null) e.append(c instanceof Node ? c : String(c));
    }
    return e;
  }

  function num(v) {
    if (v == null || Number.isNaN(Number(v))) return '–';
    v = Number(v);
    if (Math.abs(v) >= 1000) return Math.round(v).toLocaleString('en-US');
    if (Math.abs(v) >= 100) return v.toFixed(0);
    if (Math.abs(v) >= 10) return v.toFixed(1);
    return v.toFixed(2);
  }

  function date(iso) {
    return iso ? iso.slice(0, 16).replace('T', ' ') : '';
  }

  function cssColor(name) {
    return getComputedStyle(root).getPropertyValue(name).trim();
  }



  // ---- front page -----------------------------------------------------------------------------

  // A place of a decision: its entry (linked to its page) and its figure with the interval over forks.
  function placeText(place) {
    const f = place.figure || {};
    const interval = f.samples >= 2 ? ' (' + Math.round(f.confidence * 100) + ' % CI ' + num(f.low) + '–' + num(f.high) +
      ', ' + f.samples + ' forks)' : ' (1 fork: no interval)';
    return [place.page ? el('a', { href: place.page }, place.entry) : place.entry, ' ',
      (place.bound ? place.bound + ' ' : '') + num(f.mean) + interval];
  }

  // A latency-diff's answer: what each entry adds to the baseline's round trip, smallest first.
  function differenceText(d) {
    const m = d.micros || {};
    const interval = Number.isNaN(Number(m.low)) || m.low == null ? ' (no interval)'
      : ' (' + Math.round(m.confidence * 100) + ' % CI ' + signed(m.low) + ' to ' + signed(m.high) + ' µs)';
    return [d.page ? el('a', { href: d.page }, d.entry) : d.entry, ' ', signed(m.difference) + ' µs' + interval];
  }

  function signed(v) {
    return (Number(v) >= 0 ? '+' : '−') + num(Math.abs(Number(v)));
  }

  // The case's answer as its report gives it: over forks the first rank, each with its interval; in one fork the leader,
  // those tied with it, and that one fork decides nothing; in a latency-diff what each adds, least first.
  function best(decision) {
    if (decision.differences && decision.differences.length) {
      const sorted = decision.differences.slice().sort((a, b) => a.micros.difference - b.micros.difference);
      return el('div', { class: 'best' }, 'least added to the baseline: ', differenceText(sorted[0]),
        sorted.length > 1 ? el('div', { class: 'standing' }, 'next: ', differenceText(sorted[1])) : null);
    }
    const places = decision.places || [];
    if (!places.length) {
      const collapsed = (decision.collapsed || []).map(c => c.entry + ' collapsed (target-overloaded in ' + c.forks + ' forks)');
      const references = (decision.references || []).map(r => r.entry + ' is a reference');
      return el('div', { class: 'muted' }, 'no entry ranked: ' + (collapsed.concat(references).join('; ') || 'no run had figures'));
    }
    if (places[0].figure.samples < 2) {
      return el('div', { class: 'best' }, placeText(places[0]),
        (decision.ties || []).map(t => el('div', { class: 'standing' }, 'tied with ', t.entry, ': ', t.why)),
        el('div', { class: 'muted' }, 'one fork: no interval; run with --forks N to decide'));
    }
    const first = places.filter(p => p.rank === 1);
    return el('div', { class: 'best' }, first.map((p, i) => [i ? el('br') : null, placeText(p)]),
      first.length > 1 ? el('div', { class: 'muted' }, 'a shared first rank: no difference detectable between them') : null,
      decision.separation ? el('div', { class: 'standing' }, decision.separation) : null);
  }

  function renderFront(data, main) {
    const studies = data.studies;
    const runs = studies.reduce((n, s) => n + s.runs.length, 0);
    main.append(el('h1', {}, 'Gauntlet · results'));
    // The answer first: each study's best in each case, with its interval, before anything else.
    const answers = el('table', { class: 'answers' }, el('tr', {}, el('th', {}, 'study · case'), el('th', {}, 'measured by'),
      el('th', {}, 'best, with its interval over forks'), el('th', {}, 'latest run')));
    for (const study of studies) {
      for (const d of study.decisions) {
        answers.append(el('tr', { id: 'case-' + study.anchor.slice('study-'.length) + '-' + slug(d.case) },
          el('th', {}, el('a', { href: '#' + study.anchor }, study.study), ' · ', d.case,
            study.seeds.map(seed => el('div', { class: 'seed' }, el('a', { href: seed.page }, seed.title), ': ', seed.counts))),
          el('td', {}, d.measuredBy),
          el('td', {}, best(d)),
          el('td', {}, el('a', { href: study.latest.report }, study.latest.shortCommit), ' ', date(study.latest.startedAt),
            el('div', { class: 'muted machine' }, study.latest.machine))));
      }
    }
    main.append(el('section', { class: 'headline' }, el('div', { class: 'table-wrap' }, answers)));
    main.append(el('p', { class: 'lead' }, runs + ' run' + (runs === 1 ? '' : 's') + ' of ' + studies.length + ' stud' +
      (studies.length === 1 ? 'y' : 'ies') + '; the answers are each study\'s latest run. Built ' + date(data.generatedAt) + '.'));
    if (data.leftOut.length) {
      main.append(el('div', { class: 'banner failed left-out' }, el('b', {}, 'Left out: '), data.leftOut.length +
        ' director' + (data.leftOut.length === 1 ? 'y' : 'ies') + ' given did not read as results.',
        el('ul', {}, data.leftOut.map(line => el('li', {}, line)))));
    }
    renderSeeds(data.seeds, main);
    renderChanges(data.changes, main);
    renderEntries(data.entries, main);
    for (const study of studies) renderStudy(study, main);
  }

  function renderSeeds(seeds, main) {
    main.append(el('h2', { id: 'seeds' }, 'The 2014–2016 studies, decided here'));
    main.append(el('ul', {}, seeds.map(seed => el('li', {}, el('a', { href: seed.page }, seed.title), ' (suite ', seed.suite,
      '): ', seed.counts))));
  }

  function renderChanges(changes, main) {
    main.append(el('h2', { id: 'changes' }, 'Changes beyond the noise'));
    if (!changes.length) {
      main.append(el('p', { class: 'muted' }, 'None: no figure moved beyond the noise of the runs before it.'));
      return;
    }
    const sorted = changes.slice().sort((a, b) => Number(b.worse) - Number(a.worse));
    main.append(el('ul', { class: 'changes' }, sorted.map(c => el('li', { class: c.mark === 'outlier' ? 'outlier' : c.worse ? 'worse' : 'better' },
      el('a', { href: c.page }, c.entry + ' · ' + c.study + ' · ' + c.case), ': ', el('b', {}, c.mark), ' — ', c.sentence))));
  }

  // Targets and clients, filtered by words (name, technology, style, protocol, version) and by selects; the words
  // stay in the URL (#q=...), so a filtered list is a link.
  function renderEntries(entries, main) {
    main.append(el('h2', { id: 'entries' }, 'Targets and clients'));
    const fields = ['technology', 'style', 'protocol', 'version'];
    const input = el('input', { type: 'search', id: 'filter', placeholder: 'filter: jetty, virtual, h2, 12.1 …', size: 40 });
    const selects = {};
    for (const f of fields) {
      const values = [...new Set(entries.flatMap(e => f === 'version' ? e.versions : [e[f]]).filter(v => v))].sort();
      selects[f] = el('select', { 'data-field': f }, el('option', { value: '' }, 'any ' + f), values.map(v => el('option', { value: v }, v)));
    }
    const table = el('table', { class: 'entries' }, el('tr', {}, ['name', 'kind', 'technology', 'style', 'protocol',
      'versions', 'studies'].map(h => el('th', {}, h))));
    const rows = entries.map(e => {
      const row = el('tr', {}, el('td', {}, el('a', { href: e.page }, e.name)), el('td', {}, e.client ? 'client' : 'target'),
        el('td', {}, e.technology || '–'), el('td', {}, e.style || '–'), el('td', {}, e.protocol || '–'),
        el('td', {}, e.versions.join(', ') || 'not recorded'), el('td', {}, e.studies.join(', ')));
      row.dataset.words = [e.name, e.technology, e.style, e.protocol, ...e.versions, e.client ? 'client' : 'target']
        .join(' ').toLowerCase();
      row.entry = e;
      table.append(row);
      return row;
    });
    const count = el('span', { class: 'muted' });
    function apply() {
      const words = input.value.toLowerCase().split(/\s+/).filter(w => w);
      let shown = 0;
      for (const row of rows) {
        const ok = words.every(w => row.dataset.words.includes(w)) && fields.every(f => !selects[f].value ||
          (f === 'version' ? row.entry.versions.includes(selects[f].value) : row.entry[f] === selects[f].value));
        row.hidden = !ok;
        shown += ok ? 1 : 0;
      }
      count.textContent = ' ' + shown + ' of ' + rows.length + ' shown';
    }
    input.addEventListener('input', () => {
      history.replaceState(null, '', input.value ? '#q=' + encodeURIComponent(input.value) : location.pathname);
      apply();
    });
    Object.values(selects).forEach(s => s.addEventListener('change', apply));
    const q = /^#q=(.*)$/.exec(location.hash);
    if (q) input.value = decodeURIComponent(q[1]);
    main.append(el('div', { class: 'controls' }, input, ' ', Object.values(selects), count), el('div', { class: 'table-wrap' }, table));
    apply();
  }

  function renderStudy(study, main) {
    main.append(el('h2', { id: study.anchor }, 'Study: ' + study.study));
    if (study.description) main.append(el('p', { class: 'muted' }, study.description));
    const latest = study.latest;
    main.append(el('p', {}, 'Latest run: commit ', el('code', {}, latest.shortCommit), ', ', date(latest.startedAt), ', on ',
      latest.machine, ' — ', el('a', { href: latest.report }, 'its report')));
    for (const d of study.decisions) {
      const table = el('table', { class: 'ranking' }, el('tr', {}, el('th', {}, 'rank'), el('th', {}, 'entry and figure'),
        el('th', {}, 'standing'), el('th', {}, 'verdicts')));
      for (const p of d.places || []) {
        table.append(el('tr', {}, el('td', { class: 'num' }, p.rank), el('td', {}, placeText(p)), el('td', {}, p.standing || ''),
          el('td', {}, (p.verdicts || []).join(', '))));
      }
      for (const r of d.references || []) {
        table.append(el('tr', { class: 'reference' }, el('td', {}, 'reference'), el('td', {}, placeText(r)), el('td', {}, ''),
          el('td', {}, (r.verdicts || []).join(', '))));
      }
      for (const c of d.collapsed || []) {
        table.append(el('tr', { class: 'collapsed' }, el('td', {}, 'collapsed'), el('td', {}, c.page ? el('a', { href: c.page }, c.entry) : c.entry),
          el('td', {}, 'target-overloaded in ' + (c.forks || 'its forks')), el('td', {}, 'target-overloaded')));
      }
      main.append(el('h3', {}, d.case + ' — ' + d.measuredBy), el('div', { class: 'table-wrap' }, table));
      if (d.differences && d.differences.length) {
        main.append(el('ul', {}, d.differences.map(x => el('li', {}, differenceText(x)))));
      }
    }
    main.append(el('details', {}, el('summary', {}, 'every run of this study (' + study.runs.length + ')'),
      el('ul', {}, study.runs.map(r => el('li', {}, el('a', { href: r.report }, r.shortCommit), ' ', date(r.startedAt), ' · ', r.machine)))));
  }

  // ---- a target's or client's page ------------------------------------------------------------

  function renderEntry(data, main) {
    const a = data.about;
    main.append(el('p', {}, el('a', { href: data.front }, '← every study')));
    main.append(el('h1', {}, a.name));
    main.append(el('p', { class: 'lead' }, [a.client ? 'client' : 'target', a.technology, a.style, a.protocol]
      .filter(x => x).join(' · ') + (a.versions.length ? ' · version ' + a.versions.join(', ') : ' · version not recorded'),
      a.description ? el('br') : null, a.description || ''));
    main.append(el('p', {}, 'Studies: ', a.studies.map((s, i) => [i ? ', ' : '', el('a', { href: '#' + data.series.find(x => x.study === s).anchor }, s)])));
    for (const s of data.series) renderSeries(s, main);
  }

  // A 2014-2016 study's page: each finding as it was said, and what the latest run of its suite decides of it.
  function renderSeed(data, main) {
    main.append(el('p', {}, el('a', { href: data.front }, '← every study')));
    main.append(el('h1', {}, data.title));
    main.append(el('p', { class: 'lead' }, data.original));
    main.append(el('p', {}, data.run ? ['Decided on the latest run of the ', el('code', {}, data.suite), ' suite: commit ',
      el('a', { href: data.run.report }, data.run.shortCommit), ', ', date(data.run.startedAt), ', on ', data.run.machine,
      '. Each finding is one contrast over forks, as ./gauntlet contrast prints it.']
      : ['No run of the ', el('code', {}, data.suite), ' suite is among these results: ./gauntlet run --suite ' + data.suite +
        ' --forks 3 makes one.']));
    main.append(el('table', { class: 'seed-findings' }, el('tr', {}, ['found then', 'case · figure', 'found here', 'so']
      .map(h => el('th', {}, h))), data.findings.map(f => el('tr', { class: 'outcome ' + f.outcome.replace(/ /g, '-') },
      el('td', {}, f.said), el('td', {}, f.case + ' · ' + f.figure), el('td', {}, f.sentence), el('td', {}, f.outcome)))));
  }

  // compare BASE... NEW's trend.html: every figure's history over the runs given, each run's report where it lies.
  function renderTrend(data, main) {
    main.append(el('h1', {}, 'Gauntlet · trend over ' + data.runs.length + ' runs'));
    main.append(el('ol', {}, data.runs.map(r => el('li', {}, el('a', { href: r.report }, r.shortCommit), ' ', r.study, ' ',
      date(r.startedAt)))));
    const marked = data.series.filter(s => s.points.some(p => p.mark));
    main.append(el('p', { class: 'lead' }, marked.length + ' of ' + data.series.length + ' figures with a mark; those first.'));
    marked.concat(data.series.filter(s => !marked.includes(s))).forEach(s => renderSeries(s, main));
  }

  function renderSeries(s, main) {
    const section = el('section', { id: s.anchor, class: 'series' });
    main.append(section);
    const versions = [...new Set(s.points.map(p => p.version).filter(v => v))];
    section.append(el('h2', {}, (s.entry ? s.entry + ' · ' : '') + s.study + ' · ' + s.case +
      (versions.length ? ' (version ' + versions.join(', ') + ')' : '') + ' — ' + s.metricWords + ', ' + (s.higherIsBetter ? 'higher' : 'lower') + ' is better'));
    for (const p of s.points.filter(p => p.mark)) {
      section.append(el('div', { class: 'banner ' + (p.mark === 'outlier' ? 'noisy' : p.worse ? 'failed' : 'ok') + ' change' },
        el('b', {}, p.mark + ': '), p.sentence));
    }
    if (s.points.length > 1) historyChart(s, section);
    const table = el('table', { class: 'history' }, el('tr', {}, ['run', 'started', 'version', s.metricWords + ' (interval over forks)',
      'verdicts', 'change', 'longest GC pause ms', 'heap used MB', 'platform threads', 'CPU % of machine'].map(h => el('th', {}, h))));
    for (const p of s.points) {
      table.append(el('tr', { class: p.mark ? 'marked ' + p.mark.replace(' ', '-') : '' },
        el('td', {}, el('a', { href: p.run.report }, p.run.shortCommit)), el('td', {}, date(p.run.startedAt)),
        el('td', {}, p.version || 'not recorded'), el('td', { class: 'num' }, p.interval),
        el('td', {}, p.verdicts + (!p.judged ? ' (not judged: no fork gave its own figures)'
          : p.leftOut ? ' (judged on ' + p.forks + ' forks, ' + p.leftOut + ' left out)' : '')),
        el('td', {}, p.mark || ''), el('td', { class: 'num' }, num(p.gcPauseMaxMs)),
        el('td', { class: 'num' }, num(p.heapUsedMaxBytes / 1048576)), el('td', { class: 'num' }, num(p.platformThreadsPeak)),
        el('td', { class: 'num' }, num(p.cpuMeanPercentOfMachine))));
    }
    section.append(el('div', { class: 'table-wrap' }, table));
  }

  // The figure over the runs: its mean as points on a line, its interval as a band, a change as a dashed line.
  function historyChart(s, parent) {
    const box = el('div', { class: 'chart' });
    parent.append(box);
    const xs = s.points.map((p, i) => i);
    const fg = cssColor('--fg');
    const grid = cssColor('--grid');
    const nan = v => (v == null || Number.isNaN(Number(v)) ? null : Number(v));
    const marks = s.points.map((p, i) => (p.mark && p.mark !== 'outlier' ? i : -1)).filter(i => i >= 0);
    const opts = {
      width: Math.min(1100, Math.max(400, parent.clientWidth || 900)), height: 260,
      scales: { x: { time: false, range: [-0.5, s.points.length - 0.5] } },
      axes: [
        { stroke: fg, grid: { stroke: grid }, ticks: { stroke: grid }, splits: () => xs,
          values: (u, splits) => splits.map(i => (s.points[i] ? s.points[i].run.shortCommit : '')), label: 'commit, oldest first' },
        { stroke: fg, grid: { stroke: grid }, ticks: { stroke: grid }, label: s.metricWords, size: 70 },
      ],
      series: [{}, { label: s.metricWords, stroke: '#2f6db5', width: 2, points: { size: 7 } },
        { label: 'interval low', stroke: '#2f6db5', width: 1, dash: [4, 3], points: { show: false } },
        { label: 'interval high', stroke: '#2f6db5', width: 1, dash: [4, 3], points: { show: false } }],
      bands: [{ series: [3, 2], fill: 'rgba(47, 109, 181, 0.12)' }],
      hooks: {
        draw: [u => {
          const ctx = u.ctx;
          ctx.save();
          ctx.strokeStyle = '#c62828';
          ctx.setLineDash([6, 4]);
          ctx.lineWidth = 2;
          for (const i of marks) {
            // Between the change's run and the one before it: where the level moved.
            const x = u.valToPos(i - 0.5, 'x', true);
            ctx.beginPath();
            ctx.moveTo(x, u.bbox.top);
            ctx.lineTo(x, u.bbox.top + u.bbox.height);
            ctx.stroke();
          }
          ctx.restore();
          if (!box.dataset.drawn) {
            box.dataset.drawn = 'true';
            chartsDrawn++;
          }
        }],
      },
    };
    box.dataset.changeLines = marks.length;
    box.dataset.points = s.points.length;
    new uPlot(opts, [xs, s.points.map(p => nan(p.mean)), s.points.map(p => nan(p.low)), s.points.map(p => nan(p.high))], box);
  }

  function slug(name) {
    return name.toLowerCase().replace(/[^a-z0-9.-]/g, '_');
  }

  async function start() {
    const main = document.getElementById('page');
    try {
      const data = await window.gauntletPageData();
      main.replaceChildren();
      if (data.kind === 'site-front') renderFront(data, main);
      else if (data.kind === 'site-trend') renderTrend(data, main);
      else if (data.kind === 'site-seed') renderSeed(data, main);
      else renderEntry(data, main);
      main.append(el('p', { class: 'muted footer' }, 'Built by ./gauntlet site ' + date(data.generatedAt) +
        '. Offline: every page is one file, and nothing loads from the network.'));
      await new Promise(resolve => requestAnimationFrame(() => setTimeout(resolve, 0)));
      const target = location.hash && !location.hash.startsWith('#q=') && document.getElementById(decodeURIComponent(location.hash.slice(1)));
      if (target) target.scrollIntoView();
      root.dataset.chartsDrawn = chartsDrawn;
      root.dataset.rendered = 'true';
    } catch (e) {
      root.dataset.renderError = String(e && e.message || e);
      main.prepend(el('div', { class: 'banner failed' }, 'The page could not be drawn: ' + root.dataset.renderError));
      console.error(e);
    }
  }

  start();
})();
