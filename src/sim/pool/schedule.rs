//! The scheduler step of a [`Pool`]: build one batch as the vLLM V1 scheduler does (running sequences first,
//! blocks allocated as they grow, preemption from the back of the batch when the KV pool is full, then FCFS
//! admissions in steps without preemption), time it with the roofline, and apply its outcome (tokens computed
//! and sampled, first tokens, inter-token gaps, departures). See steps 1–5 of the module docs of
//! [`crate::sim`].

use super::{ceil_block, Pool, Step};
use crate::model::hardware::Parallelism;
use crate::model::roofline::StepLoad;
use crate::sim::books::Books;
use crate::sim::cost::StepAcc;

impl Pool<'_> {
    /// One step starting at `now` (counted in `steps`): schedules, runs the roofline and applies the result.
    pub(in crate::sim) fn step(&mut self, now: f64, steps: &mut u64, books: &mut Books) -> Step {
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

    /// Schedules running sequence `i` for up to `budget` tokens, allocating blocks and preempting from the back
    /// of the batch when the pool is full. Returns the tokens scheduled, or `None` when `i` had to preempt
    /// itself (it is then back in the waiting queue and no sequence after it remains).
    fn schedule_running(&mut self, i: usize, budget: u32, acc: &mut StepAcc, in_window: bool) -> Option<u32> {
        let s = self.running[i];
        let n = s.target.saturating_sub(s.computed).clamp(1, budget.min(self.chunk_cap));
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
        acc.continuing |= s.target > want;
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
                acc.decode(s.computed + 1, window);
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
            let load = self.pipelining(acc.continuing, acc.finish(&self.cost));
            return (load, i, acc.preempted);
        }
        // vLLM V1 admits new requests only in steps without preemption.
        while budget > 0 && self.running.len() < self.max_batch {
            let Some(front) = self.waiting.front() else { break };
            let n = front.target.saturating_sub(front.computed).clamp(1, budget.min(self.chunk_cap));
            let mut tokens = ceil_block(front.computed.saturating_add(n));
            if self.reserve_full {
                tokens = tokens.max(ceil_block(front.target.saturating_add(front.output.saturating_sub(front.generated))));
            }
            let bytes = self.d.kv_bytes(f64::from(tokens));
            if self.pool_used + bytes > self.cap_limit {
                break; // head-of-line blocking: FCFS
            }
            let Some(mut s) = self.waiting.pop_front() else { break };
            s.alloc_tokens = tokens;
            s.alloc_bytes = bytes;
            s.sched = n;
            acc.continuing |= s.target > s.computed.saturating_add(n);
            self.pool_used += bytes;
            budget -= n;
            acc.add(self.d, s.computed, n, window);
            self.running.push(s);
        }
        (self.pipelining(acc.continuing, acc.finish(&self.cost)), self.running.len(), false)
    }

    /// Marks a step a llama.cpp layer split pipelines: one that more micro-batches of the same batch follow (a
    /// prompt still has chunks after it), except the last of each batch (`Deployment::layer_split_in_flight` of them), which
    /// waits for its pipeline to drain — per chunk what `Deployment::layer_split_prefill_factor` gives one
    /// prompt alone, so that the one-user TTFT and the simulated one agree.
    ///
    /// A step that carries decodes is not pipelined: its decoding users get their next token only when the whole
    /// batch is through the chain (a review: 4 users on a 4-device split had decoded faster than one alone).
    fn pipelining(&mut self, continuing: bool, mut load: StepLoad) -> StepLoad {
        if self.d.hardware.parallelism != Parallelism::LayerSplit || self.d.hardware.devices <= 1 {
            return load;
        }
        if continuing && load.decode_seqs == 0.0 && f64::from(self.in_flight + 1) < self.d.layer_split_in_flight() {
            self.in_flight += 1;
            load.pipelined = true;
        } else {
            self.in_flight = 0;
        }
        load
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
}
