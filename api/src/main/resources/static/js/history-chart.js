// A layer's pressure over time as an SVG line chart (GET /api/v1/layers/{id}/history), with the
// signals that named the layer marked where they were observed (up for tightening, down for easing,
// larger for a larger magnitude), each a link to its entry in the list under the chart. Every value
// drawn is a number or a date formatted here; text goes into text nodes only, never into markup.
import { svg } from './common.js';

const W = 900; const H = 260; const L = 48; const R = 12; const T = 14; const B = 30;
// The status thresholds of the chain model (docs/chain-model.md): loose <= -1 < balanced < 3 <= tight < 6 <= critical.
const BANDS = [{ at: 3, label: 'tight' }, { at: 6, label: 'critical' }, { at: -1, label: 'loose' }];

/** The y range drawn: the data's, widened to include 0 and the thresholds it comes near. */
export function yRange(values) {
  let lo = Math.min(0, ...values);
  let hi = Math.max(1, ...values);
  for (const b of BANDS) if (b.at > lo - 1 && b.at < hi + 1) { lo = Math.min(lo, b.at); hi = Math.max(hi, b.at); }
  const pad = (hi - lo) * 0.08;
  return [lo - pad, hi + pad];
}

/** The pressure at an instant, read off the points (the last point at or before it; the first before them). */
export function pressureAt(points, t) {
  let v = points.length ? Number(points[0].pressure) : 0;
  for (const p of points) {
    if (Date.parse(p.at) > t) break;
    v = Number(p.pressure);
  }
  return v;
}

/** The id of a mark's entry in the list under the chart. */
export function markId(i) { return `signal-${i}`; }

/**
 * @param history the API answer: { layer, from, to, step, points: [{ at, pressure, status }], signals: [...] }
 * @param name    the layer's name (text)
 * @returns an <svg> element with a title, a description, the line and the marks
 */
export function historyChart(history, name) {
  const pts = history.points || [];
  const marks = history.signals || [];
  const values = pts.map((p) => Number(p.pressure));
  const [lo, hi] = yRange(values);
  const t0 = Date.parse(history.from); const t1 = Math.max(Date.parse(history.to), t0 + 1);
  const x = (t) => L + ((t - t0) / (t1 - t0)) * (W - L - R);
  const y = (v) => T + (1 - (v - lo) / (hi - lo)) * (H - T - B);
  const last = pts[pts.length - 1];
  const min = values.length ? Math.min(...values) : 0; const max = values.length ? Math.max(...values) : 0;
  const tightening = marks.filter((m) => m.direction === 'tightening').length;
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'group', 'aria-labelledby': 'history-title history-desc',
    class: 'history-chart', preserveAspectRatio: 'xMinYMin meet' },
  svg('title', { id: 'history-title' }, `Pressure of ${name} over time`),
  svg('desc', { id: 'history-desc' }, `${pts.length} points from ${history.from.slice(0, 10)} to ${history.to.slice(0, 10)}, one every ${history.step}; `
    + `pressure between ${min.toFixed(2)} and ${max.toFixed(2)}${last ? `, last ${Number(last.pressure).toFixed(2)} (${last.status})` : ''}; `
    + `${marks.length} signal${marks.length === 1 ? '' : 's'} marked (${tightening} tightening, ${marks.length - tightening} easing), listed below the chart.`));
  const grid = svg('g', { class: 'history-grid', 'aria-hidden': 'true' });
  grid.append(svg('line', { x1: L, x2: W - R, y1: y(0), y2: y(0), class: 'zero' }));
  for (const b of BANDS) {
    if (b.at < lo || b.at > hi) continue;
    grid.append(svg('line', { x1: L, x2: W - R, y1: y(b.at), y2: y(b.at), class: `band band-${b.label}` }),
      svg('text', { x: W - R, y: y(b.at) - 3, 'text-anchor': 'end' }, `${b.label} ${b.at}`));
  }
  grid.append(svg('text', { x: L - 4, y: y(hi) + 10, 'text-anchor': 'end' }, hi.toFixed(1)),
    svg('text', { x: L - 4, y: y(lo), 'text-anchor': 'end' }, lo.toFixed(1)));
  // year ticks when the chart spans years, else its two ends
  const y0 = new Date(t0).getUTCFullYear(); const y1 = new Date(t1).getUTCFullYear();
  if (y1 > y0) {
    for (let yr = y0 + 1; yr <= y1; yr++) {
      const tx = x(Date.UTC(yr, 0, 1));
      grid.append(svg('line', { x1: tx, x2: tx, y1: T, y2: H - B, class: 'year' }),
        svg('text', { x: tx + 3, y: H - 8 }, String(yr)));
    }
    grid.append(svg('text', { x: L, y: H - 8 }, history.from.slice(0, 7)));
  } else {
    grid.append(svg('text', { x: L, y: H - 8 }, history.from.slice(0, 10)),
      svg('text', { x: W - R, y: H - 8, 'text-anchor': 'end' }, history.to.slice(0, 10)));
  }
  root.append(grid);
  if (pts.length) {
    const d = pts.map((p, i) => `${i ? 'L' : 'M'} ${x(Date.parse(p.at)).toFixed(1)} ${y(Number(p.pressure)).toFixed(1)}`).join(' ');
    root.append(svg('path', { d, class: 'history-line', fill: 'none' }));
  }
  const layer = svg('g', { class: 'history-marks' });
  marks.forEach((m, i) => {
    const t = Date.parse(m.observedAt);
    if (!(t >= t0 && t <= t1)) return;
    const cx = x(t); const cy = y(pressureAt(pts, t));
    const s = 3 + Number(m.magnitude || 1) * 1.2;
    const up = m.direction === 'tightening';
    const d = up ? `M ${cx} ${cy - s - 2} l ${s} ${s * 1.6} l ${-2 * s} 0 z` : `M ${cx} ${cy + s + 2} l ${s} ${-s * 1.6} l ${-2 * s} 0 z`;
    const label = `${m.observedAt.slice(0, 10)}: ${m.headline} (${m.direction}, magnitude ${m.magnitude}${m.until ? `, holds until ${m.until.slice(0, 10)}` : ''})`;
    layer.append(svg('a', { href: `#${markId(i)}`, class: `mark mark-${up ? 'tightening' : 'easing'}`, 'aria-label': label, 'data-signal': m.id },
      svg('title', {}, label), svg('path', { d })));
  });
  root.append(layer);
  return root;
}
