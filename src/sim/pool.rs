//! The batch engine: one pool of devices running iteration-level continuous batching (see the module docs of
//! [`super`]) — its running batch, its waiting queue and its KV blocks.
//!
//! State kept small and allocation-free per step: running sequences in a `Vec` in admission order, the waiting
//! queue in a `VecDeque` (preempted sequences go to its front), the KV pool as a byte counter. Every sequence
//! follows the vLLM V1 token model ([`Seq`]); a prefill, a chunk of it, a decode and a recompute after
//! preemption are all the same operation — which is why the same [`Pool`] also serves as the prefill pool
//! (sequences leave after their first token) and as the decode pool (sequences arrive with their prompt
//! already computed) of disaggregated serving ([`super::disagg`]).
//!
//! This file holds the pool's state, its KV blocks (fit, allocation on admission, preemption, release) and the
//! sequences leaving the batch. The scheduler step ([`Pool::step`]) is in [`schedule`], the closed-form run of
//! pure decode steps ([`Pool::decode_stretch`]) in [`stretch`].
//!
//! The pool reports completions, timeouts and the closed-loop users to wake to the [`Books`]; the event loop
//! that owns the entry queue issues the next requests.

mod schedule;
mod stretch;

use super::books::Books;
use super::cost::DecodeCost;
use super::seq::Seq;
use super::stats::BusyStats;
use crate::model::llm::Attention;
use crate::model::roofline::{Bound, Deployment};
use std::collections::VecDeque;

/// Tokens per KV-cache block (vLLM's default `block_size`).
pub const BLOCK_TOKENS: u32 = 16;
/// Relative slack when comparing KV bytes with the pool, so that a pool that fits exactly `n` blocks does.
const FIT_SLACK: f64 = 1e-9;

/// Rounds a token count up to whole blocks.
fn ceil_block(tokens: u32) -> u32 {
    let blocks = u64::from(tokens).div_ceil(u64::from(BLOCK_TOKENS));
    u32::try_from(blocks * u64::from(BLOCK_TOKENS)).unwrap_or(u32::MAX)
}

/// Which parts of the pure-decode fast path a pool may take ([`Pool::decode_stretch`]). Both are on in every
/// real run; tests switch them off to check the fast path against plain stepping (the results must be
/// identical).
#[derive(Debug, Clone, Copy)]
pub(super) struct FastPath {
    /// Runs of pure decode steps are simulated as one stretch.
    pub(super) stretches: bool,
    /// A stretch may interpolate step times instead of evaluating every step ([`super::linear::LinearSteps`]).
    pub(super) linear: bool,
}

impl FastPath {
    /// Everything on.
    pub(super) const ON: Self = Self { stretches: true, linear: true };
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

/// One pool of devices serving with continuous batching: the batch, its waiting queue and its KV pool.
pub(super) struct Pool<'a> {
    d: &'a Deployment,
    cost: DecodeCost,
    /// Sliding window in tokens (`u32::MAX` when attention is not windowed).
    window: u32,
    /// KV pool size with slack, bytes.
    cap_limit: f64,
    pool_used: f64,
    running: Vec<Seq>,
    pub(super) waiting: VecDeque<Seq>,
    max_batch: usize,
    /// Tokens one step may carry: the engine's budget, or a pipeline's per micro-batch times its stages (a round
    /// of n micro-batches, each with its own budget).
    max_tokens: u32,
    /// Tokens of one sequence's prompt one step may carry (one micro-batch's budget).
    chunk_cap: u32,
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
    stretches: bool,
    /// Whether the fast path may interpolate step times instead of evaluating every step
    /// ([`super::linear::LinearSteps`]); switched off for the rest of the run if the roofline ever fails the
    /// check.
    linear_steps: bool,
    /// Scratch for the fast path: running indices by the step (mod 16) at which they need a new block.
    block_due: Vec<Vec<u32>>,
    /// Scratch for the fast path: allocations of the current step (index, tokens, bytes).
    pending: Vec<(u32, u32, f64)>,
    /// Scratch: indices in `running` of the sequences that finished in the current step.
    done: Vec<u32>,
    /// Fewest output tokens still to generate among the sequences of the last normal step, finished ones
    /// included (0): a decode stretch is impossible while it is ≤ 1.
    min_left: u32,
    /// Micro-batches of the current llama.cpp batch already pipelined through a layer split ([`Pool::pipelining`]).
    in_flight: u32,
    /// Preemptions during the measurement window.
    pub(super) preemptions: u32,
    /// Admission holds a request's KV blocks for its whole length (llama.cpp's slots: a request is served only where
    /// its full context fits, and nothing is ever preempted), not only its first chunk's (vLLM's paged cache).
    reserve_full: bool,
    /// Prompt steps pause the decodes (SGLang's own scheduler, `EngineParams::mixed_batches` off): while a prompt is being
    /// read or one waiting can be admitted, a step carries prompt tokens only, as SGLang's scheduler runs a prefill
    /// batch whenever it can form one and decodes otherwise. Off: decodes ride along with the prompt chunks
    /// (vLLM V1's chunked prefill). Colocated pools only.
    pub(super) prefill_first: bool,
    pub(super) stats: BusyStats,
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
            max_tokens: d
                .engine
                .max_batched_tokens
                .max(1)
                .saturating_mul(if d.hardware.parallelism == crate::model::hardware::Parallelism::Pipeline { d.hardware.devices.max(1) } else { 1 }),
            chunk_cap: d.chunk_tokens(),
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
            in_flight: 0,
            preemptions: 0,
            reserve_full: d.engine.kind == crate::model::engine::EngineKind::LlamaCpp,
            prefill_first: false,
            stats: BusyStats::default(),
        }
    }

    /// Makes this a prefill-only pool: sequences leave after their first token, into `handed`, keeping their
    /// blocks until [`Pool::release`].
    pub(super) fn prefill_only(mut self) -> Self {
        self.handoff = true;
        self
    }

    /// Sets which parts of the pure-decode fast path this pool may take.
    pub(super) fn with_fast_path(mut self, fast: FastPath) -> Self {
        self.stretches = fast.stretches;
        self.linear_steps = fast.linear;
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

    /// Returns a running sequence to the front of the waiting queue, freeing its blocks (recompute preemption).
    fn preempt(&mut self, mut s: Seq, in_window: bool) {
        // A prompt being read may be the one evicted: the next batch of a layer split starts afresh.
        self.in_flight = 0;
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
        let gone = |s: &Seq| s.generated >= s.output || (handoff && s.generated > 0) || t_end - s.arrival > timeout;
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_round_up() {
        assert_eq!(ceil_block(0), 0);
        assert_eq!(ceil_block(1), 16);
        assert_eq!(ceil_block(16), 16);
        assert_eq!(ceil_block(17), 32);
        assert_eq!(ceil_block(u32::MAX), u32::MAX);
    }
}
