//! One request as the simulator carries it: issued by the [`super::books::Books`], queued and run by the
//! [`super::pool::Pool`]s, handed from one pool to the other over the link of [`super::disagg`], and
//! finally returned to the books to be measured. It lives here, apart from both, so that the books and the
//! pools need only this type from each other.
//!
//! Every sequence follows the vLLM V1 token model: `computed` tokens are in the KV cache, `target` tokens are
//! known (prompt plus sampled output); a step schedules `min(target − computed, budget)` of them, and when
//! `computed` reaches `target` the step samples one token.

/// One request's state, moved between the waiting queue and the running batch.
#[derive(Debug, Clone, Copy)]
pub(super) struct Seq {
    /// Client-side front-end time of this request, seconds (added to its TTFT and E2E).
    pub(super) frontend: f64,
    pub(super) arrival: f64,
    pub(super) first_token: f64,
    pub(super) last_token: f64,
    /// Bytes of KV blocks held.
    pub(super) alloc_bytes: f64,
    /// Tokens covered by the blocks held (a multiple of [`super::BLOCK_TOKENS`]).
    pub(super) alloc_tokens: u32,
    /// Tokens whose KV is in the cache (starts at `base`, the prefix-cached part).
    pub(super) computed: u32,
    /// Tokens known: base + uncached prompt + sampled output.
    pub(super) target: u32,
    /// Prefix-cached tokens (context depth + prefix hits), never recomputed.
    pub(super) base: u32,
    /// Output tokens to generate.
    pub(super) output: u32,
    /// Output tokens sampled so far.
    pub(super) generated: u32,
    /// Tokens scheduled in the current step.
    pub(super) sched: u32,
    /// Counts towards the statistics (not warm-up, not filler).
    pub(super) measured: bool,
}
