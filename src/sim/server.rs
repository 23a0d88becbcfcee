//! The batch engine: one pool of devices running iteration-level continuous batching (see the module docs of
//! [`super`]), and the event loop of the colocated server, where one pool does everything.
//!
//! State kept small and allocation-free per step: running sequences in a `Vec` in admission order, the waiting
//! queue in a `VecDeque` (preempted sequences go to its front), the KV pool as a byte counter. Every sequence
//! follows the vLLM V1 token model: `computed` tokens are in the KV cache, `target` tokens are known (prompt
//! plus sampled output); a step schedules `min(target − computed, budget)` of them; when `computed` reaches
//! `target` the step samples one token. A prefill, a chunk of it, a decode and a recompute after preemption are
//! all the same operation — which is why the same [`Pool`] also serves as the prefill pool (sequences leave
//! after their first token) and as the decode pool (sequences arrive with their prompt already computed) of
//! disaggregated serving ([`super::disagg`]).
//!
//! The pool reports completions, timeouts and the closed-loop users to wake to the [`Books`]; the event loop
//! that owns the entry queue issues the next requests.

use super::books::Books;
use super::linear::LinearSteps;
use super::{SimConfig, SimResult, Targets};
use crate::model::kv;
use crate::model::llm::Attention;
use crate::model::roofline::{Bound, Deployment, StepLoad};
use std::collections::VecDeque;


/// Tokens per KV-cache block (vLLM's default `block_size`).
pub const BLOCK_TOKENS: u32 = 16;
/// Most measured requests one call simulates; larger `requests` are clamped (bounds memory and time).
pub const MAX_REQUESTS: u32 = 100_000;
/// Most closed-loop users; more are clamped (they would only lengthen the waiting queue).
pub const MAX_CONCURRENCY: u32 = 100_000;
/// Relative slack when comparing KV bytes with the pool, so that a pool that fits exactly `n` blocks does.
const FIT_SLACK: f64 = 1e-9;


/// Rounds a token count up to whole blocks.
fn ceil_block(tokens: u32) -> u32 {
    let blocks = u64::from(tokens).div_ceil(u64::from(BLOCK_TOKENS));
    u32::try_from(blocks * u64::from(BLOCK_TOKENS)).unwrap_or(u32::MAX)
}

/// Per-decode-token KV bytes and attention FLOPs as functions of context, in the closed form
/// `g·ctx + l·min(ctx, window)` (exact for every [`Attention`] kind: full and MLA are linear, a sliding window
/// caps the local layers), with coefficients taken from [`crate::model::kv`] so the formulas live in one place,
/// and KV bytes scaled by [`Deployment::kv_replication`] as in [`Deployment::kv_bytes`].
/// Being linear in `ctx` and `min(ctx, window)`, it is evaluated once per step on the sums of those over the
/// decoding sequences instead of once per sequence.
#[derive(Debug, Clone, Copy)]
struct DecodeCost {
    kv_g: f64,
    kv_l: f64,
    fl_g: f64,
    fl_l: f64,
}

impl DecodeCost {
    fn new(d: &Deployment) -> Self {
        let m = &d.model;
        let e = d.kv_elem_bytes;
        let r = d.kv_replication();
        let kv_g_one = kv::bytes_per_token_global(m, e);
        let kv_g = kv_g_one * r;
        match m.attention {
            Attention::Full | Attention::Mla { .. } => Self {
                kv_g,
                kv_l: 0.0,
                fl_g: kv::attention_flops_per_token(m, 1.0),
                fl_l: 0.0,
            },
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
    fn kv_sum(&self, sum_ctx: f64, sum_min: f64) -> f64 {
        self.kv_g * sum_ctx + self.kv_l * sum_min
    }

    /// Attention FLOPs of the same sequences.
    fn flops_sum(&self, sum_ctx: f64, sum_min: f64) -> f64 {
        self.fl_g * sum_ctx + self.fl_l * sum_min
    }
}

/// The load of the step being built: decode contributions as integer sums of contexts (exact, and one
/// multiply-add per step instead of per sequence), prefill chunks already folded into `load`.
#[derive(Debug, Clone, Copy, Default)]
struct StepAcc {
    load: StepLoad,
    decodes: u64,
    /// Σ ctx over decoding sequences.
    sum_ctx: u64,
    /// Σ min(ctx, window) over decoding sequences.
    sum_min: u64,
    preempted: bool,
}

impl StepAcc {
    /// Adds `n` tokens of a sequence with `computed` cached tokens.
    fn add(&mut self, d: &Deployment, computed: u32, n: u32, window: u32) {
        if n == 1 {
            let ctx = computed.saturating_add(1);
            self.decodes += 1;
            self.sum_ctx += u64::from(ctx);
            self.sum_min += u64::from(ctx.min(window));
        } else {
            self.load = d.with_prefill(self.load, f64::from(n), f64::from(computed));
        }
    }

    /// The finished load.
    fn finish(self, c: &DecodeCost) -> StepLoad {
        let mut load = self.load;
        let (ctx, min) = (self.sum_ctx as f64, self.sum_min as f64);
        load.decode_seqs += self.decodes as f64;
        load.decode_kv_bytes += c.kv_sum(ctx, min);
        load.decode_attn_flops += c.flops_sum(ctx, min);
        load
    }
}

/// What ends a run of decode steps early (besides block allocations), see [`Server::decode_stretch`].
#[derive(Debug, Clone, Copy)]
struct StretchLimits {
    /// Most steps: up to the step that finishes a request, before one that crosses the window, within
    /// `max_steps`.
    k: u64,
    max_sim: f64,
    /// Next open-loop arrival (infinite if none).
    next_arrival: f64,
    /// Arrival of the head of the waiting queue (infinite if empty), for its timeout.
    front_arrival: f64,
    /// Earliest arrival among the running sequences, for their timeouts.
    min_arrival: f64,
}

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
    /// Tokens covered by the blocks held (a multiple of [`BLOCK_TOKENS`]).
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

/// Time-weighted statistics of one pool over the steps that start in the measurement window.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct BusyStats {
    /// Seconds of steps.
    pub(super) busy: f64,
    /// Σ step time × sequences in the step.
    pub(super) batch_time: f64,
    /// Σ step time × share of the KV pool allocated.
    pub(super) kv_time: f64,
    /// Seconds of memory-bound steps.
    pub(super) mem_time: f64,
    /// Seconds of compute-bound steps.
    pub(super) comp_time: f64,
}

/// One pool of devices serving with continuous batching: the batch, its waiting queue and its KV pool.
pub(super) struct Pool<'a> {
    d: &'a Deployment,
    cost: DecodeCost,
    /// Sliding window in tokens (`u32::MAX` when attention is not windowed).
    window: u32,
    /// KV pool size with slack, bytes.
    cap_limit: f64,
    pool_used: f64,
    pub(super) running: Vec<Seq>,
    pub(super) waiting: VecDeque<Seq>,
    max_batch: usize,
    max_tokens: u32,
    /// Seconds after arrival at which an unfinished request is aborted (infinite without a timeout).
    timeout: f64,
    /// Prefill-only pool (disaggregated serving): a sequence leaves the batch when its first token is sampled,
    /// into `handed`, and keeps its KV blocks until [`Pool::release`].
    handoff: bool,
    /// Sequences that left the batch after their prefill, still holding their blocks (prefill pool only).
    pub(super) handed: Vec<Seq>,
    /// Handed-off sequences not yet released (their blocks are still allocated).
    held: usize,
    /// Whether runs of pure decode steps take the fast path ([`Pool::decode_stretch`]); off only in tests
    /// that check the fast path against plain stepping.
    pub(super) stretches: bool,
    /// Whether the fast path may interpolate step times instead of evaluating every step
    /// ([`LinearSteps`]); switched off for the rest of the run if the roofline ever fails the check.
    pub(super) linear_steps: bool,
    /// Scratch for the fast path: running indices by the step (mod 16) at which they need a new block.
    block_due: Vec<Vec<u32>>,
    /// Scratch for the fast path: allocations of the current step (index, tokens, bytes).
    pending: Vec<(u32, u32, f64)>,
    /// Scratch: indices in `running` of the sequences that finished in the current step.
    done: Vec<u32>,
    /// Fewest output tokens still to generate among the sequences of the last normal step, finished ones
    /// included (0): a decode stretch is impossible while it is ≤ 1.
    min_left: u32,
    /// Preemptions during the measurement window.
    pub(super) preemptions: u32,
    pub(super) stats: BusyStats,
}

/// An all-zero result (nothing could be simulated).
pub(super) fn empty(saturated: bool) -> SimResult {
    SimResult { saturated, ..SimResult::default() }
}

/// Runs the simulation; see [`super::simulate`].
pub(super) fn run(d: &Deployment, cfg: &SimConfig, targets: &Targets) -> SimResult {
    run_with(d, cfg, targets, true, true)
}

/// [`run`], with the pure-decode fast path switched on or off (the results must be identical).
fn run_with(d: &Deployment, cfg: &SimConfig, targets: &Targets, stretches: bool, linear: bool) -> SimResult {
    if !d.fits() {
        return empty(true);
    }
    let Some(mut books) = Books::new(cfg, targets) else { return empty(false) };
    books.frontend = (d.engine.request_overhead_ms / 1e3).max(0.0);
    books.frontend_cv = d.engine.request_overhead_cv.max(0.0);
    let mut pool = Pool::new(d, books.timeout, books.in_flight_hint());
    // The smallest possible request must fit in the KV pool alone, or nothing can ever run.
    books.max_total = pool.max_fitting_tokens();
    if !books.smallest_fits() {
        return empty(true);
    }
    pool.stretches = stretches;
    pool.linear_steps = linear;
    let max_sim = if cfg.max_sim_seconds.is_nan() { f64::INFINITY } else { cfg.max_sim_seconds };
    let (truncated, now) = simulate(&mut pool, &mut books, max_sim, cfg.max_steps);
    books.result(truncated, now, &pool.stats, pool.preemptions, 0.0)
}

/// The event loop of the colocated server. Returns (truncated, time at the end).
fn simulate(pool: &mut Pool, books: &mut Books, max_sim: f64, max_steps: u64) -> (bool, f64) {
    let mut now = 0.0_f64;
    let mut steps = 0u64;
    books.first_wave(&mut pool.waiting);
    loop {
        books.arrivals_until(now, &mut pool.waiting);
        if books.done() {
            return (false, now);
        }
        if steps >= max_steps || now > max_sim {
            return (true, now);
        }
        pool.expire_waiting(now, books);
        books.flush_issues(now, &mut pool.waiting);
        if pool.is_idle() {
            let next = books.next_open_arrival();
            if next.is_finite() {
                now = now.max(next);
                continue;
            }
            // Nothing left to run yet requests unresolved: cannot happen, but never spin.
            return (true, now);
        }
        let next_arrival = books.next_open_arrival();
        if pool.decode_stretch(&mut now, &mut steps, max_sim, max_steps, next_arrival, books) > 0 {
            books.flush_issues(now, &mut pool.waiting);
            continue;
        }
        match pool.step(now, &mut steps, books) {
            Step::Ran(t_end) => {
                books.flush_issues(t_end, &mut pool.waiting);
                now = t_end;
            }
            Step::Preempted => {} // the next pass admits from the queue
            Step::Stuck | Step::Failed => return (true, now), // no progress possible (guard; should not happen)
        }
    }
}

/// What one call of [`Pool::step`] did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Step {
    /// A step ran and ended at this time.
    Ran(f64),
    /// Nothing ran: a running sequence preempted itself; the next pass admits from the queue.
    Preempted,
    /// Nothing could be scheduled (the head of the queue does not fit the free blocks).
    Stuck,
    /// The step time was not a finite non-negative number.
    Failed,
}

impl<'a> Pool<'a> {
    /// A pool on `d`, aborting requests `timeout` seconds after arrival, with queue room for `in_flight`.
    pub(super) fn new(d: &'a Deployment, timeout: f64, in_flight: usize) -> Self {
        Pool {
            d,
            cost: DecodeCost::new(d),
            window: match d.model.attention {
                Attention::Sliding { window, .. } => window,
                _ => u32::MAX,
            },
            cap_limit: d.kv_budget_bytes() * (1.0 + FIT_SLACK),
            pool_used: 0.0,
            running: Vec::with_capacity(d.engine.max_batch.clamp(1, 4096) as usize),
            waiting: VecDeque::with_capacity(in_flight),
            max_batch: d.engine.max_batch.max(1) as usize,
            max_tokens: d.engine.max_batched_tokens.max(1),
            timeout,
            handoff: false,
            handed: Vec::new(),
            held: 0,
            stretches: true,
            linear_steps: true,
            block_due: (0..BLOCK_TOKENS).map(|_| Vec::new()).collect(),
            pending: Vec::new(),
            done: Vec::new(),
            min_left: 0,
            preemptions: 0,
            stats: BusyStats::default(),
        }
    }

    /// Makes this a prefill-only pool: sequences leave after their first token, into `handed`, keeping their
    /// blocks until [`Pool::release`].
    pub(super) fn prefill_only(mut self) -> Self {
        self.handoff = true;
        self
    }

    /// Whether a sequence of `tokens` tokens fits in the KV pool on its own.
    fn fits_alone(&self, tokens: u32) -> bool {
        self.d.kv_bytes(f64::from(ceil_block(tokens))) <= self.cap_limit
    }

    /// The longest sequence, tokens, that fits in the KV pool on its own (0 if none does). KV bytes grow with
    /// the context, so this is a bisection on [`Pool::fits_alone`].
    pub(super) fn max_fitting_tokens(&self) -> u32 {
        if self.fits_alone(u32::MAX) {
            return u32::MAX;
        }
        let (mut lo, mut hi) = (0u32, u32::MAX); // fits_alone(lo) (kv of 0 tokens is 0), !fits_alone(hi)
        if !self.fits_alone(lo) {
            return 0;
        }
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if self.fits_alone(mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// Nothing running and nothing waiting.
    pub(super) fn is_idle(&self) -> bool {
        self.running.is_empty() && self.waiting.is_empty()
    }

    /// Share of the KV pool allocated.
    fn kv_share(&self) -> f64 {
        (self.pool_used / self.cap_limit).clamp(0.0, 1.0)
    }

    /// Frees the blocks (`bytes`) of a handed-off sequence whose transfer is done.
    pub(super) fn release(&mut self, bytes: f64) {
        self.pool_used -= bytes;
        self.held = self.held.saturating_sub(1);
        self.reset_if_empty();
    }

    /// With no sequence holding blocks, the pool is exactly empty (no drift from adding and removing floats).
    fn reset_if_empty(&mut self) {
        if self.running.is_empty() && self.held == 0 {
            self.pool_used = 0.0;
        }
    }

    /// Drops waiting requests at the head of the queue whose deadline has passed (the client gave up).
    pub(super) fn expire_waiting(&mut self, now: f64, books: &mut Books) {
        while let Some(front) = self.waiting.front() {
            if now - front.arrival <= self.timeout {
                break;
            }
            let s = *front;
            self.waiting.pop_front();
            books.abort(&s, now);
            books.to_issue += 1;
        }
    }

    /// One step starting at `now` (counted in `steps`): schedules, runs the roofline and applies the result.
    pub(super) fn step(&mut self, now: f64, steps: &mut u64, books: &mut Books) -> Step {
        *steps += 1;
        let in_window = books.in_window(now);
        let (load, n_sched, preempted) = self.schedule(in_window);
        if n_sched == 0 {
            return if preempted { Step::Preempted } else { Step::Stuck };
        }
        let cost = self.d.step(&load);
        let dur = cost.seconds;
        if !(dur.is_finite() && dur >= 0.0) {
            return Step::Failed;
        }
        if in_window {
            self.account(dur, n_sched, cost.bound);
        }
        let t_end = now + dur;
        self.finish_step(now, t_end, n_sched, in_window, books);
        Step::Ran(t_end)
    }

    /// Returns a running sequence to the front of the waiting queue, freeing its blocks (recompute preemption).
    fn preempt(&mut self, mut s: Seq, in_window: bool) {
        self.pool_used -= s.alloc_bytes;
        s.alloc_bytes = 0.0;
        s.alloc_tokens = 0;
        s.computed = s.base;
        s.sched = 0;
        self.waiting.push_front(s);
        if in_window {
            self.preemptions += 1;
        }
    }

    /// Schedules running sequence `i` for up to `budget` tokens, allocating blocks and preempting from the back
    /// of the batch when the pool is full. Returns the tokens scheduled, or `None` when `i` had to preempt
    /// itself (it is then back in the waiting queue and no sequence after it remains).
    fn schedule_running(&mut self, i: usize, budget: u32, acc: &mut StepAcc, in_window: bool) -> Option<u32> {
        let s = self.running[i];
        let n = s.target.saturating_sub(s.computed).clamp(1, budget);
        let want = s.computed.saturating_add(n);
        if want > s.alloc_tokens {
            let tokens = ceil_block(want);
            let bytes = self.d.kv_bytes(f64::from(tokens));
            let delta = bytes - s.alloc_bytes;
            while self.pool_used + delta > self.cap_limit {
                let last = self.running.len() - 1;
                let victim = self.running.pop()?;
                self.preempt(victim, in_window);
                acc.preempted = true;
                if last == i {
                    return None;
                }
            }
            let r = &mut self.running[i];
            r.alloc_tokens = tokens;
            r.alloc_bytes = bytes;
            self.pool_used += delta;
        }
        self.running[i].sched = n;
        acc.add(self.d, s.computed, n, self.window);
        Some(n)
    }

    /// Builds one step: running sequences in admission order (decodes come first because a sequence still in
    /// prefill is always behind every decoding one), then FCFS admissions. Returns the load, how many
    /// sequences at the front of `running` were scheduled, and whether anything was preempted.
    fn schedule(&mut self, in_window: bool) -> (StepLoad, usize, bool) {
        let mut budget = self.max_tokens;
        let mut acc = StepAcc::default();
        let window = self.window;
        let mut i = 0;
        while i < self.running.len() && budget > 0 {
            // Fast path, almost every sequence in almost every step: one decode token inside its last block.
            // (A slice iterator, not indexing: at opt-level "z" indexing is an out-of-line call.)
            let mut fast = 0;
            for s in self.running[i..].iter_mut() {
                if budget == 0 || s.target.wrapping_sub(s.computed) != 1 || s.computed >= s.alloc_tokens {
                    break;
                }
                s.sched = 1;
                let ctx = s.computed + 1;
                acc.decodes += 1;
                acc.sum_ctx += u64::from(ctx);
                acc.sum_min += u64::from(ctx.min(window));
                budget -= 1;
                fast += 1;
            }
            i += fast;
            if i >= self.running.len() || budget == 0 {
                break;
            }
            match self.schedule_running(i, budget, &mut acc, in_window) {
                Some(n) => {
                    budget -= n;
                    i += 1;
                }
                None => break,
            }
        }
        if i < self.running.len() || acc.preempted {
            let load = acc.finish(&self.cost);
            return (load, i, acc.preempted);
        }
        // vLLM V1 admits new requests only in steps without preemption.
        while budget > 0 && self.running.len() < self.max_batch {
            let Some(front) = self.waiting.front() else { break };
            let n = front.target.saturating_sub(front.computed).clamp(1, budget);
            let tokens = ceil_block(front.computed.saturating_add(n));
            let bytes = self.d.kv_bytes(f64::from(tokens));
            if self.pool_used + bytes > self.cap_limit {
                break; // head-of-line blocking: FCFS
            }
            let Some(mut s) = self.waiting.pop_front() else { break };
            s.alloc_tokens = tokens;
            s.alloc_bytes = bytes;
            s.sched = n;
            self.pool_used += bytes;
            budget -= n;
            acc.add(self.d, s.computed, n, window);
            self.running.push(s);
        }
        (acc.finish(&self.cost), self.running.len(), false)
    }

    /// Ends the step `[now, t_end]`: applies the scheduled tokens, samples, finishes and times out requests
    /// (and, in a prefill-only pool, hands off the sequences that got their first token).
    fn finish_step(&mut self, now: f64, t_end: f64, n_sched: usize, in_window: bool, books: &mut Books) {
        let mut regular = 0u32;
        let mut emitted = 0u64;
        let mut any_done = false;
        let now_bits = now.to_bits();
        let mut min_left = u32::MAX;
        let handoff = self.handoff;
        self.done.clear();
        for (r, s) in self.running[..n_sched].iter_mut().enumerate() {
            s.computed += s.sched;
            s.sched = 0;
            if s.computed >= s.target {
                s.generated += 1;
                s.target += 1;
                emitted += 1;
                if s.generated == 1 {
                    s.first_token = t_end;
                } else if s.measured {
                    if s.last_token.to_bits() == now_bits {
                        regular += 1;
                    } else {
                        books.itl.add(t_end - s.last_token, 1);
                    }
                }
                s.last_token = t_end;
                if s.generated >= s.output || handoff {
                    any_done = true;
                    self.done.push(r as u32);
                }
            }
            min_left = min_left.min(s.output.saturating_sub(s.generated));
        }
        self.min_left = min_left;
        if regular > 0 {
            books.itl.add(t_end - now, regular);
        }
        books.add_tokens(now, emitted, in_window);
        if self.timeout.is_finite() {
            self.retire(t_end, in_window, books);
        } else if any_done {
            self.retire_done(t_end, in_window, books);
        }
    }

    /// A sequence leaves the batch at `t_end`: completed (all its tokens), handed off (prefill-only pool, first
    /// token sampled in time: it keeps its blocks) or aborted (past its deadline).
    #[inline(always)]
    fn depart(&mut self, s: &Seq, t_end: f64, in_window: bool, books: &mut Books) {
        if s.generated >= s.output {
            books.complete(s, t_end, in_window);
        } else if self.handoff && s.generated > 0 && t_end - s.arrival <= self.timeout {
            self.handed.push(*s);
            self.held += 1;
            return;
        } else {
            books.abort(s, t_end);
        }
        self.pool_used -= s.alloc_bytes;
        books.to_issue += 1;
    }

    /// Removes the finished sequences listed in `done` (increasing indices) from the batch, keeping admission
    /// order, and frees their blocks. The runs in between move with one memmove each.
    fn retire_done(&mut self, t_end: f64, in_window: bool, books: &mut Books) {
        let done = std::mem::take(&mut self.done);
        let len = self.running.len();
        let mut write = done.first().map_or(len, |&d| d as usize);
        for (k, &d) in done.iter().enumerate() {
            let d = d as usize;
            let Some(&s) = self.running.get(d) else { break };
            self.depart(&s, t_end, in_window, books);
            let next = done.get(k + 1).map_or(len, |&x| (x as usize).min(len));
            if d + 1 < next {
                self.running.copy_within(d + 1..next, write);
                write += next - d - 1;
            }
        }
        self.running.truncate(write);
        self.done = done;
        self.reset_if_empty();
    }

    /// Removes finished, handed-off and timed-out sequences from the batch (keeping admission order) and frees
    /// their blocks.
    fn retire(&mut self, t_end: f64, in_window: bool, books: &mut Books) {
        let timeout = self.timeout;
        let handoff = self.handoff;
        let gone =
            |s: &Seq| s.generated >= s.output || (handoff && s.generated > 0) || t_end - s.arrival > timeout;
        // Nothing to do (the common case when only timeouts are being watched).
        let Some(first) = self.running.iter().position(gone) else { return };
        let len = self.running.len();
        let (mut read, mut write) = (first, first);
        while read < len {
            // Runs of kept sequences move with one memmove each.
            let run = read;
            read += self.running[read..].iter().position(gone).unwrap_or(len - read);
            if write != run {
                self.running.copy_within(run..read, write);
            }
            write += read - run;
            let Some(&s) = self.running.get(read) else { break };
            read += 1;
            self.depart(&s, t_end, in_window, books);
        }
        self.running.truncate(write);
        self.reset_if_empty();
    }

    /// Adds one step of `dur` seconds carrying `n` sequences to the time-weighted statistics.
    #[inline(always)]
    fn account(&mut self, dur: f64, n: usize, bound: Bound) {
        let kv = self.kv_share();
        let st = &mut self.stats;
        st.busy += dur;
        st.batch_time += dur * n as f64;
        st.kv_time += dur * kv;
        match bound {
            Bound::Memory => st.mem_time += dur,
            Bound::Compute => st.comp_time += dur,
            Bound::Overhead => {}
        }
    }


    /// Fast path for a run of pure decode steps: when every running sequence is decoding and nothing can be
    /// admitted, the batch is the same from step to step except that every context grows by one, until a
    /// request gets its last token, an arrival or a deadline comes, or a limit is hit. Such a run is simulated
    /// without touching each sequence per step: the load comes from the sums of contexts (`Σctx + j·n`), only
    /// the sequences that cross a block boundary in step `j` (every 16th step for each, found by residue)
    /// allocate, and the step times are summed in closed form ([`LinearSteps`]; for short runs, or if the
    /// roofline fails the linearity check, step by step with the normal path's exact float operations —
    /// bit-identical, tested). The run ends with the step that finishes a request (which then leaves, as at
    /// the end of a normal step), or before the first step that would cross the sliding window, fail to
    /// allocate, pass a deadline or an arrival, or exceed a limit; the normal path takes that step. Returns the
    /// steps run.
    pub(super) fn decode_stretch(
        &mut self,
        now: &mut f64,
        steps: &mut u64,
        max_sim: f64,
        max_steps: u64,
        next_arrival: f64,
        books: &mut Books,
    ) -> u64 {
        let n = self.running.len();
        if !self.stretches || n == 0 || n > self.max_tokens as usize || !(self.waiting.is_empty() || n >= self.max_batch)
        {
            return 0;
        }
        if self.min_left <= 1 {
            return 0; // a sequence finishes in the next step (or just did)
        }
        let start = *now;
        let start_bits = start.to_bits();
        // Sequences still prefilling sit at the back of the batch: look there first.
        if let Some(s) = self.running.last() {
            if s.generated == 0 || s.target.wrapping_sub(s.computed) != 1 || s.last_token.to_bits() != start_bits {
                return 0;
            }
        }
        let w = self.window;
        let mut k = max_steps.saturating_sub(*steps);
        let (mut s0, mut m0, mut below, mut n_meas) = (0u64, 0u64, 0u64, 0u32);
        let mut min_arrival = f64::INFINITY;
        for due in &mut self.block_due {
            due.clear();
        }
        for (i, s) in self.running.iter().enumerate() {
            if s.generated == 0
                || s.target.wrapping_sub(s.computed) != 1
                || s.last_token.to_bits() != start_bits
                || s.output <= s.generated
            {
                return 0;
            }
            // The run may end with the step that gives some sequence its last token.
            k = k.min(u64::from(s.output - s.generated));
            let ctx = s.computed + 1;
            if ctx < w {
                below += 1;
                k = k.min(u64::from(w - s.computed));
            }
            // First step at which this sequence needs one more block; later ones come every 16 steps.
            let first_due = s.alloc_tokens.saturating_sub(s.computed);
            if first_due < BLOCK_TOKENS {
                if let Some(due) = self.block_due.get_mut(first_due as usize) {
                    due.push(i as u32);
                }
            } else {
                k = k.min(u64::from(first_due));
            }
            s0 += u64::from(ctx);
            m0 += u64::from(ctx.min(w));
            n_meas += u32::from(s.measured);
            min_arrival = min_arrival.min(s.arrival);
        }
        if k == 0 {
            return 0;
        }
        let front_arrival = self.waiting.front().map_or(f64::INFINITY, |f| f.arrival);
        let in_window = books.in_window(start);
        let nf = n as f64;
        let cost = self.cost;
        // The load of step j: what the normal path would build, with the same float operations.
        let load_at = move |j: u64| {
            let ctx = (s0 + j * n as u64) as f64;
            let min = (m0 + j * below) as f64;
            StepLoad {
                decode_seqs: 0.0 + nf,
                decode_kv_bytes: 0.0 + cost.kv_sum(ctx, min),
                decode_attn_flops: 0.0 + cost.flops_sum(ctx, min),
                ..StepLoad::default()
            }
        };
        let line = if self.linear_steps && k >= 8 {
            let l = LinearSteps::fit(self.d, &load_at, k);
            if l.is_none() {
                self.linear_steps = false;
            }
            l
        } else {
            None
        };
        let limits = StretchLimits { k, max_sim, next_arrival, front_arrival, min_arrival };
        let (j, t) = match line {
            Some(l) => self.stretch_closed_form(&l, start, &limits, n, n_meas, in_window, books),
            None => self.stretch_step_by_step(&load_at, start, &limits, n, n_meas, in_window, books),
        };
        if j > 0 {
            let j32 = j as u32;
            let mut min_left = u32::MAX;
            self.done.clear();
            for (r, s) in self.running.iter_mut().enumerate() {
                s.computed += j32;
                s.target += j32;
                s.generated += j32;
                s.last_token = t;
                if s.generated >= s.output {
                    self.done.push(r as u32);
                }
                min_left = min_left.min(s.output.saturating_sub(s.generated));
            }
            self.min_left = min_left;
            *now = t;
            *steps += j;
            // As at the end of a normal step: requests that got their last token leave (no deadline passed:
            // the run stopped before any would).
            if !self.done.is_empty() {
                self.retire_done(t, in_window, books);
            }
        }
        j
    }

    /// Applies this run's block allocations due at step `j`, in running order, all or nothing; false (and
    /// nothing changed) when the pool cannot take them: the normal path must take that step and preempt.
    fn allocate_due(&mut self, j: u64) -> bool {
        let mut pool = self.pool_used;
        self.pending.clear();
        let j32 = j as u32;
        let Some(due) = self.block_due.get((j % u64::from(BLOCK_TOKENS)) as usize) else { return true };
        for &i in due {
            let Some(s) = self.running.get(i as usize) else { continue };
            let tokens = ceil_block(s.computed + j32 + 1);
            let bytes = self.d.kv_bytes(f64::from(tokens));
            let delta = bytes - s.alloc_bytes;
            if pool + delta > self.cap_limit {
                return false;
            }
            pool += delta;
            self.pending.push((i, tokens, bytes));
        }
        for &(i, tokens, bytes) in &self.pending {
            if let Some(s) = self.running.get_mut(i as usize) {
                s.alloc_tokens = tokens;
                s.alloc_bytes = bytes;
            }
        }
        self.pool_used = pool;
        true
    }

    /// The run of decode steps one by one with [`Deployment::step`]: every float operation is the one the
    /// normal path would do, in the same order (bit-identical; tested). Returns (steps, end time).
    #[allow(clippy::too_many_arguments)]
    fn stretch_step_by_step(
        &mut self,
        load_at: &dyn Fn(u64) -> StepLoad,
        start: f64,
        lim: &StretchLimits,
        n: usize,
        n_meas: u32,
        in_window: bool,
        books: &mut Books,
    ) -> (u64, f64) {
        let mut t = start;
        let mut j = 0u64;
        while j < lim.k {
            // The checks the loop top would make before this step.
            if t > lim.max_sim || lim.next_arrival <= t || t - lim.front_arrival > self.timeout {
                break;
            }
            let c = self.d.step(&load_at(j));
            let dur = c.seconds;
            if !(dur.is_finite() && dur >= 0.0) {
                break;
            }
            let t_end = t + dur;
            if t_end - lim.min_arrival > self.timeout || !self.allocate_due(j) {
                break;
            }
            if in_window {
                self.account(dur, n, c.bound);
            }
            books.add_tokens(t, n as u64, in_window);
            books.itl.add(t_end - t, n_meas);
            t = t_end;
            j += 1;
        }
        (j, t)
    }

    /// The run of decode steps in closed form ([`LinearSteps`]): the number of steps before the first deadline
    /// by bisection, block allocations one by one, every sum (elapsed time, bound time, KV-weighted time,
    /// inter-token gaps) as arithmetic series. Agrees with the step-by-step path to rounding. Returns (steps,
    /// end time).
    #[allow(clippy::too_many_arguments)]
    fn stretch_closed_form(
        &mut self,
        l: &LinearSteps,
        start: f64,
        lim: &StretchLimits,
        n: usize,
        n_meas: u32,
        in_window: bool,
        books: &mut Books,
    ) -> (u64, f64) {
        let timeout = self.timeout;
        // Step j may run if it starts in time and ends before a running request's deadline; both times grow
        // with j, so the steps allowed are a prefix 0..j_max.
        let allowed = |j: u64| {
            let t = start + l.elapsed(0, j);
            let t_end = t + l.elapsed(j, j + 1);
            let late = t > lim.max_sim
                || lim.next_arrival <= t
                || t - lim.front_arrival > timeout
                || t_end - lim.min_arrival > timeout;
            !late
        };
        let (mut lo, mut hi) = (0u64, lim.k); // allowed(j) for all j < lo; not allowed at hi (or hi = k)
        if lim.k > 0 && allowed(lim.k - 1) {
            lo = lim.k; // the usual case: the run ends with a request finishing, not at a deadline
        }
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if allowed(mid) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let mut j_max = lo;
        // Block allocations in step order; the first that does not fit ends the run before its step.
        let mut residues = [0u64; BLOCK_TOKENS as usize];
        let mut n_res = 0;
        for (r, due) in self.block_due.iter().enumerate() {
            if !due.is_empty() {
                residues[n_res] = r as u64;
                n_res += 1;
            }
        }
        let mut util = self.kv_share();
        let mut kv_weighted = 0.0;
        let mut seg_start = 0u64;
        let mut base = 0u64;
        'events: while base < j_max && n_res > 0 {
            for &r in &residues[..n_res] {
                let j = base + r;
                if j >= j_max {
                    break 'events;
                }
                if !self.allocate_due(j) {
                    j_max = j;
                    break 'events;
                }
                kv_weighted += util * l.elapsed(seg_start, j);
                seg_start = j;
                util = self.kv_share();
            }
            base += u64::from(BLOCK_TOKENS);
        }
        let elapsed = l.elapsed(0, j_max);
        if in_window && j_max > 0 {
            kv_weighted += util * l.elapsed(seg_start, j_max);
            let (mem, comp) = l.bound_seconds(0, j_max);
            let st = &mut self.stats;
            st.busy += elapsed;
            st.batch_time += elapsed * n as f64;
            st.kv_time += kv_weighted;
            st.mem_time += mem;
            st.comp_time += comp;
        }
        books.add_tokens(start, n as u64 * j_max, in_window);
        l.add_gaps(&mut books.itl, 0, j_max, n_meas);
        (j_max, start + elapsed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::roofline::tests::h100_llama8b;
    use crate::sim::Percentiles;

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

    #[track_caller]
    fn assert_close(a: &SimResult, b: &SimResult) {
        assert_eq!(
            (a.completed, a.rejected, a.timed_out, a.preemptions, a.saturated),
            (b.completed, b.rejected, b.timed_out, b.preemptions, b.saturated),
            "{a:?}\n{b:?}"
        );
        let close = |x: f64, y: f64, tol: f64| (x - y).abs() <= tol * x.abs().max(y.abs()) + 1e-12;
        let pct = |p: Percentiles| [p.mean, p.p50, p.p90, p.p95, p.p99];
        let fa = [a.duration_s, a.system_output_tps, a.request_throughput, a.mean_batch, a.mean_kv_utilization, a.goodput_rps];
        let fb = [b.duration_s, b.system_output_tps, b.request_throughput, b.mean_batch, b.mean_kv_utilization, b.goodput_rps];
        for (x, y) in fa.into_iter().zip(fb) {
            assert!(close(x, y, 1e-9), "{a:?}\n{b:?}");
        }
        for (p, q) in [(a.ttft_ms, b.ttft_ms), (a.tpot_ms, b.tpot_ms), (a.e2e_ms, b.e2e_ms)] {
            for (x, y) in pct(p).into_iter().zip(pct(q)) {
                assert!(close(x, y, 1e-9), "{a:?}\n{b:?}");
            }
        }
        // ITL goes through 0.1 % buckets: an ulp can move a sample across a bucket edge.
        for (x, y) in pct(a.itl_ms).into_iter().zip(pct(b.itl_ms)) {
            assert!(close(x, y, 2e-3), "{a:?}\n{b:?}");
        }
        // A step at the memory/compute ridge may be classified either way.
        assert!((a.memory_bound_fraction - b.memory_bound_fraction).abs() < 1e-3);
        assert!((a.compute_bound_fraction - b.compute_bound_fraction).abs() < 1e-3);
    }

    #[test]
    fn fast_path_is_bit_identical_to_plain_stepping() {
        use crate::sim::{Arrivals, LengthDist, SimConfig};
        let base = h100_llama8b();
        let mut tight = base.clone();
        tight.hardware.memory_gb = (tight.weight_bytes() + 2e9 + 6.0 * tight.kv_bytes(1600.0)) / 0.9 / 1e9;
        let mut sliding = base.clone();
        sliding.model.attention = Attention::Sliding { window: 300, local_fraction: 0.5 };
        let mut small_budget = base.clone();
        small_budget.engine.max_batched_tokens = 40;
        small_budget.engine.max_batch = 24;
        let targets = Targets { ttft_ms: 500.0, tpot_ms: 10.0 };
        let fixed = SimConfig { requests: 300, ..SimConfig::default() };
        let varied = SimConfig {
            requests: 300,
            prompt: LengthDist::LogNormal { mean: 600.0, cv: 1.0 },
            output: LengthDist::Uniform { min: 1.0, max: 300.0 },
            ..SimConfig::default()
        };
        let cases = [
            (&base, SimConfig { arrivals: Arrivals::Closed { concurrency: 1 }, ..fixed }),
            (&base, SimConfig { arrivals: Arrivals::Closed { concurrency: 64 }, ..fixed }),
            (&base, SimConfig { arrivals: Arrivals::Closed { concurrency: 48 }, ..varied }),
            (&base, SimConfig { arrivals: Arrivals::Poisson { rate_per_s: 30.0, burstiness: 0.5 }, ..varied }),
            (&base, SimConfig { arrivals: Arrivals::Poisson { rate_per_s: 200.0, burstiness: 1.0 }, timeout_s: Some(3.0), ..varied }),
            (&base, SimConfig { arrivals: Arrivals::Poisson { rate_per_s: 200.0, burstiness: 1.0 }, queue_limit: Some(20), ..fixed }),
            (&tight, SimConfig { arrivals: Arrivals::Closed { concurrency: 12 }, ..varied }),
            (&tight, SimConfig { arrivals: Arrivals::Closed { concurrency: 12 }, ..fixed }),
            (&sliding, SimConfig { arrivals: Arrivals::Closed { concurrency: 8 }, ..varied }),
            (&small_budget, SimConfig { arrivals: Arrivals::Closed { concurrency: 32 }, ..varied }),
            (&base, SimConfig { arrivals: Arrivals::Closed { concurrency: 4 }, max_steps: 5000, ..fixed }),
            (&base, SimConfig { arrivals: Arrivals::Closed { concurrency: 4 }, max_sim_seconds: 7.0, ..fixed }),
        ];
        for (d, c) in cases {
            let slow = run_with(d, &c, &targets, false, false);
            let exact = run_with(d, &c, &targets, true, false);
            assert_eq!(exact, slow, "{c:?}");
            let fast = run_with(d, &c, &targets, true, true);
            assert_close(&fast, &slow);
        }
    }

    #[test]
    fn blocks_round_up() {
        assert_eq!(ceil_block(0), 0);
        assert_eq!(ceil_block(1), 16);
        assert_eq!(ceil_block(16), 16);
        assert_eq!(ceil_block(17), 32);
        assert_eq!(ceil_block(u32::MAX), u32::MAX);
    }
}
