//! The closed-form run of pure decode steps of a [`Pool`] (see the end of "Algorithm" in the module docs of
//! [`crate::sim`]).
//!
//! When every running sequence decodes and nothing can be admitted, arrive or time out, a step differs from
//! the one before only by one token of context per sequence. [`Pool::decode_stretch`] then runs many such
//! steps at once: the load of step `j` from the sums of contexts, the block allocations by residue (each
//! sequence needs a new block every 16th step), the step times either one by one with the normal path's exact
//! float operations or summed in closed form ([`LinearSteps`]).

use super::{ceil_block, Pool, BLOCK_TOKENS};
use crate::model::roofline::StepLoad;
use crate::sim::books::Books;
use crate::sim::linear::LinearSteps;

/// What ends a run of decode steps early (besides block allocations), see [`Pool::decode_stretch`].
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

impl Pool<'_> {
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
    pub(in crate::sim) fn decode_stretch(
        &mut self,
        now: &mut f64,
        steps: &mut u64,
        max_sim: f64,
        max_steps: u64,
        next_arrival: f64,
        books: &mut Books,
    ) -> u64 {
        let n = self.running.len();
        if !self.stretches || n == 0 || n > self.max_tokens as usize || !(self.waiting.is_empty() || n >= self.max_batch) {
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
            if s.generated == 0 || s.target.wrapping_sub(s.computed) != 1 || s.last_token.to_bits() != start_bits || s.output <= s.generated {
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
            let late = t > lim.max_sim || lim.next_arrival <= t || t - lim.front_arrival > timeout || t_end - lim.min_arrival > timeout;
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
