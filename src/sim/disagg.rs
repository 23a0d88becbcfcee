//! Disaggregated prefill/decode serving: the event loop of a prefill pool and a decode pool joined by a
//! KV-transfer link (see "Disaggregated prefill/decode" in the module docs of [`super`]).
//!
//! Both pools are [`Pool`]s, the same engine as the colocated server: the prefill pool in its prefill-only
//! mode (a sequence leaves the batch with its first token and keeps its blocks until its transfer is done),
//! the decode pool receiving sequences whose prompt is already in the cache. Each pool has its own clock, the
//! time of its next scheduling decision, and the loop always advances the pool whose clock is earlier
//! (conservative parallel discrete-event simulation). Everything one pool sends the other is time-stamped —
//! transfers complete at a known time, closed-loop users send their next request at a known time — and a pool
//! only takes in what is stamped at or before its own clock, so a decision never sees the future. A step's
//! consequences lie at its end, after its start, so the other pool, whose clock is later than that start, has
//! already seen everything that could affect it or will see it in time.

use super::books::Books;
use super::pool::{FastPath, Pool, Step};
use super::seq::Seq;
use super::setup::{empty, Start};
use super::types::{Disaggregation, SimConfig, SimResult, Targets};
use crate::model::roofline::Deployment;
use std::collections::VecDeque;

/// The KV-transfer link: one FIFO channel of fixed bandwidth. A transfer starts when its prefill is done and
/// the channel is free, and takes bytes ÷ bandwidth.
struct Link {
    /// Bytes per second (positive; may be infinite).
    bytes_per_s: f64,
    /// When the channel is next free.
    free_at: f64,
    /// Sequences in transfer, in order of completion (FIFO): (done at, sequence).
    in_flight: VecDeque<(f64, Seq)>,
    /// Blocks the prefill pool still holds for them: (released at, bytes), the same times as `in_flight`
    /// (consumed at the prefill pool's clock, `in_flight` at the decode pool's).
    held: VecDeque<(f64, f64)>,
}

impl Link {
    /// Queues the transfer of `bytes` of `s`'s KV cache, whose prefill ended at `t`.
    fn send(&mut self, mut s: Seq, t: f64, bytes: f64) {
        let start = t.max(self.free_at);
        let seconds = bytes / self.bytes_per_s;
        let done = if seconds.is_finite() && seconds >= 0.0 { start + seconds } else { f64::INFINITY };
        self.free_at = done;
        self.held.push_back((done, s.alloc_bytes));
        // On the decode pool it holds nothing yet: it is admitted with blocks for its whole context.
        s.alloc_bytes = 0.0;
        s.alloc_tokens = 0;
        s.sched = 0;
        self.in_flight.push_back((done, s));
    }

    /// When the next transfer completes (infinite if none is in flight).
    fn next_delivery(&self) -> f64 {
        self.in_flight.front().map_or(f64::INFINITY, |x| x.0)
    }
}

/// The simulation state: two pools, the link, the books and the two clocks.
struct Disagg<'a> {
    decode_d: &'a Deployment,
    pre: Pool<'a>,
    dec: Pool<'a>,
    books: Books,
    link: Link,
    /// Closed loop: times at which users send their next request (sorted).
    wake: VecDeque<f64>,
    /// The prefill pool's clock: when it next schedules.
    t_pre: f64,
    /// The decode pool's clock.
    t_dec: f64,
    /// Steps of both pools.
    steps: u64,
    max_sim: f64,
    max_steps: u64,
}

/// Runs the disaggregated simulation; see [`super::simulate_disaggregated`].
pub(super) fn run(prefill: &Deployment, decode: &Deployment, disagg: &Disaggregation, cfg: &SimConfig, targets: &Targets) -> SimResult {
    run_with(prefill, decode, disagg, cfg, targets, FastPath::ON)
}

/// [`run`], with the decode pool's pure-decode fast path as `fast` says (the results must be identical).
fn run_with(prefill: &Deployment, decode: &Deployment, disagg: &Disaggregation, cfg: &SimConfig, targets: &Targets, fast: FastPath) -> SimResult {
    let bytes_per_s = disagg.kv_transfer_gbps * 1e9;
    // A link of zero, negative or NaN bandwidth never delivers: nothing could be decoded.
    if bytes_per_s.is_nan() || bytes_per_s <= 0.0 {
        return empty(true);
    }
    let start = match Start::new(&[prefill, decode], cfg, targets) {
        Ok(start) => start,
        Err(early) => return *early,
    };
    let pre = start.pool(prefill).prefill_only();
    let dec = start.pool(decode).with_fast_path(fast);
    let Start { mut books, max_sim, max_steps } = start;
    // A request must fit alone on both pools: its prompt on the prefill pool, all of it on the decode pool.
    if !books.cap_lengths(pre.max_fitting_tokens(), dec.max_fitting_tokens()) {
        return empty(true);
    }
    let mut sim = Disagg {
        decode_d: decode,
        pre,
        dec,
        books,
        link: Link { bytes_per_s, free_at: 0.0, in_flight: VecDeque::new(), held: VecDeque::new() },
        wake: VecDeque::new(),
        t_pre: 0.0,
        t_dec: 0.0,
        steps: 0,
        max_sim,
        max_steps,
    };
    let truncated = sim.simulate();
    let Disagg { pre, dec, books, t_pre, t_dec, .. } = sim;
    let preemptions = pre.preemptions.saturating_add(dec.preemptions);
    books.result(truncated, t_pre.max(t_dec), &dec.stats, preemptions, pre.stats.busy)
}

impl Disagg<'_> {
    /// The event loop. Returns whether the run was truncated.
    fn simulate(&mut self) -> bool {
        self.books.first_wave(&mut self.pre.waiting);
        // Users who think start after one pause each: their sends join this loop's own queue.
        for at in self.books.take_pending() {
            let i = self.wake.partition_point(|&x| x <= at);
            self.wake.insert(i, at);
        }
        loop {
            if self.books.done() {
                return false;
            }
            if self.steps >= self.max_steps {
                return true;
            }
            let (tp, td) = (self.prefill_ready(), self.decode_ready());
            let t = tp.min(td);
            // Past the time limit, or nothing will ever happen again (cannot happen, but never spin).
            if t > self.max_sim || !t.is_finite() {
                return true;
            }
            let stop = if tp <= td {
                self.t_pre = tp;
                self.prefill_turn()
            } else {
                self.t_dec = td;
                self.decode_turn()
            };
            if stop {
                return true;
            }
        }
    }

    /// When the prefill pool next acts: now if it has work, else at the next arrival.
    fn prefill_ready(&self) -> f64 {
        if !self.pre.is_idle() {
            return self.t_pre;
        }
        let next = self.books.next_open_arrival().min(self.wake.front().copied().unwrap_or(f64::INFINITY));
        self.t_pre.max(next)
    }

    /// When the decode pool next acts: now if it has work, else when the next transfer completes.
    fn decode_ready(&self) -> f64 {
        if !self.dec.is_idle() {
            return self.t_dec;
        }
        self.t_dec.max(self.link.next_delivery())
    }

    /// Closed loop: the users whose requests ended at `t` will send their next ones at `t`.
    fn wake_users(&mut self, t: f64) {
        let n = std::mem::take(&mut self.books.to_issue);
        if self.books.closed {
            // The next request reaches the prefill pool after the front end (its TTFT counts the mean front
            // end; the disaggregated path does not draw it per request).
            // With a think time, each a pause later.
            for _ in 0..n {
                let at = t + self.books.think_sample() + self.books.frontend;
                let i = self.wake.partition_point(|&x| x <= at);
                self.wake.insert(i, at);
            }
        }
    }

    /// Requests waiting downstream of the prefill queue (for saturation detection).
    fn downstream(&self) -> usize {
        self.link.in_flight.len() + self.dec.waiting.len()
    }

    /// One action of the prefill pool at its clock: take in what happened up to now (transfers done, users
    /// sending, arrivals, deadlines), then run one prefill step and start the transfers of the prompts it
    /// finished. Returns true when the run must stop (truncated).
    fn prefill_turn(&mut self) -> bool {
        let now = self.t_pre;
        while let Some(&(t, bytes)) = self.link.held.front() {
            if t > now {
                break;
            }
            self.link.held.pop_front();
            self.pre.release(bytes);
        }
        self.books.downstream = self.downstream();
        while let Some(&t) = self.wake.front() {
            if t > now {
                break;
            }
            self.wake.pop_front();
            self.books.user_next(t, &mut self.pre.waiting);
        }
        if !self.books.closed {
            self.books.arrivals_until(now, &mut self.pre.waiting);
        }
        self.pre.expire_waiting(now, &mut self.books);
        self.wake_users(now);
        if self.books.done() || self.pre.is_idle() {
            return false;
        }
        match self.pre.step(now, &mut self.steps, &mut self.books) {
            Step::Ran(t_end) => {
                for s in self.pre.handed.drain(..) {
                    let bytes = self.decode_d.kv_bytes(f64::from(s.computed));
                    self.link.send(s, t_end, bytes);
                }
                self.wake_users(t_end);
                self.t_pre = t_end;
                false
            }
            Step::Preempted => false, // the next pass admits from the queue
            Step::Stuck => {
                // The blocks are held by prompts in transfer: wait for the next one to complete.
                self.steps = self.steps.saturating_sub(1);
                match self.link.held.front() {
                    Some(&(t, _)) if t > now && t.is_finite() => {
                        self.t_pre = t;
                        false
                    }
                    _ => true,
                }
            }
            Step::Failed => true,
        }
    }

    /// One action of the decode pool at its clock: take in the transfers completed by now and drop what is
    /// past its deadline, then run a stretch of pure decode steps (up to the earliest time anything new can
    /// arrive: the next transfer in flight, or a prefill not yet started) or one normal step. Returns true when
    /// the run must stop (truncated).
    fn decode_turn(&mut self) -> bool {
        let now = self.t_dec;
        while let Some(&(t, s)) = self.link.in_flight.front() {
            if t > now {
                break;
            }
            self.link.in_flight.pop_front();
            if now - s.arrival > self.books.timeout {
                self.books.abort(&s, now);
                self.books.to_issue += 1;
            } else {
                self.dec.waiting.push_back(s);
            }
        }
        self.dec.expire_waiting(now, &mut self.books);
        self.wake_users(now);
        if self.books.done() || self.dec.is_idle() {
            return false;
        }
        let next = self.link.next_delivery().min(self.prefill_ready());
        let ran = self.dec.decode_stretch(&mut self.t_dec, &mut self.steps, self.max_sim, self.max_steps, next, &mut self.books);
        if ran > 0 {
            self.wake_users(self.t_dec);
            return false;
        }
        match self.dec.step(now, &mut self.steps, &mut self.books) {
            Step::Ran(t_end) => {
                self.wake_users(t_end);
                self.t_dec = t_end;
                false
            }
            Step::Preempted => false,
            Step::Stuck | Step::Failed => true, // no progress possible (guard; should not happen)
        }
    }
}

#[cfg(test)]
mod tests;
