// attnscope's attention viewer for notebooks (an anywidget ES module; the
// standalone HTML of attnscope.to_html inlines it and calls render itself).
// The model holds the overview (`info`, `thumbnails`) and the selection
// (`layer`, `head`); a head's weights come by a custom message when selected.

// matplotlib's viridis at 0, 0.1, …, 1, as attnscope's page draws weights (src/draw/colormap.rs).
const VIRIDIS = [
  [68, 1, 84], [72, 36, 117], [65, 68, 135], [53, 95, 141], [42, 120, 142], [33, 145, 140],
  [34, 168, 132], [68, 191, 112], [122, 209, 81], [189, 223, 38], [253, 231, 37],
];
// A key the mask hides, as the page shades it (src/web/canvas/paint.rs).
const HIDDEN = [150, 150, 150];
const MAX_CELL = 36;
const FONT_PX = 12;
const CACHE = 24;

function viridis(t) {
  const x = (Number.isNaN(t) ? 0 : Math.min(Math.max(t, 0), 1)) * (VIRIDIS.length - 1);
  const i = Math.min(Math.floor(x), VIRIDIS.length - 2);
  const f = x - i;
  return VIRIDIS[i].map((a, k) => Math.round(a + (VIRIDIS[i + 1][k] - a) * f));
}

function halfToFloat(bits) {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >> 10) & 0x1f;
  const frac = bits & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

// The float16 nearest x (ties away from zero; only used to find a short decimal that reads back).
function roundHalf(x) {
  const a = Math.abs(x);
  if (a === 0 || !Number.isFinite(a)) return x;
  const ulp = a < 2 ** -14 ? 2 ** -24 : 2 ** (Math.floor(Math.log2(a)) - 10);
  return Math.sign(x) * Math.round(a / ulp) * ulp;
}

// The shortest decimal that reads back as exactly v in the file's dtype: the exact weight, no more digits.
export function formatWeight(v, dtype) {
  const back = dtype === 'F16' ? roundHalf : Math.fround;
  for (let p = 1; p < 17; p++) {
    const s = Number(v.toPrecision(p));
    if (back(s) === v) return String(s);
  }
  return String(v);
}

// Bytes of one T × T head (little-endian F16 or F32) as float32 values, row = query.
export function decodeHead(view, dtype, n) {
  const out = new Float32Array(n * n);
  if (dtype === 'F16') {
    for (let k = 0; k < out.length; k++) out[k] = halfToFloat(view.getUint16(2 * k, true));
  } else {
    for (let k = 0; k < out.length; k++) out[k] = view.getFloat32(4 * k, true);
  }
  return out;
}

// Can query i see key j under this layer's mask? (unknown masks hide nothing)
function visible(mask, i, j) {
  if (mask.type === 'causal') return j <= i;
  if (mask.type === 'sliding_window') return j <= i && i - j < mask.window;
  return true;
}

function maskText(mask) {
  if (mask.type === 'none') return 'no mask';
  if (mask.type === 'causal') return 'causal mask';
  if (mask.type === 'sliding_window') return `sliding window of ${mask.window}`;
  return 'unknown mask';
}

// A token as a label: whitespace made visible, long ones cut.
function label(tok, max = 14) {
  const s = tok.replace(/\n/g, '↵').replace(/\t/g, '⇥').replace(/^ /, '␣');
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

// Binary data as a DataView, whichever form the front end delivers (DataView, typed array, ArrayBuffer).
function dataView(b) {
  if (b instanceof DataView) return b;
  return ArrayBuffer.isView(b) ? new DataView(b.buffer, b.byteOffset, b.byteLength) : new DataView(b);
}

function el_(tag, cls, parent, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

// A canvas sized to css × css pixels, sharp on high-density screens; returns its context.
function sized(canvas, w, h) {
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.max(1, Math.round(w * dpr));
  canvas.height = Math.max(1, Math.round(h * dpr));
  canvas.style.width = `${w}px`;
  canvas.style.height = `${h}px`;
  const ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return ctx;
}

function render({ model, el }) {
  const info = model.get('info');
  const L = info.n_layers;
  const H = info.n_heads;
  const T = info.tokens.length;
  const masks = info.masks;
  const cache = new Map(); // "l/h" -> {w: Float32Array, dtype}
  const pending = new Set(); // "l/h" asked for, not yet answered
  let hover = null;

  const root = el_('div', 'attnscope-widget', el);
  const header = el_('div', 'as-header', root);
  const title = el_('span', 'as-title', header);
  const controls = el_('span', 'as-controls', header);
  const layerLabel = el_('label', '', controls, 'layer ');
  const layerSelect = el_('select', 'as-layer', layerLabel);
  const headLabel = el_('label', '', controls, 'head ');
  const headSelect = el_('select', 'as-head', headLabel);
  const save = el_('button', 'as-save', controls, 'Save PNG');
  for (let l = 0; l < L; l++) el_('option', '', layerSelect, String(l)).value = String(l);
  for (let h = 0; h < H; h++) el_('option', '', headSelect, String(h)).value = String(h);
  const message = el_('div', 'as-message', root);
  const panels = el_('div', 'as-panels', root);
  const mapPanel = el_('div', 'as-map', panels);
  const readout = el_('div', 'as-readout', mapPanel, 'Hover a cell: query → key and its weight.');
  const heatmap = el_('canvas', 'as-heatmap', mapPanel);
  const overviewPanel = el_('div', 'as-overview-panel', panels);
  el_('div', 'as-caption', overviewPanel, 'Every layer × head (click one)');
  const overview = el_('canvas', 'as-overview', overviewPanel);
  heatmap.setAttribute('role', 'img');
  overview.setAttribute('role', 'img');
  overview.setAttribute('aria-label', `Every head of the ${L} layers, pooled; click one to show it`);

  const current = () => [model.get('layer'), model.get('head')];

  function titleText() {
    const [l] = current();
    const perLayer = masks.some((m) => JSON.stringify(m) !== JSON.stringify(masks[0]));
    const mask = perLayer ? `layer ${l}: ${maskText(masks[l])}` : maskText(masks[0]);
    return `${info.model} · ${T} token${T === 1 ? '' : 's'} · ${L} layer${L === 1 ? '' : 's'} × ${H} head${H === 1 ? '' : 's'} · ${mask}`;
  }

  // Both traits set before one update (each set alone would fire a change and a request).
  let selecting = false;
  function select(l, h) {
    selecting = true;
    model.set('layer', l);
    model.set('head', h);
    selecting = false;
    model.save_changes();
    update();
  }
  const onChange = () => selecting || update();

  function update() {
    const [l, h] = current();
    layerSelect.value = String(l);
    headSelect.value = String(h);
    title.textContent = titleText();
    root.dataset.layer = String(l);
    root.dataset.head = String(h);
    drawOverview();
    const key = `${l}/${h}`;
    if (cache.has(key)) {
      drawHeatmap();
    } else if (!pending.has(key)) {
      pending.add(key);
      root.dataset.state = 'loading';
      model.send({ type: 'head', layer: l, head: h });
    }
  }

  function onMessage(msg, buffers) {
    pending.delete(`${msg.layer}/${msg.head}`);
    if (msg.type === 'error') {
      message.textContent = msg.message;
      root.dataset.state = 'error';
      return;
    }
    if (msg.type !== 'head' || !buffers || !buffers.length) return;
    const view = dataView(buffers[0]);
    cache.set(`${msg.layer}/${msg.head}`, { w: decodeHead(view, msg.dtype, T), dtype: msg.dtype });
    while (cache.size > CACHE) cache.delete(cache.keys().next().value);
    message.textContent = '';
    const [l, h] = current();
    if (msg.layer === l && msg.head === h) drawHeatmap();
  }

  // The height a figure may take: most of the window, so a head or the overview is seen whole.
  const roomHeight = () => Math.max(260, Math.floor(window.innerHeight * 0.85));

  // A head as an image of at most `room` × `room` pixels (kept with the head, so hovering only
  // recomposes): one pixel a cell, or, when T is larger, the mean of the visible cells each pixel covers.
  function headImage(entry, mask, room) {
    const r = Math.max(1, Math.min(T, room));
    if (entry.image && entry.image.width === r) return entry.image;
    const sum = new Float32Array(r * r);
    const seen = new Uint32Array(r * r);
    for (let i = 0; i < T; i++) {
      const p = Math.floor((i * r) / T);
      for (let j = 0; j < T; j++) {
        if (!visible(mask, i, j)) continue;
        const k = p * r + Math.floor((j * r) / T);
        sum[k] += entry.w[i * T + j];
        seen[k] += 1;
      }
    }
    const img = new ImageData(r, r);
    for (let k = 0; k < r * r; k++) {
      const rgb = seen[k] ? viridis(sum[k] / seen[k]) : HIDDEN;
      img.data[4 * k] = rgb[0];
      img.data[4 * k + 1] = rgb[1];
      img.data[4 * k + 2] = rgb[2];
      img.data[4 * k + 3] = 255;
    }
    const canvas = document.createElement('canvas');
    canvas.width = r;
    canvas.height = r;
    canvas.getContext('2d').putImageData(img, 0, 0);
    entry.image = canvas;
    return canvas;
  }

  // The heatmap: queries down, keys across, every k-th token labelled when cells are small.
  let geometry = null;
  function drawHeatmap() {
    const [l, h] = current();
    const entry = cache.get(`${l}/${h}`);
    if (!entry) return;
    const width = Math.max(120, mapPanel.clientWidth);
    const probe = heatmap.getContext('2d');
    probe.font = `${FONT_PX}px sans-serif`;
    const longest = info.tokens.reduce((m, t) => Math.max(m, probe.measureText(label(t)).width), 0);
    const margin = Math.min(Math.ceil(longest) + 8, Math.max(40, Math.floor(width * 0.28)));
    const plot = Math.max(16, Math.min(T * MAX_CELL, width - margin - 4, roomHeight() - margin));
    const cell = plot / T;
    const every = Math.max(1, Math.ceil((FONT_PX + 2) / cell));
    geometry = { left: margin, top: margin, cell, plot };
    heatmap.setAttribute('aria-label', `Attention weights of layer ${l}, head ${h}: queries down, keys across`);
    Object.assign(heatmap.dataset, { left: margin, top: margin, cell, plot, layer: l, head: h });
    const ctx = sized(heatmap, margin + plot + 4, margin + plot + 4);

    const mask = masks[l];
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(headImage(entry, mask, Math.ceil(plot * (window.devicePixelRatio || 1))), margin, margin, plot, plot);
    if (cell >= 10) {
      // Hatch hidden cells so they read as "hidden", not as a colour.
      ctx.strokeStyle = 'rgb(205, 205, 205)';
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (let i = 0; i < T; i++) {
        for (let j = 0; j < T; j++) {
          if (visible(mask, i, j)) continue;
          const x = margin + j * cell;
          const y = margin + i * cell;
          ctx.moveTo(x + 2, y + cell - 2);
          ctx.lineTo(x + cell - 2, y + 2);
        }
      }
      ctx.stroke();
    }
    ctx.fillStyle = getComputedStyle(root).color || '#222';
    ctx.font = `${FONT_PX}px sans-serif`;
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'right';
    for (let i = 0; i < T; i += every) ctx.fillText(label(info.tokens[i]), margin - 4, margin + (i + 0.5) * cell, margin - 6);
    ctx.save();
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = 'left';
    for (let j = 0; j < T; j += every) ctx.fillText(label(info.tokens[j]), -margin + 4, margin + (j + 0.5) * cell, margin - 6);
    ctx.restore();
    if (hover && cell >= 3) {
      ctx.strokeStyle = '#ff3d7f';
      ctx.lineWidth = 2;
      ctx.strokeRect(margin + hover[1] * cell, margin + hover[0] * cell, cell, cell);
    }
    root.dataset.state = 'ready';
  }

  function showHover(e) {
    const [l, h] = current();
    const entry = cache.get(`${l}/${h}`);
    if (!entry || !geometry) return;
    const r = heatmap.getBoundingClientRect();
    const i = Math.floor((e.clientY - r.top - geometry.top) / geometry.cell);
    const j = Math.floor((e.clientX - r.left - geometry.left) / geometry.cell);
    if (i < 0 || j < 0 || i >= T || j >= T) {
      if (hover) {
        hover = null;
        drawHeatmap();
      }
      return;
    }
    hover = [i, j];
    const q = JSON.stringify(info.tokens[i]);
    const k = JSON.stringify(info.tokens[j]);
    const w = formatWeight(entry.w[i * T + j], entry.dtype);
    const hidden = visible(masks[l], i, j) ? '' : ` (hidden by the ${maskText(masks[l])})`;
    readout.textContent = `query ${i} ${q} → key ${j} ${k}: ${w}${hidden}`;
    drawHeatmap();
  }

  // The overview: one thumbnail per layer × head (the trace's pooled levels, 0–65535 for weights 0–1).
  const S = info.thumbnail_size;
  let tiles = null;
  function overviewTiles() {
    if (tiles) return tiles;
    const dv = dataView(model.get('thumbnails'));
    const img = new ImageData(H * S, L * S);
    for (let l = 0; l < L; l++) {
      for (let h = 0; h < H; h++) {
        for (let p = 0; p < S; p++) {
          for (let q = 0; q < S; q++) {
            const level = dv.getUint16(2 * (((l * H + h) * S + p) * S + q), true);
            const rgb = viridis(level / 65535);
            img.data.set([rgb[0], rgb[1], rgb[2], 255], 4 * ((l * S + p) * H * S + h * S + q));
          }
        }
      }
    }
    tiles = document.createElement('canvas');
    tiles.width = H * S;
    tiles.height = L * S;
    tiles.getContext('2d').putImageData(img, 0, 0);
    return tiles;
  }

  let grid = null;
  function drawOverview() {
    const width = Math.max(80, overviewPanel.clientWidth);
    const left = 30;
    const top = 16;
    const step = Math.max(6, Math.min(44, Math.floor((width - left - 2) / H), Math.floor((roomHeight() - top) / L)));
    const tile = step > 10 ? step - 2 : step - 1;
    grid = { left, top, step };
    Object.assign(overview.dataset, { left, top, step });
    const ctx = sized(overview, left + H * step, top + L * step);
    ctx.imageSmoothingEnabled = false;
    const src = overviewTiles();
    for (let l = 0; l < L; l++) {
      for (let h = 0; h < H; h++) ctx.drawImage(src, h * S, l * S, S, S, left + h * step, top + l * step, tile, tile);
    }
    ctx.fillStyle = getComputedStyle(root).color || '#222';
    ctx.font = '10px sans-serif';
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'right';
    const every = Math.max(1, Math.ceil(12 / step));
    for (let l = 0; l < L; l += every) ctx.fillText(`L${l}`, left - 3, top + (l + 0.5) * step);
    ctx.textAlign = 'center';
    const everyHead = Math.max(1, Math.ceil(22 / step));
    for (let h = 0; h < H; h += everyHead) ctx.fillText(`H${h}`, left + (h + 0.5) * step, top / 2);
    const [sl, sh] = current();
    ctx.strokeStyle = '#ff3d7f';
    ctx.lineWidth = 2;
    ctx.strokeRect(left + sh * step - 1, top + sl * step - 1, tile + 2, tile + 2);
  }

  function onOverviewClick(e) {
    if (!grid) return;
    const r = overview.getBoundingClientRect();
    const h = Math.floor((e.clientX - r.left - grid.left) / grid.step);
    const l = Math.floor((e.clientY - r.top - grid.top) / grid.step);
    if (l >= 0 && l < L && h >= 0 && h < H) select(l, h);
  }

  function savePng() {
    const [l, h] = current();
    heatmap.toBlob((blob) => {
      if (!blob) return;
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = `attnscope-${info.model.replace(/[^\w.-]+/g, '_')}-layer${l}-head${h}.png`;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    }, 'image/png');
  }

  const onLayer = () => select(Number(layerSelect.value), Number(headSelect.value));
  layerSelect.addEventListener('change', onLayer);
  headSelect.addEventListener('change', onLayer);
  save.addEventListener('click', savePng);
  heatmap.addEventListener('mousemove', showHover);
  heatmap.addEventListener('mouseleave', () => {
    hover = null;
    drawHeatmap();
  });
  overview.addEventListener('click', onOverviewClick);
  model.on('msg:custom', onMessage);
  model.on('change:layer', onChange);
  model.on('change:head', onChange);

  // Redrawn to the output area's width, never wider, whenever it changes.
  let frame = 0;
  let lastWidth = -1;
  const observer = new ResizeObserver(() => {
    if (root.clientWidth === lastWidth) return;
    lastWidth = root.clientWidth;
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => {
      drawOverview();
      drawHeatmap();
    });
  });
  observer.observe(root);
  update();

  return () => {
    observer.disconnect();
    model.off('msg:custom', onMessage);
    model.off('change:layer', onChange);
    model.off('change:head', onChange);
  };
}

export default { render };
