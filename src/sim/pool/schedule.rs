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
            // The running batch: in a prompt step the decodes that wait count too. They are in the batch and decode
            // together in the steps between, which is what the mean batch tells its readers (the roofline's decode
            // point, the energy model's steady step, the table's "decoded together"); counted out, 25 users read
            // as a batch of 12.
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
        // A prompt step (prompt steps apart, SGLang's way): the decoding sequences wait, scheduled for 0 tokens, so
        // they sample nothing; a preempted sequence redoing its prompt (generated > 0, more than 1 token to go) reads.
        let prompts_only = self.prefill_first && self.prompt_work();
        while i < self.running.len() && budget > 0 {
            if prompts_only {
                let s = self.running[i];
                if s.generated > 0 && s.target.wrapping_sub(s.computed) == 1 {
                    i += 1;
                    continue;
                }
            } else {
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
        self.admit(budget, acc)
    }

    /// The KV blocks the head of the waiting queue needs to be admitted for a chunk of `n` tokens, and their bytes.
    fn admission_blocks(&self, front: &crate::sim::seq::Seq, n: u32) -> (u32, f64) {
        let mut tokens = ceil_block(front.computed.saturating_add(n));
        if self.prefill_first {
            // With prompt steps apart a prompt is admitted only where the pool holds all of it, as SGLang's chunks keep
            // their blocks: admitted for its first chunk alone, a prompt step could preempt the prompt it started at
            // its next chunk, over and over, while the decodes that would free blocks wait behind it. (SGLang also
            // sets room aside for the running requests' and the new one's outputs, `new_token_ratio`; not modelled:
            // a decode that finds the pool full preempts, as vLLM's do.)
            tokens = tokens.max(ceil_block(front.target));
        }
        if self.reserve_full {
            tokens = tokens.max(ceil_block(front.target.saturating_add(front.output.saturating_sub(front.generated))));
        }
        (tokens, self.d.kv_bytes(f64::from(tokens)))
    }

    /// Whether a prompt step has work: a running sequence still reading its prompt, or a waiting one that can be
    /// admitted now (a free place in the batch and the blocks [`Pool::admission_blocks`] asks: its whole prompt).
    fn prompt_work(&self) -> bool {
        if self.running.iter().rev().any(|s| s.generated == 0 || s.target.wrapping_sub(s.computed) != 1) {
            return true;
        }
        let Some(front) = self.waiting.front() else { return false };
        if self.running.len() >= self.max_batch {
            return false;
        }
        let n = front.target.saturating_sub(front.computed).clamp(1, self.max_tokens.min(self.chunk_cap));
        self.pool_used + self.admission_blocks(front, n).1 <= self.cap_limit
    }

    /// FCFS admissions into what is left of a step's `budget`: the head of the waiting queue while the batch has
    /// room and the KV pool the blocks [`Pool::admission_blocks`] asks (its first chunk's; with prompt steps apart its
    /// whole prompt's), head-of-line blocking. Returns the step's load.
    fn admit(&mut self, mut budget: u32, mut acc: StepAcc) -> (StepLoad, usize, bool) {
        let window = self.window;
        while budget > 0 && self.running.len() < self.max_batch {
            let Some(front) = self.waiting.front() else { break };
            let n = front.target.saturating_sub(front.computed).clamp(1, budget.min(self.chunk_cap));
            let (tokens, bytes) = self.admission_blocks(front, n);
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
