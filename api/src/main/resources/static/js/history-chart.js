// A layer's pressure over time as an SVG line chart (GET /api/v1/layers/{id}/history). Every value
// drawn is a number or a date formatted here; text goes into text nodes only, never into markup.
import { svg } from './common.js';

const W = 640; const H = 220; const L = 48; const R = 12; const T = 14; const B = 30;
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

/**
 * @param history the API answer: { layer, from, to, step, points: [{ at, pressure, status }] }
 * @param name    the layer's name (text)
 * @returns an <svg> element with a title, a description and the line
 */
export function historyChart(history, name) {
  const pts = history.points || [];
  const values = pts.map((p) => Number(p.pressure));
  const [lo, hi] = yRange(values);
  const t0 = Date.parse(history.from); const t1 = Math.max(Date.parse(history.to), t0 + 1);
  const x = (t) => L + ((t - t0) / (t1 - t0)) * (W - L - R);
  const y = (v) => T + (1 - (v - lo) / (hi - lo)) * (H - T - B);
  const last = pts[pts.length - 1];
  const min = values.length ? Math.min(...values) : 0; const max = values.length ? Math.max(...values) : 0;
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-labelledby': 'history-title history-desc',
    class: 'history-chart', preserveAspectRatio: 'xMinYMin meet' },
  svg('title', { id: 'history-title' }, `Pressure of ${name} over time`),
  svg('desc', { id: 'history-desc' }, `${pts.length} points from ${history.from} to ${history.to}, one every ${history.step}; `
    + `pressure between ${min.toFixed(2)} and ${max.toFixed(2)}${last ? `, last ${Number(last.pressure).toFixed(2)} (${last.status})` : ''}.`));
  const grid = svg('g', { class: 'history-grid', 'aria-hidden': 'true' });
  grid.append(svg('line', { x1: L, x2: W - R, y1: y(0), y2: y(0), class: 'zero' }));
  for (const b of BANDS) {
    if (b.at < lo || b.at > hi) continue;
    grid.append(svg('line', { x1: L, x2: W - R, y1: y(b.at), y2: y(b.at), class: `band band-${b.label}` }),
      svg('text', { x: W - R, y: y(b.at) - 3, 'text-anchor': 'end' }, `${b.label} ${b.at}`));
  }
  grid.append(svg('text', { x: L - 4, y: y(hi) + 10, 'text-anchor': 'end' }, hi.toFixed(1)),
    svg('text', { x: L - 4, y: y(lo), 'text-anchor': 'end' }, lo.toFixed(1)),
    svg('text', { x: L, y: H - 8 }, history.from.slice(0, 10)),
    svg('text', { x: W - R, y: H - 8, 'text-anchor': 'end' }, history.to.slice(0, 10)));
  root.append(grid);
  if (pts.length) {
    const d = pts.map((p, i) => `${i ? 'L' : 'M'} ${x(Date.parse(p.at)).toFixed(1)} ${y(Number(p.pressure)).toFixed(1)}`).join(' ');
    root.append(svg('path', { d, class: 'history-line', fill: 'none' }));
  }
  return root;
}
