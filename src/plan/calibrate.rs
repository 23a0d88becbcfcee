//! Calibration on the user's own runs: the engine efficiencies that make the model reproduce imported
//! measurements of *this* deployment.
//!
//! The defaults are fitted per class on public data; a user's hardware, driver, engine build and settings sit
//! somewhere inside (or outside) that class. Given benchmark results of the deployment (the import module reads
//! vLLM, SGLang, genai-perf, AIPerf, llmperf and llama-bench files), [`calibrate`] fits the engine's efficiencies
//! — weight-streaming η_bw, KV-streaming η_kv, compute η_fl, the per-step overhead, the per-request front end and,
//! for a MoE model, the expert kernels' efficiency — by bounded least squares on the log error of every figure
//! the files hold (each run predicted exactly as `tps compare` predicts it), weighed against a prior on each
//! parameter (below), within physical ranges:
//!
//! | parameter | range | informed by |
//! |---|---|---|
//! | η_bw | 0.2 – 1.0 | decode speed at low load (memory-bound steps) |
//! | η_kv | 0.05 – 1.0 | decode at long contexts |
//! | η_fl | 0.05 – 0.9 | prefill, TTFT, throughput at high load (compute-bound steps) |
//! | step overhead | 0 – 30 ms | decode of small models, high step rates |
//! | front end | 0 – 500 ms | TTFT at low load |
//! | MoE efficiency | 0.1 – 1.0 | MoE models only |
//!
//! The search is coordinate descent in log space (golden-section per parameter, a few sweeps): the objective is
//! smooth in each efficiency, and six parameters do not need more. Parameters the runs do not inform stay where
//! they were (the objective is flat in them; the search keeps the starting value when no move helps). The
//! calibrated scenario carries the fitted numbers as explicit engine fields, so it evaluates the same in the
//! page, the CLI and a link, and `engine.calibrated_from` says which runs they came from.
//!
//! **Priors.** One run at one load cannot tell its parameters apart: a decode slower than modelled at one user is
//! a lower η_bw, a lower MoE efficiency or a larger step overhead alike, and a long TTFT is a slower prefill or a
//! slower front end. Fitted by least squares alone, the search took whichever it met first and ran it to its
//! bound: on the served runs (`tests/serving.rs`, `served_runs_calibrated_on_their_own_runs`: 16 deployments,
//! each calibrated on its lightest run and scored on their 38 runs at other loads) TPOT at those loads came out
//! 27.7 % off (median; 14.9 % uncalibrated) and output tok/s 45.3 % (28.1 %), because a SGLang MoE deployment whose
//! TTFT at one user is 141 ms against 56 predicted had its expert kernels slowed 0.5 → 0.19 instead of its front
//! end lengthened. So the objective is a posterior: the figures' squared log errors in units of
//! [`FIGURE_SIGMA`] plus each parameter's squared log distance from where it started (its default, or the user's
//! value) in units of its prior width —
//! narrow for what deployments of one class share (η_bw 0.25), wide for what they do not (the front end and the
//! step overhead, 1.0: vLLM's front end is 12 ms in one source and 60 ms in another). Measured on those runs:
//!
//! | calibrated on | figure (other runs, median) | defaults | least squares | with priors |
//! |---|---|---|---|---|
//! | the lightest run (38 runs at other loads) | TTFT mean / P50 / P99 | 79.4 / 57.4 / 80.1 % | 17.9 / 25.1 / 60.1 % | 14.1 / 16.2 / 38.4 % |
//! | | TPOT mean / P50 / P99 | 14.9 / 16.6 / 22.9 % | 27.7 / 47.6 / 55.3 % | 12.0 / 15.3 / 21.1 % |
//! | | output tok/s | 28.1 % | 45.3 % | 36.9 % |
//! | the lightest and heaviest (22 runs between) | TTFT mean / P50 / P99 | 82.8 / 86.3 / 84.1 % | 19.5 / 14.0 / 33.1 % | 20.2 / 12.9 / 28.3 % |
//! | | TPOT mean / P50 / P99 | 12.1 / 9.4 / 22.9 % | 11.9 / 14.4 / 18.6 % | 14.0 / 15.2 / 17.4 % |
//! | | output tok/s | 29.1 % | 24.9 % | 24.8 % |
//!
//! (Measured with the model of that morning. Since steps that carry prompt tokens pay their eager launch chain,
//! `model::kernels`, the defaults and the priors columns read: lightest run TTFT 66.2 / 64.3 / 76.6 → 25.6 /
//! 13.6 / 39.3 %, TPOT 11.1 / 15.9 / 17.7 → 8.7 / 10.6 / 18.4 %, output 29.0 → 30.2 %; lightest and heaviest
//! TTFT 71.6 / 66.9 / 83.6 → 20.5 / 14.5 / 28.2 %, TPOT 10.0 / 14.6 / 17.7 → 8.9 / 10.0 / 23.7 %, output 29.5 →
//! 24.6 %.)
//!
//! (On 2026-12-04, with four more sources: 71 runs at other loads than the lightest, TTFT mean / P50 / P99 41.7 /
//! 39.9 / 46.1 % with the defaults, 32.6 / 27.6 / 32.3 % calibrated, TPOT P50 8.4 → 10.2 %; 46 runs between the
//! lightest and heaviest, TTFT 40.2 / 36.4 / 44.9 → 22.1 / 21.9 / 20.6 %, output tok/s 8.4 → 6.5 %, TPOT P50 6.5 →
//! 10.0 %: the fitted parameters move the runs between the calibration's, as IOG's RTX 4090 whose 32 req/s run
//! takes η_fl 0.52 → 0.87.)
//!
//! (On 2026-12-05 the runs' ITL percentiles joined the figures, as `import::compare` now sets them beside TPOT: the
//! gaps between tokens are the decode step itself, where TPOT — (E2E − TTFT) ÷ (n − 1) per request — adds the
//! prompts that stall a request's decode, divided over its tokens (ITL's mean is left out: token-weighted, it is
//! TPOT's mean whenever the requests are alike, and vLLM's /metrics gives the per-user speed from it). A DGX Spark
//! rate sweep (gpt-oss-20b, 4,000-token prompts, ~150-token answers) measured ITL P50 23 ms and TPOT P50 60 ms at
//! 0.1 req/s; fitted on TPOT alone, η_bw fell 0.70 → 0.32 and TPOT at the sweep's other loads came out 4 × high.
//! With ITL and the serving formats' 16-bit head (`model::quant::head_bits`) — between the lightest and heaviest,
//! output tok/s 6.5 %, TTFT mean / P50 / P99 22.1 / 21.9 / 20.6 → 20.8 / 19.7 / 17.4 %, TPOT 10.1 / 10.0 / 8.7 →
//! 9.8 / 11.0 / 6.6 % and TPOT P50's p90 334 → 121 %; on the lightest alone, TPOT P50's p90 236 → 176 % and TTFT
//! 32.6 / 27.6 / 32.3 → 35.4 / 29.3 / 42.0 % — under the defaults' 41.7 / 39.9 / 46.9 % still, the Spark's TTFT now
//! paying for the decode the ITL pins (its prefill and its stalls cannot both match). The bands a calibrated
//! scenario shows are these runs' (`plan::band::LOAD_CALIBRATED_ONE` / `_TWO`, by `engine.calibrated_loads`).)
//!
//! **One load, fewer parameters? Tried 2026-12-07, not adopted.** One load cannot tell the step's fixed time
//! from its reading time, nor the front end from the prefill, so fitting only some parameters at one load looked
//! like the cure for a one-load fit that moves other loads the wrong way (a trial: the 8B/H100 example calibrated
//! on a synthetic 64-user sample fell from 139 to 76 tok/s at one user). Measured by `tests/serving.rs`
//! (`served_runs_calibrated_on_their_own_runs`, the data of 2026-12-07: 83 runs at other loads of 32 deployments,
//! each calibrated on its lightest run with the leave-one-source-out defaults; for the comparison a refused fit was
//! scored with the defaults the user keeps), median % off at the other loads:
//!
//! | fitted at one load | output tok/s (p90) | TTFT mean / P50 / P99 | TPOT mean / P50 / P99 (P50's p90) |
//! |---|---|---|---|
//! | nothing (defaults) | 9.5 (41.6) | 40.4 / 36.4 / 50.0 | 7.8 / 7.3 / 9.7 (86.7) |
//! | all (as shipped) | 10.0 (37.3) | 30.4 / 28.0 / 46.7 | 8.8 / 8.4 / 9.4 (121.4) |
//! | front end only | 9.5 (41.1) | 36.0 / 30.6 / 44.9 | 7.7 / 7.3 / 9.7 (86.7) |
//! | front end, step overhead | 10.0 (37.1) | 39.6 / 31.0 / 46.4 | 7.9 / 7.6 / 9.4 (86.0) |
//! | front end, step overhead, η_fl | 10.0 (30.5) | 29.8 / 29.3 / 47.4 | 8.8 / 8.4 / 9.4 (120.7) |
//!
//! No subset wins on every figure: the front end alone keeps TPOT where the defaults have it but gains less TTFT,
//! and whatever fits η_fl at one load (its TTFT) slows the heavier loads' steps that carry prompts (TPOT P50's bias,
//! printed beside the medians, +11 % with the defaults, +18 % with η_fl fitted). The front end, step overhead and
//! η_fl together are the full fit without η_bw and η_kv, and within a point or two of it (better on output's p90,
//! worse on TTFT P50 and P99): not a different answer, so the full fit stays. The synthetic sample's fall at one user
//! comes mostly from its own ITL (P50 15 ms under a TPOT of 20, pulling the step overhead up), which real runs do not
//! show.
//!
//! One light run informs TTFT (the front end) but not the throughput at other loads, which a light run does not
//! inform: calibrate on a light and a heavy run ([`Calibration::summary`] says so when the runs share one load).
//! A calibrated scenario (`engine.calibrated_from` set) is calibrated again from its fitted fields cleared, i.e.
//! from the defaults: started and centred at its previous fit, repeated calibrations drifted towards the
//! least-squares fit.

use crate::import::{self, Measurement};
use crate::scenario::{Scenario, ScenarioError};
use serde::Serialize;

/// One fitted parameter.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fitted {
    /// Scenario field (`engine.bandwidth_efficiency`, …).
    pub field: &'static str,
    pub before: f64,
    pub after: f64,
    pub lo: f64,
    pub hi: f64,
}

/// The result of a calibration.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Calibration {
    /// The scenario with the fitted efficiencies as explicit fields.
    pub scenario: Scenario,
    pub fitted: Vec<Fitted>,
    /// Figures compared (rows over all runs).
    pub figures: usize,
    /// The runs' per-user speeds left out beside their TPOT mean (1000 ÷ it: the same figure), said beside `figures`
    /// (an operations trial read "40 figures" in the comparison and "36" in the calibration, unexplained).
    pub per_user_left_out: usize,
    /// Median |error| of the figures before and after, percent.
    pub median_abs_error_before_pct: f64,
    pub median_abs_error_after_pct: f64,
    /// Per figure: (run label, metric, measured, predicted before, predicted after).
    pub rows: Vec<(String, String, f64, f64, f64)>,
    /// Every run was a serving run, all at one load: the throughput at other loads is not informed. (A run without
    /// a recorded load counts as its own load.)
    pub one_load: bool,
    /// Runs left out because their file says another engine ran them (llama-bench's llama.cpp beside a vLLM
    /// scenario): their efficiencies are not this engine's.
    pub other_engine_runs: usize,
    /// Runs whose file does not name the device they ran on: taken as the scenario's, unchecked.
    pub unrecorded_device_runs: usize,
    /// Runs whose file states no weight format (neither in the model's name nor as a size): taken as the scenario's,
    /// unchecked (an operations trial fitted BF16 runs on an FP8 scenario: η_bw 0.80 → 0.40, the error halved, no word).
    pub unrecorded_format_runs: usize,
}

impl Calibration {
    /// The calibration in one sentence: the figures, the median |error| before and after, and the efficiencies
    /// the fit moved (as the page shows it beside its button).
    #[must_use]
    pub fn summary(&self) -> String {
        let moved: Vec<String> = self
            .fitted
            .iter()
            .filter(|f| (f.after - f.before).abs() > 1e-6 * f.before.abs().max(1e-9))
            .map(|f| format!("{} {} → {}", f.field.trim_start_matches("engine."), sig3(f.before), sig3(f.after)))
            .collect();
        format!(
            "Calibrated on {} figures{}: median |error| {:.1} % → {:.1} %. {}",
            self.figures,
            match self.per_user_left_out {
                0 => String::new(),
                n => format!(" ({n} per-user speed{} left out: 1000 ÷ a TPOT mean already fitted)", if n == 1 { "" } else { "s" }),
            },
            self.median_abs_error_before_pct,
            self.median_abs_error_after_pct,
            if moved.is_empty() { "No efficiency moved.".to_string() } else { format!("Fitted: {}.", moved.join(", ")) }
        ) + if self.one_load { " One load only: add another load to fit the throughput." } else { "" }
            + &self.caveats()
    }

    /// What to weigh before keeping the fit: figures it made worse by more than 10 points (a median can improve while
    /// the figure that matters gets worse: a new user's trial saw a MoE model's prefill error fall from 163 % while
    /// the fit put that slow prefill down to memory bandwidth and turned one-user decode from 37 % high to 27 % low),
    /// and efficiencies that ended at a bound of their range (the model may lack what the runs show).
    #[must_use]
    pub fn caveats(&self) -> String {
        let pct = |pred: f64, meas: f64| (pred / meas - 1.0) * 100.0;
        let made_worse: Vec<&(String, String, f64, f64, f64)> =
            self.rows.iter().filter(|r| r.4.is_nan() || pct(r.4, r.2).abs() > pct(r.3, r.2).abs() + 10.0).collect();
        // The one made worst first (an operations trial's TTFT P99, +49 → +221 %, hid among "and 13 more" behind
        // the first three in file order), the others as they come: one pass, no sort in the page's wasm.
        let by = |r: &(String, String, f64, f64, f64)| if r.4.is_nan() { f64::INFINITY } else { pct(r.4, r.2).abs() - pct(r.3, r.2).abs() };
        let top = (0..made_worse.len()).fold(0, |b, i| if by(made_worse[i]) > by(made_worse[b]) { i } else { b });
        let worse: Vec<String> = made_worse
            .get(top)
            .into_iter()
            .chain(made_worse.iter().enumerate().filter(|(i, _)| *i != top).map(|(_, r)| r))
            .copied()
            .map(|r| {
                if r.4.is_nan() {
                    format!("{} ({}) {:+.0} % → no longer predicted", r.1, r.0, pct(r.3, r.2))
                } else {
                    format!("{} ({}) {:+.0} → {:+.0} %", r.1, r.0, pct(r.3, r.2), pct(r.4, r.2))
                }
            })
            .collect();
        let bound: Vec<String> = self
            .fitted
            .iter()
            // Only what the fit moved there: llama.cpp's front end starts at 0 and its MoE factor at 1, both bounds.
            .filter(|f| {
                let tol = 0.001 * (f.hi - f.lo);
                let moved = (f.after - f.before).abs() > 1e-6 * f.before.abs().max(1e-9);
                moved && ((f.after - f.lo).abs() <= tol || (f.hi - f.after).abs() <= tol)
            })
            .map(|f| format!("{} ({})", f.field.trim_start_matches("engine."), sig3(f.after)))
            .collect();
        let mut out = String::new();
        if !worse.is_empty() {
            let more = if worse.len() > 3 { format!(" and {} more", worse.len() - 3) } else { String::new() };
            out += &format!(" Worse after: {}{more}.", worse[..worse.len().min(3)].join("; "));
        }
        if !bound.is_empty() {
            // Two or more at a bound is what runs of another deployment give (8B runs on a 70B scenario ran η_bw and η_fl
            // to their bounds); where the files do not name their device, that is the first thing to check (an
            // operations trial's 2 × RTX 4090 scenario fitted to an H100's runs, every efficiency at a bound).
            let other = if bound.len() >= 2 && (self.unrecorded_device_runs > 0 || self.unrecorded_format_runs > 0) {
                " — or these runs are of another device or weight format than the scenario's: their files do not say which"
            } else {
                " — the model may lack what these runs show"
            };
            out += &format!(" At the bound of its range: {}{other}.", bound.join(", "));
        }
        // Efficiencies outside what the data's devices reach, though inside the search's range: what such a fit more
        // likely says of the runs (`presets::engines`: decode streams at 0.55–0.93 of the bandwidth in every class
        // fitted; large GEMM kernels alone reach 0.6–0.7 of the dense peak).
        for f in &self.fitted {
            let moved = (f.after - f.before).abs() > 1e-6 * f.before.abs().max(1e-9);
            match f.field {
                "engine.bandwidth_efficiency" if moved && f.after < 0.5 => out += &format!(
                    " bandwidth_efficiency {} is below the 0.55–0.93 of the bandwidth that decoding reaches on every device class in the data: these runs may read more bytes per token than the scenario (a larger weight format or model).",
                    sig3(f.after)
                ),
                "engine.compute_efficiency" if moved && f.after > 0.75 => out += &format!(
                    " compute_efficiency {} is above the 0.6–0.7 of the dense peak that large matrix multiplications alone reach: these runs' prompts may cost less than the scenario's (a prefix cache, shorter prompts), or the device's peak is set too low.",
                    sig3(f.after)
                ),
                _ => {}
            }
        }
        // Each count on its own (equal counts need not be the same runs: a review).
        let (dev, fmt) = (self.unrecorded_device_runs, self.unrecorded_format_runs);
        if dev > 0 {
            out += &format!(" {dev} run(s) do not name their device: taken as the scenario's, unchecked.");
        }
        if fmt > 0 {
            out += &format!(" {fmt} run(s) do not name their weight format: taken as the scenario's, unchecked.");
        }
        // Said wherever the fit is shown (the CLI's table had left them out without a word: an operations trial).
        if self.other_engine_runs > 0 {
            out += &format!(" Left out: {} run(s) of another engine.", self.other_engine_runs);
        }
        out
    }
}

/// Three significant digits (0.623, 12.4, 183).
pub(crate) fn sig3(v: f64) -> String {
    let d = if v.abs() >= 100.0 {
        0
    } else if v.abs() >= 10.0 {
        1
    } else if v.abs() >= 1.0 {
        2
    } else {
        3
    };
    format!("{v:.d$}")
}

/// A parameter of the search: its scenario field, range, and how to read and write it.
struct Param {
    field: &'static str,
    lo: f64,
    hi: f64,
    get: fn(&crate::model::engine::EngineParams) -> f64,
    /// Writes the field (`None` clears it: the default applies).
    set: fn(&mut Scenario, Option<f64>),
    /// Width of the prior on the parameter, in log units (of the value plus [`Param::offset`]): how far deployments
    /// of one class differ from the class's default.
    sigma: f64,
}

impl Param {
    /// Offset that puts a range starting at 0 on a log scale (5 % of its top), else 0.
    fn offset(&self) -> f64 {
        if self.lo <= 0.0 {
            0.05 * self.hi.max(1e-9)
        } else {
            0.0
        }
    }

    /// The parameter's log coordinate.
    fn log(&self, x: f64) -> f64 {
        (x + self.offset()).ln()
    }
}

/// Log error the fit expects of a figure when the parameters are right (the served runs' in-sample TPOT and
/// output error, 10–20 %): it weighs the figures against the priors.
const FIGURE_SIGMA: f64 = 0.15;

/// A parameter of the search named by its field, which the scenario's engine spec and the resolved engine share.
macro_rules! param {
    ($f:ident, $lo:expr, $hi:expr, $sigma:expr) => {
        Param { field: concat!("engine.", stringify!($f)), lo: $lo, hi: $hi, get: |e| e.$f, set: |s, x| s.engine.$f = x, sigma: $sigma }
    };
}

/// The parameters of the search (field, range, prior width), the MoE model's expert efficiency last.
static PARAMS: [Param; 6] = [
    param!(bandwidth_efficiency, 0.2, 1.0, 0.25),
    param!(kv_bandwidth_efficiency, 0.05, 1.0, 0.5),
    param!(compute_efficiency, 0.05, 0.9, 0.5),
    param!(step_overhead_ms, 0.0, 30.0, 1.0),
    param!(request_overhead_ms, 0.0, 500.0, 1.0),
    param!(moe_efficiency, 0.1, 1.0, 0.5),
];

/// The parameters a model fits: the expert efficiency only for a MoE model.
fn params(moe: bool) -> &'static [Param] {
    &PARAMS[..if moe { 6 } else { 5 }]
}

/// One compared figure: (run, metric, measured, predicted).
type Figure = (String, String, f64, f64);

/// (label, metric, measured, predicted) of every figure of every run on `s`, and how many per-user speeds it left
/// out beside their TPOT mean. With `refuse`, runs of another model
/// or device than the scenario's are an error naming the difference: fitted anyway, the efficiencies run to
/// their bounds (8B runs on a 70B scenario: η_bw 0.8 → 1.0, η_fl 0.28 → 0.89, and still 71 % off).
#[inline(never)]
fn figures(s: &Scenario, runs: &[Measurement], refuse: bool) -> Result<(Vec<Figure>, usize), ScenarioError> {
    let mut out = Vec::new();
    let mut left_out = 0;
    for m in runs {
        let c = import::compare(s, m)?;
        if let Some(x) = c.mismatch.first().filter(|_| refuse) {
            return Err(ScenarioError::new(
                "engine",
                format!(
                    "{} — {}: the run's {} is {} but the scenario's is {}; calibrate on runs of this deployment, or set the scenario to the run's {}",
                    m.tool, m.label, x.what, x.file, x.page, x.what
                ),
            ));
        }
        // The per-user speed is 1000 ÷ the mean TPOT on both sides: beside a TPOT mean it is that figure again, and
        // fitted twice it would weigh twice.
        let tpot_mean = c.rows.iter().any(|r| r.metric == "TPOT mean");
        for r in c.rows {
            if r.metric == "per user" && tpot_mean {
                left_out += 1;
                continue;
            }
            if r.measured > 0.0 && r.predicted > 0.0 && r.predicted.is_finite() {
                out.push((format!("{} — {}", m.tool, m.label), r.metric, r.measured, r.predicted));
            }
        }
    }
    Ok((out, left_out))
}

/// Each figure's prediction before and after the fit, matched by run and figure (the n-th of a repeated pair to
/// the n-th), as (run, figure, measured, before, after): a figure the fitted scenario no longer predicts gets NaN
/// after, and the rows after it keep their own (pairing by position would shift them all).
fn pair_rows(before: &[(String, String, f64, f64)], after: &[(String, String, f64, f64)]) -> Vec<(String, String, f64, f64, f64)> {
    // A scan with used-flags, not a map: tens of figures, and no new hashing code in the page's wasm.
    let mut used = vec![false; after.len()];
    before
        .iter()
        .map(|b| {
            let found = (0..after.len()).find(|&i| !used[i] && after[i].0 == b.0 && after[i].1 == b.1);
            let a = found.map_or(f64::NAN, |i| {
                used[i] = true;
                after[i].3
            });
            (b.0.clone(), b.1.clone(), b.2, b.3, a)
        })
        .collect()
}

/// The figures' squared log errors in units of [`FIGURE_SIGMA`] (the data term of the objective), or infinity
/// when no figure can be predicted.
fn data_term(f: &[(String, String, f64, f64)]) -> f64 {
    if f.is_empty() {
        return f64::INFINITY;
    }
    f.iter().map(|(_, _, m, p)| (p / m).ln().powi(2)).sum::<f64>() / FIGURE_SIGMA.powi(2)
}

/// The data term of the scenario `s` (infinity when it cannot be evaluated).
#[inline(never)]
fn objective(s: &Scenario, runs: &[Measurement]) -> f64 {
    figures(s, runs, false).map_or(f64::INFINITY, |f| data_term(&f.0))
}

/// The objective with parameter `p` at log coordinate `u` (the other parameters' prior terms `rest`, `p`'s start
/// `x0`): (objective, the scenario, the value).
#[inline(never)]
fn trial(s: &Scenario, runs: &[Measurement], p: &Param, u: f64, rest: f64, x0: f64) -> (f64, Scenario, f64) {
    let mut t = s.clone();
    let v = (u.exp() - p.offset()).clamp(p.lo, p.hi);
    (p.set)(&mut t, Some(v));
    (objective(&t, runs) + rest + prior(p, v, x0), t, v)
}

/// A parameter's term of the priors: its squared log distance from where it started, in units of its width.
fn prior(p: &Param, x: f64, x0: f64) -> f64 {
    ((p.log(x) - p.log(x0)) / p.sigma).powi(2)
}

fn median_abs_pct(v: &[f64]) -> f64 {
    let mut e: Vec<f64> = v.iter().map(|x| x.abs()).collect();
    crate::sorting::median(&mut e).unwrap_or(f64::NAN)
}

/// Drops a calibration from the scenario: its fitted fields and `calibrated_from` cleared, so the defaults apply
/// again (the page's "Undo calibration" after a reload or a link, where the scenario before it is not known: a
/// trial found no way back but editing the JSON). Whether there was one to drop.
pub fn discard(s: &mut Scenario) -> bool {
    s.engine.calibrated_loads = None;
    s.engine.calibrated_on = None;
    if s.engine.calibrated_from.take().is_none() {
        return false;
    }
    for p in &PARAMS {
        (p.set)(s, None);
    }
    true
}

/// Fits the scenario's engine efficiencies to the runs (see the module docs), leaving out runs another engine ran.
///
/// # Errors
/// The scenario's first invalid field, `runs` all of another engine, or runs with no figure the model can predict
/// on this deployment (nothing to fit), as a [`ScenarioError`] on `engine`.
pub fn calibrate(base: &Scenario, runs: &[Measurement]) -> Result<Calibration, ScenarioError> {
    // A calibrated scenario is calibrated again from what it was fitted from — its fitted fields cleared, so the
    // defaults — not from its own fit: the priors centre there, and calibrating twice on the same runs gives the
    // first calibration's values instead of drifting towards the least-squares fit.
    let mut base = base.clone();
    discard(&mut base);
    let base = &base;
    let resolved = base.resolve()?;
    // Runs another engine ran (the file says so) are left out, said in the summary: a trial calibrated vLLM on
    // llama-bench's runs, which are predicted on llama.cpp whatever the fit, and on SGLang's.
    let kind = resolved.deployment.engine.kind;
    let own: Vec<Measurement> = runs.iter().filter(|m| !m.other_engine(kind)).cloned().collect();
    let other_engine_runs = runs.len() - own.len();
    if own.is_empty() {
        return Err(ScenarioError::new(
            "engine",
            format!(
                "every run was measured on another engine than {}: calibrate on runs of this engine, or switch the engine to the runs'",
                resolved.deployment.engine.name
            ),
        ));
    }
    let runs = &own[..];
    let ps = params(resolved.deployment.model.is_moe());
    let mut s = base.clone();
    // Start from the values the scenario resolves to (defaults or the user's), written explicitly.
    let x0: Vec<f64> = ps.iter().map(|p| (p.get)(&resolved.deployment.engine).clamp(p.lo, p.hi)).collect();
    for (p, x) in ps.iter().zip(&x0) {
        (p.set)(&mut s, Some(*x));
    }
    let (start_figs, per_user_left_out) = figures(&s, runs, true)?;
    // "Before" is the scenario as the user has it: where one of its values lies outside the search's range (η_bw
    // 0.1 where the search starts at 0.2), its own figures, not the clamped start's (a review read "before 0.100"
    // beside the errors of 0.2).
    let clamped = ps.iter().zip(&x0).any(|(p, x)| (p.get)(&resolved.deployment.engine) != *x);
    let before_figs = if clamped { figures(base, runs, true)?.0 } else { start_figs.clone() };
    if before_figs.is_empty() || start_figs.is_empty() {
        return Err(ScenarioError::new("engine", "nothing to calibrate on: no figure of these runs can be predicted on this deployment (does it fit? do the files hold throughput or latency figures?)"));
    }
    let mut x = x0.clone();
    // The objective: the data term plus the priors' (0 at the start).
    let mut best = data_term(&start_figs);
    // Coordinate descent: golden-section search of each parameter on a log scale (offset for ranges from 0).
    for _sweep in 0..3 {
        let mut improved = false;
        for (i, p) in ps.iter().enumerate() {
            let (a0, b0) = (p.log(p.lo), p.log(p.hi));
            // The other parameters' prior terms, fixed while this one moves.
            let rest: f64 = ps.iter().enumerate().filter(|(j, _)| *j != i).map(|(j, q)| prior(q, x[j], x0[j])).sum();
            let value = |s: &Scenario, u: f64| trial(s, runs, p, u, rest, x0[i]);
            let (mut a, mut b) = (a0, b0);
            let g = (5f64.sqrt() - 1.0) / 2.0;
            let (mut c, mut d) = (b - g * (b - a), a + g * (b - a));
            let (mut fc, mut fd) = (value(&s, c).0, value(&s, d).0);
            for _ in 0..24 {
                if fc < fd {
                    b = d;
                    d = c;
                    fd = fc;
                    c = b - g * (b - a);
                    fc = value(&s, c).0;
                } else {
                    a = c;
                    c = d;
                    fc = fd;
                    d = a + g * (b - a);
                    fd = value(&s, d).0;
                }
            }
            let (f, t, v) = value(&s, (a + b) / 2.0);
            // Keep a move only when it helps by more than noise: a flat objective leaves the parameter alone.
            if f < best * (1.0 - 1e-6) {
                best = f;
                x[i] = v;
                s = t;
                improved = true;
            }
        }
        if !improved {
            break;
        }
    }
    let after_figs = figures(&s, runs, false)?.0;
    let fitted = ps
        .iter()
        .map(|p| {
            let after = s.resolve().map_or(f64::NAN, |r| (p.get)(&r.deployment.engine));
            Fitted { field: p.field, before: (p.get)(&resolved.deployment.engine), after, lo: p.lo, hi: p.hi }
        })
        .collect();
    let names: Vec<String> = runs.iter().map(|m| format!("{} {}", m.tool, m.label)).collect();
    let mut from = names.join("; ");
    if from.chars().count() > 300 {
        from = from.chars().take(300).collect::<String>() + "…";
    }
    s.engine.calibrated_from = Some(format!("{} figures of {} run(s): {from}", before_figs.len(), runs.len()));
    // The loads the runs had — the serving runs' distinct (users, rate), each decode or prefill run one of its own:
    // the bands of the calibrated scenario follow it.
    let mut serving: Vec<(Option<f64>, Option<f64>)> = Vec::new();
    for m in runs.iter().filter(|m| m.kind == import::Kind::Serving) {
        if !serving.contains(&(m.concurrency, m.request_rate)) {
            serving.push((m.concurrency, m.request_rate));
        }
    }
    let others = runs.iter().filter(|m| m.kind != import::Kind::Serving).count();
    s.engine.calibrated_loads = Some((serving.len() + others) as u32);
    s.engine.calibrated_on = Some(crate::model::engine::calibrated_on(&resolved.deployment.hardware, &resolved.deployment.model));
    let rows = pair_rows(&before_figs, &after_figs);
    // A fit that leaves the runs' figures further off at the median is not kept (an operations trial's 8B run on a
    // scenario in FP8 read "median |error| 10.7 % → 16.5 %" and was applied: the efficiencies had absorbed weights
    // twice as large as the scenario's). The fit weighs squared log errors with priors, so it can lose the median.
    let pcts = |figs: &[(String, String, f64, f64)]| median_abs_pct(&figs.iter().map(|f| (f.3 / f.2 - 1.0) * 100.0).collect::<Vec<_>>());
    let (before_pct, after_pct) = (pcts(&before_figs), pcts(&after_figs));
    // (Beyond noise: a fifth worse and a point more; a deployment fitted within 1 % that ends at 1.3 % is kept.)
    if after_pct > before_pct * 1.2 + 1.0 {
        return Err(ScenarioError::new(
            "engine",
            format!(
                "the fit leaves these runs further off (median |error| {before_pct:.1} % → {after_pct:.1} % over the {} it fits{}), so the runs and the scenario likely differ in more than the engine's efficiencies — the weight format (files rarely record it: the scenario's is assumed), the lengths, the devices or the split — or the runs show what the model lacks",
                if before_figs.len() == 1 { "1 figure".to_string() } else { format!("{} figures", before_figs.len()) },
                // (The comparison's headline counts a per-user speed too, which the fit leaves out: its median differs;
                // an operations trial read 11.8 % there and 10.7 % here for one run and asked which was right.)
                match per_user_left_out {
                    0 => String::new(),
                    n => format!("; the comparison's median also counts {n} per-user speed{}, 1000 ÷ a TPOT mean", if n == 1 { "" } else { "s" }),
                }
            ),
        ));
    }
    Ok(Calibration {
        scenario: s,
        fitted,
        figures: before_figs.len(),
        per_user_left_out,
        median_abs_error_before_pct: before_pct,
        median_abs_error_after_pct: after_pct,
        rows,
        one_load: runs
            .iter()
            .all(|m| m.kind == import::Kind::Serving && (m.concurrency, m.request_rate) == (runs[0].concurrency, runs[0].request_rate)),
        other_engine_runs,
        unrecorded_device_runs: own.iter().filter(|m| m.hardware.is_none()).count(),
        unrecorded_format_runs: own.iter().filter(|m| !m.states_weight_format()).count(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::{Kind, Stats};

    fn base() -> Scenario {
        Scenario::from_json(r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"quantization":{"weights":"bf16"},"engine":{"preset":"vllm"},"workload":{"requests":200,"output_tokens":128,"distribution":"fixed"}}"#).unwrap()
    }

    /// A synthetic serving run measured on `truth` at `c` users (the model's own prediction, times `noise`).
    fn run_on(truth: &Scenario, c: f64, noise: f64) -> Measurement {
        let mut s = truth.clone();
        s.workload.load = Some(crate::scenario::LoadSpec { concurrency: Some(vec![c]), ..Default::default() });
        // Measured as a benchmark measures (and as the comparison predicts a run with a request count).
        s.workload.benchmark_run = Some(true);
        let r = crate::plan::evaluate(&s).unwrap();
        let p = &r.sweep[0];
        let stats = |x: &crate::scenario::Pcts| Stats { mean: Some(x.mean * noise), p50: Some(x.p50 * noise), ..Default::default() };
        Measurement {
            tool: "synthetic".into(),
            kind: Kind::Serving,
            label: format!("concurrency {c}"),
            model: None,
            hardware: None,
            engine: None,
            devices: None,
            dp_attention: None,
            params_b: None,
            weight_bits: None,
            concurrency: Some(c),
            request_rate: None,
            prompt_tokens: Some(512.0),
            output_tokens: Some(128.0),
            context_depth: 0.0,
            output_cv: None,
            prompt_cv: None,
            load_recorded: true,
            requests: Some(200.0),
            system_output_tps: Some(p.system_tps / noise),
            per_user_tps: None,
            prefill_tps: None,
            ttft_ms: stats(&p.ttft_ms),
            tpot_ms: stats(&p.tpot_ms),
            itl_ms: Stats::default(),
            e2e_ms: Stats::default(),
            notes: Vec::new(),
        }
    }

    #[test]
    fn recovers_known_efficiencies_from_synthetic_runs() {
        let mut truth = base();
        truth.engine.bandwidth_efficiency = Some(0.62);
        truth.engine.kv_bandwidth_efficiency = Some(0.62);
        truth.engine.compute_efficiency = Some(0.31);
        truth.engine.request_overhead_ms = Some(80.0);
        let runs: Vec<Measurement> =
            [1.0, 4.0, 16.0, 64.0, 128.0].iter().enumerate().map(|(i, &c)| run_on(&truth, c, if i % 2 == 0 { 1.02 } else { 0.98 })).collect();
        let cal = calibrate(&base(), &runs).unwrap();
        let get = |f: &str| cal.fitted.iter().find(|p| p.field == f).unwrap().after;
        assert!((get("engine.bandwidth_efficiency") - 0.62).abs() < 0.08, "{:?}", cal.fitted);
        assert!((get("engine.compute_efficiency") - 0.31).abs() < 0.08, "{:?}", cal.fitted);
        assert!((get("engine.request_overhead_ms") - 80.0).abs() < 25.0, "{:?}", cal.fitted);
        assert!(
            cal.median_abs_error_after_pct < cal.median_abs_error_before_pct,
            "{} → {}",
            cal.median_abs_error_before_pct,
            cal.median_abs_error_after_pct
        );
        assert!(cal.median_abs_error_after_pct < 6.0, "after {}", cal.median_abs_error_after_pct);
        assert!(cal.scenario.engine.calibrated_from.as_deref().is_some_and(|f| f.contains("5 run")));
        // The sentence the page shows: the figures, both medians as computed, and each moved efficiency.
        let line = cal.summary();
        let medians = format!("{:.1} % → {:.1} %", cal.median_abs_error_before_pct, cal.median_abs_error_after_pct);
        assert!(line.starts_with(&format!("Calibrated on {} figures: ", cal.figures)) && line.contains(&medians), "{line}");
        for f in &cal.fitted {
            let name = f.field.trim_start_matches("engine.");
            let moved = (f.after - f.before).abs() > 1e-6 * f.before.abs().max(1e-9);
            assert_eq!(line.contains(&format!("{name} {} → {}", sig3(f.before), sig3(f.after))), moved, "{name} in {line}");
        }
        assert!(line.contains("bandwidth_efficiency "), "η_bw was off by 0.2 and must have moved: {line}");
        // The calibrated scenario is a scenario: it round-trips through JSON and resolves.
        let again = Scenario::from_json(&cal.scenario.to_json()).unwrap();
        assert!(again.resolve().is_ok());
        // On its own deployment no warning; moved to another model, its fit is still applied and a warning says it
        // was another deployment's (an operations trial saw "calibrated on …" after switching 8B on one H100 to a
        // 235B MoE on 8 × H200).
        let elsewhere = |s: &Scenario| {
            crate::plan::evaluate_analytic(s).unwrap().warnings.iter().any(|w| w.kind == crate::plan::WarningKind::CalibratedElsewhere)
        };
        assert!(!elsewhere(&again));
        let mut moved = again.clone();
        moved.model.preset = Some("qwen3-8b".into());
        assert!(elsewhere(&moved));
        assert_eq!(moved.resolve().unwrap().deployment.engine.compute_efficiency, again.resolve().unwrap().deployment.engine.compute_efficiency);
    }

    /// A fit that improves the median can still make a figure worse, or end at a bound: the summary says which.
    #[test]
    fn the_summary_names_figures_made_worse_and_bounds_reached() {
        let fitted = |after: f64| Fitted { field: "engine.compute_efficiency", before: 0.6, after, lo: 0.05, hi: 0.9 };
        let cal = |rows: Vec<(String, String, f64, f64, f64)>, after: f64| Calibration {
            scenario: base(),
            fitted: vec![fitted(after)],
            figures: rows.len(),
            per_user_left_out: 0,
            median_abs_error_before_pct: 50.0,
            median_abs_error_after_pct: 10.0,
            rows,
            one_load: false,
            other_engine_runs: 0,
            unrecorded_device_runs: 0,
            unrecorded_format_runs: 0,
        };
        let row = |metric: &str, measured: f64, before: f64, after: f64| ("tg32".to_string(), metric.to_string(), measured, before, after);
        let worse = cal(vec![row("decode (one user)", 78.0, 82.0, 57.2), row("prefill", 3514.0, 9250.0, 3900.0)], 0.47).summary();
        assert!(worse.contains("Worse after: decode (one user) (tg32) +5 → -27 %."), "{worse}");
        assert!(!worse.contains("prefill (tg32)") && !worse.contains("At the bound"), "{worse}");
        let bound = cal(vec![row("prefill", 3514.0, 9250.0, 3900.0)], 0.9).summary();
        assert!(bound.contains("At the bound of its range: compute_efficiency (0.900)") && !bound.contains("Worse after"), "{bound}");
        // A parameter that starts at a bound and stays there (llama.cpp's front end at 0) is not the fit's doing.
        let mut still = cal(vec![row("prefill", 3514.0, 9250.0, 3900.0)], 0.47);
        still.fitted.push(Fitted { field: "engine.request_overhead_ms", before: 0.0, after: 0.0, lo: 0.0, hi: 2000.0 });
        assert!(!still.summary().contains("At the bound"), "{}", still.summary());
        still.fitted[1] = Fitted { field: "engine.request_overhead_ms", before: 8.0, after: 3e-4, lo: 0.0, hi: 2000.0 };
        assert!(still.summary().contains("At the bound of its range: request_overhead_ms"), "{}", still.summary());
        // The one made worst comes first, whatever its place in the files (an operations trial's TTFT P99, +49 →
        // +221 %, had hidden among "and 13 more"); and runs that do not name their device are said.
        let four = vec![
            row("TPOT P50", 10.0, 10.0, 12.0),
            row("TTFT P50", 100.0, 100.0, 130.0),
            row("E2E P50", 100.0, 100.0, 125.0),
            row("TTFT P99", 100.0, 149.0, 321.0),
        ];
        let mut c = cal(four, 0.47);
        c.unrecorded_device_runs = 2;
        let s = c.summary();
        assert!(s.contains("Worse after: TTFT P99 (tg32) +49 → +221 %; TPOT P50 (tg32) +0 → +20 %; TTFT P50 (tg32) +0 → +30 % and 1 more."), "{s}");
        assert!(s.contains("2 run(s) do not name their device: taken"), "{s}");
        // Nor their weight format: both said at once; an efficiency outside what the data's devices reach is named
        // with what it more likely means (an operations trial's BF16 runs on an FP8 scenario: η_bw 0.80 → 0.40).
        c.unrecorded_format_runs = 2;
        c.fitted.push(Fitted { field: "engine.bandwidth_efficiency", before: 0.8, after: 0.397, lo: 0.2, hi: 1.0 });
        let s = c.summary();
        assert!(s.contains("2 run(s) do not name their device: taken as the scenario's, unchecked. 2 run(s) do not name their weight format: taken as the scenario's, unchecked."), "{s}");
        assert!(s.contains("bandwidth_efficiency 0.397 is below the 0.55–0.93") && !s.contains("compute_efficiency 0.470 is above"), "{s}");
        assert!(bound.contains("compute_efficiency 0.900 is above the 0.6–0.7 of the dense peak"), "{bound}");
    }

    /// Figures pair by run and figure, not by position: one the fitted scenario no longer predicts has no "after",
    /// and the summary says so.
    #[test]
    fn rows_pair_by_run_and_figure() {
        let f = |run: &str, metric: &str, p: f64| (run.to_string(), metric.to_string(), 100.0, p);
        let before = [f("a", "TTFT P50", 80.0), f("a", "TPOT P50", 90.0), f("b", "TPOT P50", 70.0), f("b", "TPOT P50", 60.0)];
        let after = [f("a", "TPOT P50", 99.0), f("b", "TPOT P50", 98.0), f("b", "TPOT P50", 97.0)];
        let rows = pair_rows(&before, &after);
        assert!(rows[0].4.is_nan(), "{rows:?}");
        assert_eq!(rows[1..].iter().map(|r| r.4).collect::<Vec<_>>(), [99.0, 98.0, 97.0]);
        let cal = Calibration {
            scenario: base(),
            fitted: vec![],
            figures: rows.len(),
            per_user_left_out: 0,
            median_abs_error_before_pct: 20.0,
            median_abs_error_after_pct: 2.0,
            rows,
            one_load: false,
            other_engine_runs: 0,
            unrecorded_device_runs: 0,
            unrecorded_format_runs: 0,
        };
        assert!(cal.caveats().contains("TTFT P50 (a) -20 % → no longer predicted"), "{}", cal.caveats());
    }

    #[test]
    fn three_significant_digits() {
        assert_eq!([sig3(0.62345), sig3(4.0), sig3(12.345), sig3(183.4)], ["0.623", "4.00", "12.3", "183"]);
    }

    #[test]
    fn runs_of_another_model_or_device_are_refused() {
        let mut run = run_on(&base(), 8.0, 1.0);
        run.model = Some("meta-llama/Llama-3.1-70B-Instruct".into());
        let e = calibrate(&base(), &[run.clone()]).unwrap_err().to_string();
        assert!(e.contains("model") && e.contains("70B"), "{e}");
        run.model = None;
        run.hardware = Some("NVIDIA L4".into());
        let e = calibrate(&base(), &[run]).unwrap_err().to_string();
        assert!(e.contains("hardware") && e.contains("L4"), "{e}");
    }

    #[test]
    fn calibrating_on_some_loads_predicts_another_better() {
        let mut truth = base();
        truth.engine.bandwidth_efficiency = Some(0.6);
        truth.engine.kv_bandwidth_efficiency = Some(0.6);
        truth.engine.compute_efficiency = Some(0.25);
        let train: Vec<Measurement> = [2.0, 8.0, 32.0].iter().map(|&c| run_on(&truth, c, 1.0)).collect();
        let held = run_on(&truth, 96.0, 1.0);
        let cal = calibrate(&base(), &train).unwrap();
        let err = |s: &Scenario| {
            let c = import::compare(s, &held).unwrap();
            let e: Vec<f64> = c.rows.iter().map(|r| r.error_pct).collect();
            median_abs_pct(&e)
        };
        let (before, after) = (err(&base()), err(&cal.scenario));
        assert!(after < before && after < 10.0, "held-out load: {before:.1} % → {after:.1} %");
        assert!(!cal.one_load && !cal.summary().contains("One load"), "{}", cal.summary());
        // Calibrated again on the same runs, a calibrated scenario gives the same values (it starts from the
        // defaults again), not a drift towards the least-squares fit.
        let again = calibrate(&cal.scenario, &train).unwrap();
        for (a, b) in cal.fitted.iter().zip(&again.fitted) {
            assert!((a.before - b.before).abs() < 1e-12 && (a.after - b.after).abs() < 1e-9, "{a:?} then {b:?}");
        }
        // One load informs no throughput at others: the summary says so.
        let one = calibrate(&base(), &train[..1]).unwrap();
        assert!(one.one_load && one.summary().contains("One load only: add another load to fit the throughput."), "{}", one.summary());
        // The loads go with the scenario, and the bands follow them (`plan::band`): one load's are wider.
        assert_eq!((cal.scenario.engine.calibrated_loads, one.scenario.engine.calibrated_loads), (Some(3), Some(1)));
        let band = |s: &Scenario| crate::plan::band::band(&s.resolve().unwrap().deployment);
        let (b3, b1, b0) = (band(&cal.scenario), band(&one.scenario), band(&base()));
        assert_eq!(
            (b3.load_class.as_str(), b1.load_class.as_str()),
            (crate::plan::band::LOAD_CALIBRATED_TWO.name, crate::plan::band::LOAD_CALIBRATED_ONE.name)
        );
        assert!(b3.batched_pct < b1.batched_pct && b3.ttft_pct < b1.ttft_pct && b3.latency_class.starts_with("calibrated on your runs"), "{b3:?}");
        assert_eq!(b0.load_class, crate::plan::band::LOAD_DENSE.name, "uncalibrated");
        // Moved to another deployment (the page keeps the engine's fields when the device changes), the
        // calibration no longer describes it: the class's own band again.
        let mut moved = cal.scenario.clone();
        moved.hardware.devices = Some(2);
        assert_eq!(band(&moved).load_class, crate::plan::band::LOAD_DENSE.name, "{:?}", band(&moved));
        // Undone, the scenario is the defaults' again, its loads too.
        let mut undone = cal.scenario.clone();
        assert!(discard(&mut undone) && undone.engine.calibrated_loads.is_none() && band(&undone) == b0);
    }

    #[test]
    fn nothing_to_fit_is_an_error_not_a_panic() {
        let s = Scenario::from_json(
            r#"{"hardware":{"preset":"rtx-4090"},"model":{"preset":"llama-3.1-405b"},"quantization":{"weights":"bf16"},"engine":{"preset":"vllm"}}"#,
        )
        .unwrap();
        let runs = vec![run_on(&base(), 4.0, 1.0)];
        assert!(calibrate(&s, &runs).is_err());
        assert!(calibrate(&base(), &[]).is_err());
    }
}
