// The labels of a log axis, apart from the page so a unit test can run them (LogAxisTest, under node):
// GauntletLogAxis.splits(min, max) gives the values to label between min and max, at least three for any span.
(function (exports) {
  'use strict';

  const MIN_LABELS = 3;

  // Decades (with 2 and 5 between them over at most three decades), or, on a range within one decade where a log axis
  // has at most one decade mark, evenly spaced round values: the widest round step that still gives three labels.
  function splits(min, max) {
    if (max / min >= 10) {
      const mantissas = max / min <= 1000 ? [1, 2, 5] : [1];
      const out = [];
      for (let e = Math.floor(Math.log10(min)); Math.pow(10, e) <= max; e++) {
        mantissas.map(m => round6(m * Math.pow(10, e))).filter(v => v >= min && v <= max).forEach(v => out.push(v));
      }
      return out;
    }
    // Starting from a quarter of the span, each smaller round step (5, 2, 1 times a power of ten) until three fit:
    // a step near the span's quarter can fit only two (1.01–2.34 by 0.5 has 1.5 and 2).
    let step = niceStep((max - min) / 4);
    for (;;) {
      const out = multiples(min, max, step);
      if (out.length >= MIN_LABELS) return out;
      step = smallerStep(step);
    }
  }

  function multiples(min, max, step) {
    const out = [];
    for (let k = Math.ceil(min / step - 1e-9); k * step <= max * (1 + 1e-9); k++) out.push(round6(k * step));
    return out;
  }

  // The round step (1, 2 or 5 times a power of ten) nearest to x.
  function niceStep(x) {
    const p = Math.pow(10, Math.floor(Math.log10(x)));
    return [1, 2, 5, 10].map(k => k * p).reduce((best, c) => (Math.abs(Math.log(c / x)) < Math.abs(Math.log(best / x)) ? c : best));
  }

  // The next round step below a round step: 5 → 2 → 1 → 0.5.
  function smallerStep(step) {
    const p = Math.pow(10, Math.floor(Math.log10(step) + 1e-9));
    const mantissa = Math.round(step / p);
    return round6(mantissa === 5 ? 2 * p : mantissa === 2 ? p : p / 2);
  }

  function round6(v) {
    return Number(v.toPrecision(6));
  }

  exports.splits = splits;
})(typeof module === 'object' ? module.exports : (globalThis.GauntletLogAxis = {}));
