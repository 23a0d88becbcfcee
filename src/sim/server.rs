//! The event loop: one iteration-level continuous-batching server (see the module docs of [`super`]).
//!
//! State kept small and allocation-free per step: running sequences in a `Vec` in admission order, the waiting
//! queue in a `VecDeque` (preempted sequences go to its front), the KV pool as a byte counter. Every sequence
//! follows the vLLM V1 token model: `computed` tokens are in the KV cache, `target` tokens are known (prompt
//! plus sampled output); a step schedules `min(target − computed, budget)` of them; when `computed` reaches
//! `target` the step samples one token. A prefill, a chunk of it, a decode and a recompute after preemption are
//! all the same operation.

use super::dist::{arrival_gap, Arrivals, LengthDist, MAX_TOKENS};
use super::rng::{splitmix64, Rng};
use super::stats::Percentiles;
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
    let blocks = (u64::from(tokens) + u64::from(BLOCK_TOKENS) - 1) / u64::from(BLOCK_TOKENS);
    u32::try_from(blocks * u64::from(BLOCK_TOKENS)).unwrap_or(u32::MAX)
}

/// Per-decode-token KV bytes and attention FLOPs as functions of context, in the closed form
/// `g·ctx + l·min(ctx, window)` (exact for every [`Attention`] kind: full and MLA are linear, a sliding window
/// caps the local layers), with coefficients taken from [`crate::model::kv`] so the formulas live in one place.
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
        let kv_g = kv::bytes_per_token_global(m, e);
        match m.attention {
            Attention::Full | Attention::Mla { .. } => Self {
                kv_g,
                kv_l: 0.0,
                fl_g: kv::attention_flops_per_token(m, 1.0),
                fl_l: 0.0,
            },
            Attention::Sliding { window, .. } => {
                let w = f64::from(window);
                let kv_l = kv::bytes_per_token(m, e) - kv_g;
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

/// One request's state, moved between the waiting queue and the running batch.
#[derive(Debug, Clone, Copy)]
struct Seq {
    arrival: f64,
    first_token: f64,
    last_token: f64,
    /// Bytes of KV blocks held.
    alloc_bytes: f64,
    /// Tokens covered by the blocks held (a multiple of [`BLOCK_TOKENS`]).
    alloc_tokens: u32,
    /// Tokens whose KV is in the cache (starts at `base`, the prefix-cached part).
    computed: u32,
    /// Tokens known: base + uncached prompt + sampled output.
    target: u32,
    /// Prefix-cached tokens (context depth + prefix hits), never recomputed.
    base: u32,
    /// Output tokens to generate.
    output: u32,
    /// Output tokens sampled so far.
    generated: u32,
    /// Tokens scheduled in the current step.
    sched: u32,
    /// Counts towards the statistics (not warm-up, not filler).
    measured: bool,
}

/// The simulation state.
struct Server<'a> {
    d: &'a Deployment,
    cost: DecodeCost,
    /// Sliding window in tokens (`u32::MAX` when attention is not windowed).
    window: u32,
    targets: Targets,
    /// KV pool size with slack, bytes.
    cap_limit: f64,
    pool_used: f64,
    running: Vec<Seq>,
    waiting: VecDeque<Seq>,

    max_batch: usize,
    max_tokens: u32,
    timeout: f64,
    queue_limit: usize,
    depth: u32,
    hit_rate: f64,
    prompt: LengthDist,
    output: LengthDist,
    len_rng: Rng,
    arr_rng: Rng,
    closed: bool,
    concurrency: u32,
    rate: f64,
    burstiness: f64,
    next_arrival: f64,

    issued: u64,
    issue_cap: u64,
    warmup: u64,
    measured_end: u64,
    n_measured: u64,
    resolved: u64,
    /// Requests whose issue must wait until the current pass over `running` is over (closed loop).
    to_issue: u32,

    window_start: f64,
    window_end: f64,
    q_mid_index: u64,
    q_mid: Option<usize>,
    q_end: Option<usize>,

    ttft: Vec<f64>,
    e2e: Vec<f64>,
    tpot: Vec<f64>,
    itl: Vec<(f64, u32)>,
    completed: u32,
    rejected: u32,
    timed_out: u32,
    preemptions: u32,
    good: u32,
    tokens_in_window: u64,
    completions_in_window: u64,
    busy: f64,
    batch_time: f64,
    kv_time: f64,
    mem_time: f64,
    comp_time: f64,
}

/// An all-zero result (nothing could be simulated).
pub(super) fn empty(saturated: bool) -> SimResult {
    SimResult { saturated, ..SimResult::default() }
}

/// Context depth as whole tokens in `[0, MAX_TOKENS]`.
fn depth_tokens(x: f64) -> u32 {
    if x.is_nan() || x <= 0.0 {
        0
    } else if x >= f64::from(MAX_TOKENS) {
        MAX_TOKENS
    } else {
        x.round() as u32
    }
}

/// Runs the simulation; see [`super::simulate`].
pub(super) fn run(d: &Deployment, cfg: &SimConfig, targets: &Targets) -> SimResult {
    if !d.fits() {
        return empty(true);
    }
    let requests = cfg.requests.min(MAX_REQUESTS);
    if requests == 0 {
        return empty(false);
    }
    let (closed, concurrency, rate, burstiness) = match cfg.arrivals {
        Arrivals::Closed { concurrency } => (true, concurrency.clamp(1, MAX_CONCURRENCY), 0.0, 1.0),
        Arrivals::Poisson { rate_per_s, burstiness } => {
            if rate_per_s.is_nan() || rate_per_s <= 0.0 {
                return empty(false);
            }
            (false, 0, rate_per_s, if burstiness > 0.0 { burstiness } else { 1.0 })
        }
    };
    let mut server = Server::new(d, cfg, targets, requests, closed, concurrency, rate, burstiness);
    // The smallest possible request must fit in the KV pool alone, or nothing can ever run.
    let (base, prompt_new) = server.split_prompt(cfg.prompt.min_tokens());
    let smallest = base.saturating_add(prompt_new).saturating_add(cfg.output.min_tokens());
    if !server.fits_alone(smallest) {
        return empty(true);
    }
    let max_sim = if cfg.max_sim_seconds.is_nan() { f64::INFINITY } else { cfg.max_sim_seconds };
    let (truncated, now) = server.simulate(max_sim, cfg.max_steps);
    server.result(truncated, now)
}

impl<'a> Server<'a> {
    #[allow(clippy::too_many_arguments)]
    fn new(
        d: &'a Deployment,
        cfg: &SimConfig,
        targets: &Targets,
        requests: u32,
        closed: bool,
        concurrency: u32,
        rate: f64,
        burstiness: f64,
    ) -> Self {
        let requests = u64::from(requests);
        let mut warmup = requests / 10;
        if closed {
            warmup = warmup.max(u64::from(concurrency).min(requests));
        }
        // Fillers after the measured requests keep the load up until the last measured one ends; they are
        // capped so that no configuration can issue requests without bound.
        let issue_cap = warmup + 3 * requests;
        // Two independent streams: lengths do not depend on the arrival process, so load levels of a sweep
        // that share a seed see the same requests (common random numbers: smoother curves).
        let mut sm = cfg.seed;
        let len_rng = Rng::new(splitmix64(&mut sm));
        let arr_rng = Rng::new(splitmix64(&mut sm));
        let in_flight = if closed { concurrency.min(4096) as usize } else { 256 };
        Server {
            d,
            cost: DecodeCost::new(d),
            window: match d.model.attention {
                Attention::Sliding { window, .. } => window,
                _ => u32::MAX,
            },
            targets: *targets,
            cap_limit: d.kv_budget_bytes() * (1.0 + FIT_SLACK),
            pool_used: 0.0,
            running: Vec::with_capacity(d.engine.max_batch.clamp(1, 4096) as usize),
            waiting: VecDeque::with_capacity(in_flight),
            max_batch: d.engine.max_batch.max(1) as usize,
            max_tokens: d.engine.max_batched_tokens.max(1),
            timeout: match cfg.timeout_s {
                Some(t) if !t.is_nan() => t,
                _ => f64::INFINITY,
            },
            queue_limit: cfg.queue_limit.map_or(usize::MAX, |q| q as usize),
            depth: depth_tokens(cfg.context_depth),
            hit_rate: if cfg.prefix_hit_rate.is_nan() { 0.0 } else { cfg.prefix_hit_rate.clamp(0.0, 1.0) },
            prompt: cfg.prompt,
            output: cfg.output,
            len_rng,
            arr_rng,
            closed,
            concurrency,
            rate,
            burstiness,
            next_arrival: 0.0,
            issued: 0,
            issue_cap,
            warmup,
            measured_end: warmup + requests,
            n_measured: requests,
            resolved: 0,
            to_issue: 0,
            window_start: f64::INFINITY,
            window_end: f64::NAN,
            q_mid_index: warmup + requests / 2,
            q_mid: None,
            q_end: None,
            ttft: Vec::with_capacity(requests as usize),
            e2e: Vec::with_capacity(requests as usize),
            tpot: Vec::with_capacity(requests as usize),
            itl: Vec::with_capacity(1024),
            completed: 0,
            rejected: 0,
            timed_out: 0,
            preemptions: 0,
            good: 0,
            tokens_in_window: 0,
            completions_in_window: 0,
            busy: 0.0,
            batch_time: 0.0,
            kv_time: 0.0,
            mem_time: 0.0,
            comp_time: 0.0,
        }
    }

    /// `(base, prompt_new)`: prefix-cached tokens (depth + hits) and tokens to prefill (at least 1: the last
    /// prompt token is always computed to get the logits of the first output token, as vLLM does on a full hit).
    fn split_prompt(&self, prompt: u32) -> (u32, u32) {
        let hit = ((f64::from(prompt) * self.hit_rate).floor() as u32).min(prompt.saturating_sub(1));
        (self.depth.saturating_add(hit), prompt - hit)
    }

    /// Whether a sequence of `tokens` tokens fits in the KV pool on its own.
    fn fits_alone(&self, tokens: u32) -> bool {
        self.d.kv_bytes(f64::from(ceil_block(tokens))) <= self.cap_limit
    }

    /// Marks one measured request as finished (completed, rejected or timed out) at time `t`.
    fn resolve(&mut self, t: f64) {
        self.resolved += 1;
        if self.resolved == self.n_measured {
            self.window_end = t;
        }
    }

    /// Creates request number `issued` arriving at `t`; returns false when it was rejected.
    fn issue(&mut self, t: f64) -> bool {
        let index = self.issued;
        self.issued += 1;
        let measured = index >= self.warmup && index < self.measured_end;
        if index == self.warmup {
            self.window_start = t;
        }
        let prompt = self.prompt.sample(&mut self.len_rng);
        let output = self.output.sample(&mut self.len_rng);
        let (base, prompt_new) = self.split_prompt(prompt);
        let total = base.saturating_add(prompt_new).saturating_add(output);
        let accepted = self.waiting.len() < self.queue_limit && self.fits_alone(total);
        if accepted {
            self.waiting.push_back(Seq {
                arrival: t,
                first_token: t,
                last_token: t,
                alloc_bytes: 0.0,
                alloc_tokens: 0,
                computed: base,
                target: base + prompt_new,
                base,
                output,
                generated: 0,
                sched: 0,
                measured,
            });
        } else if measured {
            self.rejected += 1;
            self.resolve(t);
        }
        if !self.closed {
            if index == self.q_mid_index {
                self.q_mid = Some(self.waiting.len());
            }
            if index + 1 == self.measured_end {
                self.q_end = Some(self.waiting.len());
            }
        }
        accepted
    }

    /// Closed loop: a user sends its next request at `t` (and again at once if it is rejected).
    fn user_next(&mut self, t: f64) {
        while self.issued < self.issue_cap && !self.issue(t) {}
    }

    /// Open loop: every arrival up to `now` joins the queue.
    fn arrivals_until(&mut self, now: f64) {
        while self.issued < self.issue_cap && self.next_arrival <= now {
            let t = self.next_arrival;
            self.issue(t);
            self.next_arrival = t + arrival_gap(&mut self.arr_rng, self.rate, self.burstiness);
        }
    }

    /// Closed loop: the users whose requests ended in the last pass send their next ones.
    fn flush_issues(&mut self, t: f64) {
        let n = std::mem::take(&mut self.to_issue);
        if self.closed {
            for _ in 0..n {
                self.user_next(t);
            }
        }
    }

    /// Drops waiting requests at the head of the queue whose deadline has passed (the client gave up).
    fn expire_waiting(&mut self, now: f64) {
        while let Some(front) = self.waiting.front() {
            if now - front.arrival <= self.timeout {
                break;
            }
            let measured = front.measured;
            self.waiting.pop_front();
            if measured {
                self.timed_out += 1;
                self.resolve(now);
            }
            self.to_issue += 1;
        }
        self.flush_issues(now);
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
                let Some(victim) = self.running.pop() else { return None };
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
            let s = &mut self.running[i];
            if s.target - s.computed == 1 && s.computed < s.alloc_tokens {
                s.sched = 1;
                let ctx = s.computed + 1;
                acc.decodes += 1;
                acc.sum_ctx += u64::from(ctx);
                acc.sum_min += u64::from(ctx.min(window));
                budget -= 1;
                i += 1;
                continue;
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

    /// A sequence produced its last token at `t`.
    fn complete(&mut self, s: &Seq, t: f64, in_window: bool) {
        let e2e = t - s.arrival;
        let ok = e2e <= self.timeout;
        if in_window && ok {
            self.completions_in_window += 1;
        }
        if !s.measured {
            return;
        }
        if ok {
            self.completed += 1;
            let ttft = s.first_token - s.arrival;
            self.ttft.push(ttft);
            self.e2e.push(e2e);
            let mut meets = !(ttft * 1e3 > self.targets.ttft_ms);
            if s.output >= 2 {
                let tpot = (t - s.first_token) / f64::from(s.output - 1);
                self.tpot.push(tpot);
                meets &= !(tpot * 1e3 > self.targets.tpot_ms);
            }
            if meets {
                self.good += 1;
            }
        } else {
            self.timed_out += 1;
        }
        self.resolve(t);
    }

    /// Ends the step `[now, t_end]`: applies the scheduled tokens, samples, finishes and times out requests.
    fn finish_step(&mut self, now: f64, t_end: f64, n_sched: usize, in_window: bool) {
        let mut regular = 0u32;
        let mut emitted = 0u64;
        let mut any_done = false;
        let now_bits = now.to_bits();
        for s in &mut self.running[..n_sched] {
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
                        self.itl.push((t_end - s.last_token, 1));
                    }
                }
                s.last_token = t_end;
                any_done |= s.generated >= s.output;
            }
        }
        if regular > 0 {
            self.itl.push((t_end - now, regular));
        }
        if in_window {
            self.tokens_in_window += emitted;
        }
        if any_done || self.timeout.is_finite() {
            self.retire(t_end, in_window);
        }
        self.flush_issues(t_end);
    }

    /// Removes finished and timed-out sequences from the batch (keeping admission order) and frees their blocks.
    fn retire(&mut self, t_end: f64, in_window: bool) {
        let mut kept = 0;
        for r in 0..self.running.len() {
            let s = self.running[r];
            let done = s.generated >= s.output;
            if done {
                self.complete(&s, t_end, in_window);
            } else if t_end - s.arrival > self.timeout {
                if s.measured {
                    self.timed_out += 1;
                    self.resolve(t_end);
                }
            } else {
                self.running[kept] = s;
                kept += 1;
                continue;
            }
            self.pool_used -= s.alloc_bytes;
            self.to_issue += 1;
        }
        self.running.truncate(kept);
        if self.running.is_empty() {
            self.pool_used = 0.0; // no drift from adding and removing floats
        }
    }

    /// The event loop. Returns (truncated, time at the end).
    fn simulate(&mut self, max_sim: f64, max_steps: u64) -> (bool, f64) {
        let mut now = 0.0_f64;
        let mut steps = 0u64;
        if self.closed {
            for _ in 0..self.concurrency {
                if self.issued >= self.issue_cap {
                    break;
                }
                self.user_next(0.0);
            }
        }
        loop {
            if !self.closed {
                self.arrivals_until(now);
            }
            if self.resolved >= self.n_measured {
                return (false, now);
            }
            if steps >= max_steps || now > max_sim {
                return (true, now);
            }
            self.expire_waiting(now);
            if self.running.is_empty() && self.waiting.is_empty() {
                if !self.closed && self.issued < self.issue_cap && self.next_arrival.is_finite() {
                    now = now.max(self.next_arrival);
                    continue;
                }
                // Nothing left to run yet requests unresolved: cannot happen, but never spin.
                return (true, now);
            }
            steps += 1;
            let in_window = now >= self.window_start;
            let (load, n_sched, preempted) = self.schedule(in_window);
            if n_sched == 0 {
                if preempted {
                    continue; // the next pass admits from the queue
                }
                return (true, now); // no progress possible (guard; should not happen)
            }
            let cost = self.d.step(&load);
            let dur = cost.seconds;
            if !(dur.is_finite() && dur >= 0.0) {
                return (true, now);
            }
            if in_window {
                self.busy += dur;
                self.batch_time += dur * n_sched as f64;
                self.kv_time += dur * (self.pool_used / self.cap_limit).clamp(0.0, 1.0);
                match cost.bound {
                    Bound::Memory => self.mem_time += dur,
                    Bound::Compute => self.comp_time += dur,
                    Bound::Overhead => {}
                }
            }
            let t_end = now + dur;
            self.finish_step(now, t_end, n_sched, in_window);
            now = t_end;
        }
    }

    /// Summarises the run.
    fn result(mut self, truncated: bool, now: f64) -> SimResult {
        let end = if self.window_end.is_nan() { now } else { self.window_end };
        let duration = if self.window_start.is_finite() && end > self.window_start { end - self.window_start } else { 0.0 };
        let per_s = |x: f64| if duration > 0.0 { x / duration } else { 0.0 };
        let busy_share = |x: f64| if self.busy > 0.0 { x / self.busy } else { 0.0 };
        // Open loop: the queue grew between the middle and the end of the measured arrivals by more than a
        // tenth of the arrivals in between: arrivals outpace service, latencies depend on the run length.
        let growing = match (self.q_mid, self.q_end) {
            (Some(mid), Some(end)) if end > mid => {
                let grew = (end - mid) as f64;
                let arrivals = (self.measured_end - 1).saturating_sub(self.q_mid_index) as f64;
                grew >= 5.0 && grew > 0.1 * arrivals
            }
            _ => false,
        };
        SimResult {
            completed: self.completed,
            rejected: self.rejected,
            timed_out: self.timed_out,
            preemptions: self.preemptions,
            duration_s: duration,
            system_output_tps: per_s(self.tokens_in_window as f64),
            request_throughput: per_s(self.completions_in_window as f64),
            ttft_ms: Percentiles::of(&mut self.ttft).scaled(1e3),
            tpot_ms: Percentiles::of(&mut self.tpot).scaled(1e3),
            itl_ms: Percentiles::of_weighted(&mut self.itl).scaled(1e3),
            e2e_ms: Percentiles::of(&mut self.e2e).scaled(1e3),
            mean_batch: busy_share(self.batch_time),
            mean_kv_utilization: busy_share(self.kv_time),
            memory_bound_fraction: busy_share(self.mem_time),
            compute_bound_fraction: busy_share(self.comp_time),
            saturated: truncated || growing || self.completed == 0,
            goodput_rps: per_s(f64::from(self.good)),
        }
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
        for a in kinds {
            d.model.attention = a;
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

    #[test]
    fn blocks_round_up() {
        assert_eq!(ceil_block(0), 0);
        assert_eq!(ceil_block(1), 16);
        assert_eq!(ceil_block(16), 16);
        assert_eq!(ceil_block(17), 32);
        assert_eq!(ceil_block(u32::MAX), u32::MAX);
    }
}
