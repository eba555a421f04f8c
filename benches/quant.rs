//! Products with a quantized 896 × 4864 matrix (Qwen2.5 0.5B's ffn_down) in
//! every format, for one token (appending to the key/value cache) and 16
//! (a typed sentence), beside the same product on f32 weights and the
//! product that first dequantizes the whole matrix to f32. Throughput is in
//! weights, so formats compare per weight; `docs/performance.md` keeps the
//! figures.

use attnscope::kernels::quant::{Input, QMatrix, QType};
use attnscope::kernels::testing::quant_blocks;
use attnscope::testing::matrix;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;

const ROWS: usize = 896;
const COLS: usize = 4864;

const FORMATS: [QType; 7] =
    [QType::Q4_1, QType::Q4_0, QType::Q5_0, QType::Q8_0, QType::Q4K, QType::Q5K, QType::Q6K];

fn products(c: &mut Criterion) {
    let mut group = c.benchmark_group("896×4864");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2));
    group.throughput(Throughput::Elements((ROWS * COLS) as u64));
    let f32_bytes =
        |w: &QMatrix| w.dequantize().data.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>();
    let first = QMatrix::new(ROWS, COLS, FORMATS[0], quant_blocks(FORMATS[0], ROWS * COLS / 32, 1))
        .unwrap();
    let plain = QMatrix::new(ROWS, COLS, QType::F32, f32_bytes(&first)).unwrap();
    for tokens in [1, 16] {
        let x = matrix(tokens, COLS, 2);
        for qtype in FORMATS {
            let w = QMatrix::new(
                ROWS,
                COLS,
                qtype,
                quant_blocks(qtype, ROWS * COLS / qtype.block_size().0, 1),
            )
            .unwrap();
            group.bench_function(BenchmarkId::new(qtype.name(), tokens), |b| {
                b.iter(|| w.forward_input(&Input::new(black_box(&x)), 0..ROWS))
            });
            if tokens == 16 {
                let id = BenchmarkId::new(
                    format!("{} dequantized, then f32 product", qtype.name()),
                    tokens,
                );
                group.bench_function(id, |b| b.iter(|| black_box(&x).matmul_t(&w.dequantize())));
            }
        }
        group.bench_function(BenchmarkId::new("F32", tokens), |b| {
            b.iter(|| plain.forward_input(&Input::new(black_box(&x)), 0..ROWS))
        });
    }
    group.finish();
}

criterion_group!(benches, products);
criterion_main!(benches);
