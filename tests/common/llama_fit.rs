//! Leave-one-source-out for llama.cpp single-stream decode: the regression behind the defaults in
//! `src/presets/engines.rs` (tests/fit.rs), refitted on every source but the one scored.
//!
//! Model, per row: `t = W/(η_bw·BW) + KV/(η_kv·BW) + o·layers·r + h·boundaries`, with η_bw and o per hardware
//! kind, η_kv per family (CUDA kinds share the attention kernels; Metal has its own), h the layer-split hand-off,
//! and r the software era (1 for 2024 builds, a fitted factor for current builds; M1/M2 keep 1, as the model
//! does). Weighted least squares on relative error (1/t² weights); r scanned for the smallest weighted residual.
//! A kind with too few rows (fewer than six, or a single model) takes the pooled fit of its family; a family
//! without rows takes the unfitted prior (0.85 of spec bandwidth for weights, 0.5 for the KV cache, 100 µs per
//! layer), which also enters every fit as one pseudo-row per coefficient (a parameter the pool cannot tell stays
//! near it instead of running off: without XiongjieDai's long contexts, η_kv went to 0.03). An era absent from the
//! pool cannot be told apart: r is 1 and the overhead fitted is the era the pool has.
//!
//! Pool: every llama.cpp decode row on CUDA or Metal with presets, from tests/data/single_stream.csv (one source:
//! XiongjieDai's tables, llama-bench and the older `main` table), single_stream_new.csv, single_stream_added.csv
//! and single_stream_external.csv (one source per repository). Whole-request rates (llmfit: output ÷ wall time) are
//! scored, never fitted on.
#![allow(dead_code)]

use super::*;
use tps_planner::model::hardware::HardwareKind;

/// Solves the normal equations `A·x = b` given as an augmented n×(n+1) matrix (Gaussian elimination with
/// partial pivoting); `None` when singular.
pub fn solve(mut a: Vec<Vec<f64>>) -> Option<Vec<f64>> {
    let n = a.len();
    for col in 0..n {
        let piv = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        a.swap(col, piv);
        if a[col][col].abs() < 1e-300 {
            return None;
        }
        let pivot = a[col].clone();
        for (row, r) in a.iter_mut().enumerate() {
            if row != col {
                let f = r[col] / pivot[col];
                for (x, p) in r.iter_mut().zip(&pivot).skip(col) {
                    *x -= f * p;
                }
            }
        }
    }
    Some((0..n).map(|i| a[i][n] / a[i][i]).collect())
}

/// One scoreable single-stream decode row.
#[derive(Clone)]
pub struct SsRow {
    pub id: String,
    /// The repository (or the data set's author) the row comes from.
    pub source: String,
    pub scenario: Scenario,
    pub measured: f64,
    pub gen: f64,
    pub start: f64,
    /// Pure decode (llama-bench tgN, `main`'s eval rate): may be fitted on.
    pub fit: bool,
    kind: HardwareKind,
    apple: bool,
    /// The era factor applies (a current build, and not an M1/M2: see `engines::llama_cpp_build_overhead_factor`).
    current: bool,
    layers: f64,
    x_w: f64,
    x_kv: f64,
    hops: f64,
}

impl SsRow {
    fn new(id: &str, source: String, scenario: Scenario, measured: f64, gen: f64, start: f64, fit: bool) -> Option<SsRow> {
        let d = resolve(&scenario).deployment;
        if !d.fits() {
            return None;
        }
        let hw = &d.hardware;
        let bw = hw.memory_bandwidth_gbps * 1e9;
        let apple = hw.kind == HardwareKind::AppleSilicon;
        let version = scenario.engine.version.as_deref();
        // The rows the model gives an era factor (current builds; not M1/M2).
        let current = presets::engines::llama_cpp_build_overhead_factor(hw.kind, hw.architecture, version) < 1.0;
        let split = hw.devices > 1 && hw.parallelism == tps_planner::model::hardware::Parallelism::LayerSplit;
        Some(SsRow {
            id: id.into(),
            source,
            measured,
            gen,
            start,
            fit,
            kind: hw.kind,
            apple,
            current,
            layers: f64::from(d.model.layers),
            x_w: d.weight_bytes_read(1.0) / bw,
            x_kv: d.kv_bytes(start + gen / 2.0) / bw,
            hops: if split { f64::from(hw.devices - 1) } else { 0.0 },
            scenario,
        })
    }

    pub fn kind(&self) -> HardwareKind {
        self.kind
    }

    /// Decode tok/s the model predicts for this row with `fit`'s efficiencies (the defaults when `None`).
    pub fn predict(&self, fit: Option<&LlamaFit>) -> f64 {
        let mut s = self.scenario.clone();
        if let Some(f) = fit {
            let (eta_bw, o_us) = f.kind_params(self.kind, self.apple);
            s.engine.bandwidth_efficiency = Some(eta_bw);
            s.engine.kv_bandwidth_efficiency = Some(if self.apple { f.eta_kv_apple } else { f.eta_kv_cuda }.clamp(0.05, 1.0));
            let r = if self.current {
                if self.apple {
                    f.era_apple
                } else {
                    f.era_gpu
                }
            } else {
                1.0
            };
            // The model adds its own hand-off (`LAYER_SPLIT_HOP_S`) per device boundary: replace it by the fit's.
            let hop = (f.hop_ms - tps_planner::model::roofline::LAYER_SPLIT_HOP_S * 1e3) * self.hops;
            s.engine.step_overhead_ms = Some((o_us * self.layers * r / 1e3 + hop).max(0.0));
        }
        1.0 / resolve(&s).deployment.mean_decode_step(1.0, self.start, self.gen)
    }
}

/// Every scoreable llama.cpp single-stream decode row on CUDA or Metal with device and model presets.
pub fn single_stream_pool() -> Vec<SsRow> {
    let mut out = Vec::new();
    for row in read_csv("tests/data/single_stream.csv") {
        let (Some(m), gen) = (num(&row, "decode_tok_s"), num(&row, "gen_len").unwrap_or(128.0)) else { continue };
        let start = num(&row, "context_depth").unwrap_or(0.0) + num(&row, "prompt_len").unwrap_or(0.0);
        let s = row_scenario(&row, "llama.cpp");
        // The 2023 `main` table (row splits among them) is scored, not fitted on, as in tests/fit.rs.
        let fit = row["engine"].contains("llama-bench");
        out.extend(SsRow::new(&row["id"], "XiongjieDai/GPU-Benchmarks-on-LLM-Inference".into(), s, m, gen, start, fit));
    }
    for file in ["tests/data/single_stream_new.csv", "tests/data/single_stream_added.csv"] {
        for row in read_csv(file) {
            // Rows their source or collector flags (a model larger than the Mac's GPU working set) are left out.
            if row["notes"].contains("CAUTION") {
                continue;
            }
            let Some(s) = llama_cpp_row(&row) else { continue };
            let backend = row["backend"].to_ascii_lowercase();
            let (Some(m), gen) = (num(&row, "decode_tok_s"), num(&row, "gen_len").unwrap_or(128.0)) else { continue };
            if !(backend.is_empty() || backend.starts_with("cuda") || backend.starts_with("metal")) {
                continue;
            }
            let start = num(&row, "context_depth").unwrap_or(0.0);
            out.extend(SsRow::new(&row["id"], repository(&row["source"]), s, m, gen, start, row["test"].starts_with("tg")));
        }
    }
    for row in read_csv("tests/data/single_stream_external.csv") {
        let s = Scenario::from_json(&format!(
            r#"{{"hardware":{{"preset":"{}"}},"model":{{"preset":"{}"}},"quantization":{{"weights":"{}"}},"engine":{{"preset":"llama.cpp"}}}}"#,
            row["hardware_key"], row["model_preset"], row["weights"]
        ))
        .unwrap();
        let (Some(m), Some(gen)) = (num(&row, "decode_tok_s"), num(&row, "test_gen")) else { continue };
        out.extend(SsRow::new(&row["id"], repository(&row["source"]), s, m, gen, 0.0, true));
    }
    out
}

/// "github:owner/name issue …" → "owner/name"; a fork holding the same author's measurements counts as its
/// origin (anant-pathak/perf-analysis-modeling-project: same script, same author, a third node).
pub fn repository(source: &str) -> String {
    let repo = source.trim_start_matches("github:").split([' ', '/']).take(2).collect::<Vec<_>>().join("/");
    if repo == "anant-pathak/perf-analysis-modeling-project" {
        "willettAMT/perf-analysis-modeling-project".into()
    } else {
        repo
    }
}

/// A llama.cpp single-stream row as a scenario, when its device and model have presets (`None` otherwise); a
/// weight format without a preset (Q4_1) is carried by its bits per weight.
pub fn llama_cpp_row(row: &HashMap<String, String>) -> Option<Scenario> {
    let preset = presets::models::MODELS.iter().any(|m| m.name == row["model"]);
    if row["hardware_key"].starts_with("other:") || !preset || presets::hardware::find(&row["hardware_key"]).is_none() {
        return None;
    }
    let mut s = row_scenario(row, "llama.cpp");
    if s.quantization.weights.as_deref().and_then(tps_planner::model::quant::weight_format).is_none() {
        s.quantization.weights = None;
    }
    Some(s)
}

/// The fitted efficiencies of one pool.
#[derive(Debug, Clone)]
pub struct LlamaFit {
    /// (kind, η_bw, overhead µs per layer, rows) of the kinds fitted on their own rows.
    pub kinds: Vec<(HardwareKind, f64, f64, usize)>,
    /// The pooled GPU fit (η_bw, µs per layer) for kinds without enough rows of their own.
    pub gpu: Option<(f64, f64)>,
    pub apple: Option<(f64, f64)>,
    pub eta_kv_cuda: f64,
    pub eta_kv_apple: f64,
    /// Layer-split hand-off per device boundary, ms.
    pub hop_ms: f64,
    pub era_gpu: f64,
    pub era_apple: f64,
}

/// The unfitted prior: weights and KV cache at 0.85 of spec bandwidth, 100 µs per layer and step.
const PRIOR: (f64, f64) = (0.85, 100.0);
/// The prior of the layer-split hand-off per device boundary, ms: one PCIe hand-off of the hidden state and a
/// stream synchronisation (a stated value, not the fitted 0.21 ms, which comes from one source).
const HOP_PRIOR_MS: f64 = 0.1;
/// The prior of η_kv: attention without flash attention reads the KV cache at about half the weight rate.
const PRIOR_KV: f64 = 0.5;
/// Weight of each prior, in rows: a coefficient 30 % off its prior costs as much as one row 30 % off.
const PRIOR_WEIGHT: f64 = 0.3;
/// Rows a kind needs (over at least two models) for a fit of its own: with the prior's pseudo-rows a small fit
/// cannot run off, so three rows of two models are enough (with six, the A100 rows of other sources went to the
/// pooled GPU fit and HBM GPUs were 27 % too fast leave-one-source-out: p90 32 % over all rows instead of 19 %).
const MIN_ROWS: usize = 3;

impl LlamaFit {
    fn kind_params(&self, kind: HardwareKind, apple: bool) -> (f64, f64) {
        let (bw, o) = if apple {
            self.apple.unwrap_or(PRIOR)
        } else {
            self.kinds.iter().find(|k| k.0 == kind).map(|k| (k.1, k.2)).or(self.gpu).unwrap_or(PRIOR)
        };
        (bw.min(1.0), o)
    }
}

/// One family's regression with `groups` (each row's group index, or `None` to leave it out) and era factor `r`:
/// (coefficients [1/η_bw, o] per group, 1/η_kv, hop), and the weighted residual.
fn regress(rows: &[&SsRow], group: impl Fn(&SsRow) -> Option<usize>, groups: usize, r: f64) -> Option<(Vec<f64>, f64)> {
    let hops = rows.iter().any(|o| o.hops > 0.0 && group(o).is_some());
    let n = 2 * groups + 1 + usize::from(hops);
    let mut ata = vec![vec![0.0; n + 1]; n];
    let mut xs = Vec::new();
    for o in rows {
        let Some(g) = group(o) else { continue };
        let t = 1.0 / o.measured;
        let mut x = vec![0.0; n];
        x[2 * g] = o.x_w;
        x[2 * g + 1] = o.layers * 1e-6 * if o.current { r } else { 1.0 };
        x[2 * groups] = o.x_kv;
        if hops {
            x[2 * groups + 1] = o.hops * 1e-3;
        }
        let w = 1.0 / (t * t);
        for i in 0..n {
            for j in 0..n {
                ata[i][j] += w * x[i] * x[j];
            }
            ata[i][n] += w * x[i] * t;
        }
        xs.push((x, t));
    }
    // The prior as pseudo-observations (see `PRIOR_WEIGHT`): each coefficient pulled toward its prior value in
    // relative terms, so a parameter the pool cannot identify stays at the prior instead of running off.
    let priors: Vec<f64> = (0..n)
        .map(|i| match i {
            i if i < 2 * groups && i % 2 == 0 => 1.0 / PRIOR.0,
            i if i < 2 * groups => PRIOR.1,
            i if i == 2 * groups => 1.0 / PRIOR_KV,
            _ => HOP_PRIOR_MS,
        })
        .collect();
    for (i, p) in priors.iter().enumerate() {
        ata[i][i] += PRIOR_WEIGHT / (p * p);
        ata[i][n] += PRIOR_WEIGHT / p;
    }
    let c = solve(ata)?;
    // Physical coefficients only: positive streaming times, a non-negative overhead.
    if (0..groups).any(|g| c[2 * g] <= 0.0 || c[2 * g + 1] < 0.0) || c[2 * groups] <= 0.0 {
        return None;
    }
    let resid = xs.iter().map(|(x, t)| (x.iter().zip(&c).map(|(a, b)| a * b).sum::<f64>() / t - 1.0).powi(2)).sum::<f64>()
        + c.iter().zip(&priors).map(|(c, p)| PRIOR_WEIGHT * (c / p - 1.0).powi(2)).sum::<f64>()
        + PRIOR_WEIGHT * r.ln().powi(2);
    Some((c, resid))
}

/// Fits a family (rows already filtered to it) with the era factor scanned 0.30–1.50 when both eras are present.
fn fit_family(rows: &[&SsRow], group: impl Fn(&SsRow) -> Option<usize> + Copy, groups: usize) -> Option<(Vec<f64>, f64)> {
    let both = rows.iter().any(|o| o.current) && rows.iter().any(|o| !o.current);
    let scan: Vec<f64> = if both { (6..=30).map(|k| 0.05 * f64::from(k)).collect() } else { vec![1.0] };
    scan.into_iter()
        .filter_map(|r| regress(rows, group, groups, r).map(|(c, e)| (c, e, r)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(c, _, r)| (c, r))
}

fn models(rows: &[&SsRow]) -> usize {
    let mut m: Vec<String> = rows.iter().map(|o| format!("{:?}", o.scenario.model.preset)).collect();
    m.sort();
    m.dedup();
    m.len()
}

/// Fits llama.cpp's single-stream efficiencies on `rows` (only those marked `fit` are used).
pub fn fit(rows: &[&SsRow]) -> LlamaFit {
    let fit_rows: Vec<&SsRow> = rows.iter().copied().filter(|o| o.fit).collect();
    let gpu_rows: Vec<&SsRow> = fit_rows.iter().copied().filter(|o| !o.apple).collect();
    let apple_rows: Vec<&SsRow> = fit_rows.iter().copied().filter(|o| o.apple).collect();
    let mut out = LlamaFit {
        kinds: Vec::new(),
        gpu: None,
        apple: None,
        eta_kv_cuda: PRIOR_KV,
        eta_kv_apple: PRIOR_KV,
        hop_ms: HOP_PRIOR_MS,
        era_gpu: 1.0,
        era_apple: 1.0,
    };
    // The GPU family: the pooled fit first, then every kind with enough rows of its own in one regression.
    if let Some((c, r)) = fit_family(&gpu_rows, |_| Some(0), 1) {
        out.gpu = Some((1.0 / c[0], c[1]));
        out.eta_kv_cuda = 1.0 / c[2];
        out.hop_ms = c.get(3).copied().unwrap_or(HOP_PRIOR_MS);
        out.era_gpu = r;
    }
    let mut own: Vec<HardwareKind> = Vec::new();
    for kind in [HardwareKind::ConsumerGpu, HardwareKind::WorkstationGpu, HardwareKind::DatacenterGpu, HardwareKind::Other] {
        let sel: Vec<&SsRow> = gpu_rows.iter().copied().filter(|o| o.kind == kind).collect();
        if sel.len() >= MIN_ROWS && models(&sel) >= 2 {
            own.push(kind);
        }
    }
    if !own.is_empty() {
        let group = |o: &SsRow| own.iter().position(|&k| k == o.kind);
        let sel: Vec<&SsRow> = gpu_rows.iter().copied().filter(|o| group(o).is_some()).collect();
        if let Some((c, r)) = fit_family(&sel, group, own.len()) {
            out.kinds = own.iter().enumerate().map(|(g, &k)| (k, 1.0 / c[2 * g], c[2 * g + 1], sel.iter().filter(|o| o.kind == k).count())).collect();
            out.eta_kv_cuda = 1.0 / c[2 * own.len()];
            out.hop_ms = c.get(2 * own.len() + 1).copied().unwrap_or(out.hop_ms);
            out.era_gpu = r;
        }
    }
    if apple_rows.len() >= MIN_ROWS && models(&apple_rows) >= 2 {
        if let Some((c, r)) = fit_family(&apple_rows, |_| Some(0), 1) {
            out.apple = Some((1.0 / c[0], c[1]));
            out.eta_kv_apple = 1.0 / c[2];
            out.era_apple = r;
        }
    }
    out
}

/// Leave-one-source-out cases: each source's rows predicted with the fit on all the other sources.
pub fn leave_one_source_out(pool: &[SsRow]) -> Vec<(Case, LlamaFit)> {
    let mut sources: Vec<&str> = pool.iter().map(|o| o.source.as_str()).collect();
    sources.sort();
    sources.dedup();
    let mut out = Vec::new();
    for held in sources {
        let rest: Vec<&SsRow> = pool.iter().filter(|o| o.source != held).collect();
        let f = fit(&rest);
        for o in pool.iter().filter(|o| o.source == held) {
            let case = Case {
                id: o.id.clone(),
                source: o.source.clone(),
                kind: o.kind.id().into(),
                metric: "decode tok/s",
                predicted: o.predict(Some(&f)),
                measured: o.measured,
            };
            out.push((case, f.clone()));
        }
    }
    out
}
