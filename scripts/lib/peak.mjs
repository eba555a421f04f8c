// This CPU's wasm f32 multiply-add peak, timed in the page's own Chromium:
// the ceiling every figure of the benchmarks is stated against (the
// roofline table, docs/performance.md).

// A wasm module whose `peak(n)` runs n rounds of twelve independent
// f32x4.relaxed_madd chains (acc = x·y + acc): as many fused multiply-adds
// per second as one core gives wasm's 128-bit SIMD, which bounds every
// exact f32 product in the browser.
export function peakModule() {
  const leb = (n) => { const out = []; do { let b = n & 0x7f; n >>>= 7; if (n) b |= 0x80; out.push(b); } while (n); return out; };
  const section = (id, bytes) => [id, ...leb(bytes.length), ...bytes];
  const f32x4 = (v) => { const b = new Uint8Array(new Float32Array([v, v, v, v]).buffer); return [0xfd, 0x0c, ...b]; };
  const CHAINS = 12, X = CHAINS + 1, Y = CHAINS + 2; // locals: 0 the count, 1..12 the sums, then x and y
  const body = [0x01, CHAINS + 2, 0x7b, ...f32x4(1.0000001), 0x21, X, ...f32x4(0.9999999), 0x21, Y, 0x03, 0x40];
  for (let k = 1; k <= CHAINS; k++) body.push(0x20, X, 0x20, Y, 0x20, k, 0xfd, 0x85, 0x02, 0x21, k); // f32x4.relaxed_madd
  body.push(0x20, 0, 0x41, 1, 0x6b, 0x22, 0, 0x0d, 0, 0x0b, 0x20, 1); // n -= 1, loop while n ≠ 0
  for (let k = 2; k <= CHAINS; k++) body.push(0x20, k, 0xfd, 0xe4, 0x01); // f32x4.add
  body.push(0xfd, 0x1f, 0, 0x0b); // f32x4.extract_lane 0
  const name = [...'peak'].map((c) => c.charCodeAt(0));
  return [
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 1, 0x7f, 1, 0x7d]), // (i32) -> f32
    ...section(3, [1, 0]),
    ...section(7, [1, name.length, ...name, 0, 0]),
    ...section(10, [1, ...leb(body.length), ...body]),
  ];
}

// The peak on one core and on two at once (two workers, each running the
// module; their multiply-adds over the slower one's time), in billions of
// multiply-adds a second, the best of `tries`, on an open `page`. Each worker
// first calls the loop until V8 has compiled it with its optimizing tier: a
// single call runs in the baseline tier (Liftoff), about half as fast.
export async function measurePeak(page, tries = 5) {
  return page.evaluate(async ({ bytes, tries }) => {
    const n = 2e7;
    const source = `let instance;
    onmessage = async (e) => {
      if (e.data === 'go') {
        let best = Infinity;
        for (let i = 0; i < ${tries}; i++) {
          const t0 = performance.now();
          instance.exports.peak(${n});
          best = Math.min(best, performance.now() - t0);
        }
        postMessage(best);
        return;
      }
      ({ instance } = await WebAssembly.instantiate(new Uint8Array(e.data)));
      const until = performance.now() + 300;
      while (performance.now() < until) {
        instance.exports.peak(1e5);
        await new Promise((r) => setTimeout(r, 0));
      }
      postMessage('ready');
    };`;
    const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    const reply = (w) => new Promise((done) => { w.onmessage = (e) => done(e.data); });
    const run = async (count) => {
      const workers = Array.from({ length: count }, () => new Worker(url));
      await Promise.all(workers.map((w) => { const r = reply(w); w.postMessage(bytes); return r; }));
      const times = await Promise.all(workers.map((w) => { const r = reply(w); w.postMessage('go'); return r; }));
      workers.forEach((w) => w.terminate());
      return (count * n * 12 * 4) / Math.max(...times) / 1e6;
    };
    const one = await run(1);
    const two = await run(2);
    URL.revokeObjectURL(url);
    return { one, two };
  }, { bytes: peakModule(), tries });
}

// Multiply-adds of a forward, from a model's shape: every layer's weight
// products for `tokens` new tokens, and attention's Q Kᵀ and A V of those
// tokens' queries over `keys` keys (all of them for an encoder, the
// triangle for a decoder's run from the start, one row each for a token
// appended to a cache), plus the output head for the last token if `vocab`.
export function forwardMacs({ hidden, intermediate, layers, heads, kvHeads = heads, headDim, gated = false, vocab = 0 }, { tokens, keys = tokens, causal = false, appended = false }) {
  const q = hidden * heads * headDim, kv = 2 * hidden * kvHeads * headDim, o = heads * headDim * hidden;
  const ffn = (gated ? 3 : 2) * hidden * intermediate;
  const weights = tokens * layers * (q + kv + o + ffn);
  let pairs; // query-key pairs whose product and weighted value are computed
  if (appended) pairs = tokens * keys;
  else if (causal) pairs = (tokens * (tokens + 1)) / 2;
  else pairs = tokens * keys;
  const attention = layers * heads * 2 * headDim * pairs;
  return { weights, attention, total: weights + attention + vocab * hidden };
}
