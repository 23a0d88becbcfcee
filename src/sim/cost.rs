//! The cost of one step: what a step's sequences add to the roofline's [`StepLoad`], which
//! [`Deployment::step`] turns into seconds.
//!
//! A prefill chunk is folded in with [`Deployment::with_prefill`] at its prior context. Decodes are the bulk of
//! almost every step, so they are not added one by one: a decoding sequence's KV bytes and attention FLOPs are
//! affine in its context and in its context capped at the sliding window ([`DecodeCost`]), so the step only
//! keeps the integer sums of those over its decodes ([`StepAcc`]) and evaluates the cost once. The same
//! closed form gives the load of each step of a run of pure decode steps (`super::pool::stretch`).

use crate::model::kv;
use crate::model::llm::Attention;
use crate::model::roofline::{Deployment, StepLoad};

/// Per-decode-token KV bytes and attention FLOPs as functions of context, in the closed form
/// `g·ctx + l·min(ctx, window)` (exact for every [`Attention`] kind: full and MLA are linear, a sliding window
/// caps the local layers), with coefficients taken from [`crate::model::kv`] so the formulas live in one place,
/// and KV bytes scaled by [`Deployment::kv_replication`] as in [`Deployment::kv_bytes`].
/// Being linear in `ctx` and `min(ctx, window)`, it is evaluated once per step on the sums of those over the
/// decoding sequences instead of once per sequence.
#[derive(Debug, Clone, Copy)]
pub(super) struct DecodeCost {
    kv_g: f64,
    kv_l: f64,
    fl_g: f64,
    fl_l: f64,
}

impl DecodeCost {
    pub(super) fn new(d: &Deployment) -> Self {
        let m = &d.model;
        let e = d.kv_elem_bytes;
        let r = d.kv_replication();
        let kv_g_one = kv::bytes_per_token_global(m, e);
        let kv_g = kv_g_one * r;
        match m.attention {
            Attention::Full | Attention::Mla { .. } => Self { kv_g, kv_l: 0.0, fl_g: kv::attention_flops_per_token(m, 1.0), fl_l: 0.0 },
            Attention::Sliding { window, .. } => {
                let w = f64::from(window);
                let kv_l = (kv::bytes_per_token(m, e) - kv_g_one) * r;
                let (fl_g, fl_l) = if window == 0 {
                    (kv::attention_flops_per_token(m, 1.0), 0.0)
                } else {
                    // Below the window every layer grows; above it only the global ones.
                    let all = kv::attention_flops_per_token(m, 1.0);
                    let g = (kv::attention_flops_per_token(m, 2.0 * w) - kv::attention_flops_per_token(m, w)) / w;
                    (g, all - g)
                };
                Self { kv_g, kv_l, fl_g, fl_l }
            }
        }
    }

    /// KV bytes of decoding sequences whose contexts sum to `sum_ctx`, and to `sum_min` after capping each at
    /// the window.
    pub(super) fn kv_sum(&self, sum_ctx: f64, sum_min: f64) -> f64 {
        self.kv_g * sum_ctx + self.kv_l * sum_min
    }

    /// Attention FLOPs of the same sequences.
    pub(super) fn flops_sum(&self, sum_ctx: f64, sum_min: f64) -> f64 {
        self.fl_g * sum_ctx + self.fl_l * sum_min
    }
}

/// The load of the step being built: decode contributions as integer sums of contexts (exact, and one
/// multiply-add per step instead of per sequence), prefill chunks already folded into `load`.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct StepAcc {
    load: StepLoad,
    decodes: u64,
    /// Σ ctx over decoding sequences.
    sum_ctx: u64,
    /// Σ min(ctx, window) over decoding sequences.
    sum_min: u64,
    /// A sequence was preempted while building the step.
    pub(super) preempted: bool,
    /// A prompt in the step has chunks left after it (a layer split pipelines such steps: [`StepLoad::pipelined`]).
    pub(super) continuing: bool,
}

impl StepAcc {
    /// Adds `n` tokens of a sequence with `computed` cached tokens.
    pub(super) fn add(&mut self, d: &Deployment, computed: u32, n: u32, window: u32) {
        if n == 1 {
            self.decode(computed.saturating_add(1), window);
        } else {
            self.load = d.with_prefill(self.load, f64::from(n), f64::from(computed));
        }
    }

    /// Adds one decoding sequence at context `ctx` (its cached tokens plus the one decoded).
    #[inline(always)]
    pub(super) fn decode(&mut self, ctx: u32, window: u32) {
        self.decodes += 1;
        self.sum_ctx += u64::from(ctx);
        self.sum_min += u64::from(ctx.min(window));
    }

    /// The finished load.
    pub(super) fn finish(self, c: &DecodeCost) -> StepLoad {
        let mut load = self.load;
        let (ctx, min) = (self.sum_ctx as f64, self.sum_min as f64);
        load.decode_seqs += self.decodes as f64;
        load.decode_kv_bytes += c.kv_sum(ctx, min);
        load.decode_attn_flops += c.flops_sum(ctx, min);
        load
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::roofline::tests::h100_llama8b;

    #[test]
    fn decode_cost_matches_kv_module() {
        let mut d = h100_llama8b();
        let kinds = [
            Attention::Full,
            Attention::Mla { kv_lora_rank: 512, rope_dim: 64 },
            Attention::Sliding { window: 128, local_fraction: 0.5 },
            Attention::Sliding { window: 4096, local_fraction: 0.8333 },
            Attention::Sliding { window: 0, local_fraction: 0.5 },
            Attention::Sliding { window: 1, local_fraction: 1.0 },
        ];
        for (a, devices) in kinds.into_iter().flat_map(|a| [(a, 1), (a, 16)]) {
            d.model.attention = a;
            d.hardware.devices = devices; // 16-way tensor parallel replicates the 8 KV heads (MLA: every device)
            let c = DecodeCost::new(&d);
            for ctx in [0.0, 1.0, 17.0, 127.0, 128.0, 129.0, 1000.0, 4095.0, 4096.0, 5000.0, 131_072.0] {
                let kv_ref = d.kv_bytes(ctx);
                let fl_ref = kv::attention_flops_per_token(&d.model, ctx);
                let window = match a {
                    Attention::Sliding { window, .. } => f64::from(window),
                    _ => f64::INFINITY,
                };
                let min = ctx.min(window);
                assert!((c.kv_sum(ctx, min) - kv_ref).abs() <= 1e-9 * kv_ref.max(1.0), "{a:?} {ctx}");
                assert!((c.flops_sum(ctx, min) - fl_ref).abs() <= 1e-9 * fl_ref.max(1.0), "{a:?} {ctx}");
            }
        }
    }
}
