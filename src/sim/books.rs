//! The clients and the books: the arrival process (closed or open loop), warm-up, the measurement window and the
//! statistics of the measured requests (see the module docs of [`super`]).
//!
//! Shared by the colocated server ([`super::server`]) and the disaggregated one ([`super::disagg`]): whichever
//! pools serve the requests, they are issued, measured and summarised the same way, so the results compare.
//! The pools report to the books through [`Books::complete`] and [`Books::abort`] and count the closed-loop
//! users to wake in `to_issue`; the event loop that owns the entry queue then calls [`Books::flush_issues`].
//! Requests travel as [`Seq`]s and a pool's time-weighted statistics as [`super::stats::BusyStats`]: the
//! books need nothing else from the pools. The summary at the end of a run ([`Books::result`]) is in
//! [`summary`].

mod summary;

use super::dist::{arrival_gap, Arrivals, LengthDist, MAX_TOKENS};
use super::rng::{splitmix64, Rng};
use super::seq::Seq;
use super::stats::LogHistogram;
use super::types::{SimConfig, Targets};
use std::collections::VecDeque;

/// Most measured requests one call simulates; larger `requests` are clamped (bounds memory and time).
pub const MAX_REQUESTS: u32 = 100_000;
/// Most closed-loop users; more are clamped (they would only lengthen the waiting queue).
pub const MAX_CONCURRENCY: u32 = 100_000;

/// Whether `x` does not exceed `limit` (a NaN limit means no limit).
fn within(x: f64, limit: f64) -> bool {
    limit.is_nan() || x <= limit
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

/// Arrival process, workload, measurement state and statistics of one run.
pub(super) struct Books {
    targets: Targets,
    /// Seconds after arrival at which an unfinished request is aborted (infinite without a timeout).
    pub(super) timeout: f64,
    queue_limit: usize,
    depth: u32,
    hit_rate: f64,
    prompt: LengthDist,
    output: LengthDist,
    len_rng: Rng,
    arr_rng: Rng,
    /// Draws each request's front-end time (a third stream: lengths and arrivals do not change with it).
    fe_rng: Rng,
    pub(super) closed: bool,
    /// A finite benchmark run (`SimConfig::finite`).
    finite: bool,
    concurrency: u32,
    rate: f64,
    burstiness: f64,
    next_arrival: f64,
    /// Longest request (prompt + output, tokens) the serving pools can hold alone; longer ones are rejected.
    max_total: u32,
    /// Longest prompt (cached prefix included) the prefill pool can hold alone (`u32::MAX` when colocated).
    max_prompt: u32,
    /// Requests waiting outside the entry queue (disaggregated: in transfer or in the decode pool's queue),
    /// added to the entry queue's length for saturation detection.
    pub(super) downstream: usize,

    issued: u64,
    /// No requests are issued beyond this count (the arrival process pauses; see `start_measuring`).
    issue_cap: u64,
    /// Requests that must be resolved (served, rejected or timed out) before measurement starts.
    warmup: u64,
    /// Resolutions seen so far during warm-up.
    warm_resolved: u64,
    /// Warm-up is over: new requests are measured, up to `n_measured` of them.
    measuring: bool,
    measured_issued: u64,
    n_measured: u64,
    resolved: u64,
    /// Closed-loop users whose requests ended and who have not sent their next one yet (the pool cannot issue
    /// while it iterates over its batch; the event loop flushes them).
    pub(super) to_issue: u32,
    /// Client-side time of every request, seconds: the serving front end (HTTP, chat template, tokenisation,
    /// hand-off to the engine's scheduler, detokenising and streaming the first token). It is added to each
    /// TTFT and E2E, and a closed-loop user's next request reaches the engine this long after the previous one
    /// ended (engine arrival = client send + front end). Set at the start of the run ([`super::setup`]) from
    /// the entry engine's `request_overhead_ms`; 0 for a bare engine (llama-bench, offline batch).
    pub(super) frontend: f64,
    /// Coefficient of variation of the front-end time (lognormal around `frontend`; 0 = the same for all).
    pub(super) frontend_cv: f64,
    /// Closed loop: the users' mean think time between an answer and their next request, seconds.
    think: f64,
    /// Closed loop with a front end: (engine arrival time, that request's front-end time) of requests the users
    /// have sent, by arrival time.
    pending: VecDeque<(f64, f64)>,

    /// Measurement window: from the arrival of the first measured request to the arrival of the last one
    /// (infinite until then, and kept infinite when both arrive together, e.g. all in the first wave; the
    /// window then ends when the last measured request is resolved).
    window_start: f64,
    window_end: f64,
    /// When the last measured request was resolved (NaN until then).
    resolved_at: f64,
    q_mid: Option<usize>,
    q_end: Option<usize>,

    ttft: Vec<f64>,
    e2e: Vec<f64>,
    tpot: Vec<f64>,
    pub(super) itl: LogHistogram,
    completed: u32,
    rejected: u32,
    pub(super) timed_out: u32,
    good_in_window: u64,
    tokens_in_window: u64,
    /// Output tokens of steps from the window's start until the last measured request is resolved: the
    /// throughput of a saturated run, whose server is busy with its backlog all that time (the arrival window
    /// alone is then too short to measure it: a few steps, some longer than the window).
    tokens_since_start: u64,
    completions_in_window: u64,
    /// Output tokens of the measured requests that completed, and how many of those met the targets (a closed
    /// loop's throughput by Little's law, `summary`).
    measured_tokens: u64,
    measured_good: u64,
}

impl Books {
    /// The books of run `cfg`, or `None` when there is nothing to simulate (no requests, no arrival rate: the
    /// result is all zero, not saturated). Request lengths are unlimited until [`Books::cap_lengths`].
    pub(super) fn new(cfg: &SimConfig, targets: &Targets) -> Option<Self> {
        let requests = cfg.requests.min(MAX_REQUESTS);
        if requests == 0 {
            return None;
        }
        let (closed, concurrency, rate, burstiness) = match cfg.arrivals {
            Arrivals::Closed { concurrency } => (true, concurrency.clamp(1, MAX_CONCURRENCY), 0.0, 1.0),
            Arrivals::Poisson { rate_per_s, burstiness } => {
                if rate_per_s.is_nan() || rate_per_s <= 0.0 {
                    return None;
                }
                (false, 0, rate_per_s, if burstiness > 0.0 { burstiness } else { 1.0 })
            }
        };
        let requests = u64::from(requests);
        let mut warmup = requests / 10;
        if closed {
            warmup = warmup.max(u64::from(concurrency).min(requests));
        }
        if cfg.finite {
            warmup = 0;
        }
        // During warm-up at most this many requests arrive (a bound for extreme overload; see
        // `start_measuring` for the cap afterwards).
        let issue_cap = warmup + 2 * requests;
        // Two independent streams: lengths do not depend on the arrival process, so load levels of a sweep
        // that share a seed draw the same sequence of lengths (common random numbers: smoother curves).
        let mut sm = cfg.seed;
        let len_rng = Rng::new(splitmix64(&mut sm));
        let arr_rng = Rng::new(splitmix64(&mut sm));
        let fe_rng = Rng::new(splitmix64(&mut sm));
        let mut books = Books {
            targets: *targets,
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
            fe_rng,
            closed,
            finite: cfg.finite,
            concurrency,
            rate,
            burstiness,
            next_arrival: 0.0,
            max_total: u32::MAX,
            max_prompt: u32::MAX,
            downstream: 0,
            issued: 0,
            issue_cap,
            warmup,
            warm_resolved: 0,
            measuring: false,
            measured_issued: 0,
            n_measured: requests,
            resolved: 0,
            to_issue: 0,
            frontend: 0.0,
            frontend_cv: 0.0,
            think: if closed && cfg.think_time_s.is_finite() { cfg.think_time_s.max(0.0) } else { 0.0 },
            pending: VecDeque::new(),
            window_start: f64::INFINITY,
            window_end: f64::INFINITY,
            resolved_at: f64::NAN,
            q_mid: None,
            q_end: None,
            ttft: Vec::with_capacity(requests as usize),
            e2e: Vec::with_capacity(requests as usize),
            tpot: Vec::with_capacity(requests as usize),
            itl: LogHistogram::default(),
            completed: 0,
            rejected: 0,
            timed_out: 0,
            good_in_window: 0,
            tokens_in_window: 0,
            tokens_since_start: 0,
            completions_in_window: 0,
            measured_tokens: 0,
            measured_good: 0,
        };
        if books.warmup == 0 {
            books.start_measuring(0.0);
        }
        Some(books)
    }

    /// Requests in flight at once, a capacity hint for queues.
    pub(super) fn in_flight_hint(&self) -> usize {
        if self.closed {
            self.concurrency.min(4096) as usize
        } else {
            256
        }
    }

    /// `(base, prompt_new)`: prefix-cached tokens (depth + hits) and tokens to prefill (at least 1: the last
    /// prompt token is always computed to get the logits of the first output token, as vLLM does on a full hit).
    pub(super) fn split_prompt(&self, prompt: u32) -> (u32, u32) {
        let hit = ((f64::from(prompt) * self.hit_rate).floor() as u32).min(prompt.saturating_sub(1));
        (self.depth.saturating_add(hit), prompt - hit)
    }

    /// Caps the requests at what the pools hold alone: the prompt with its cached prefix at `max_prompt` tokens
    /// (the prefill pool's; `u32::MAX` when colocated), the whole request at `max_total`; longer ones are
    /// rejected on arrival. Returns whether the smallest possible request fits (if not, nothing can ever run).
    pub(super) fn cap_lengths(&mut self, max_prompt: u32, max_total: u32) -> bool {
        self.max_prompt = max_prompt;
        self.max_total = max_total;
        self.smallest_fits()
    }

    /// Whether the smallest possible request fits the pools alone (`max_total`, `max_prompt`).
    fn smallest_fits(&self) -> bool {
        let (base, prompt_new) = self.split_prompt(self.prompt.min_tokens());
        let prompt = base.saturating_add(prompt_new);
        prompt <= self.max_prompt && prompt.saturating_add(self.output.min_tokens()) <= self.max_total
    }

    /// Whether all measured requests are resolved (the run is over).
    pub(super) fn done(&self) -> bool {
        self.resolved >= self.n_measured
    }

    /// The next open-loop arrival (infinite in a closed loop, or once the arrival process has paused).
    pub(super) fn next_open_arrival(&self) -> f64 {
        if self.closed {
            return self.pending.front().map_or(f64::INFINITY, |p| p.0);
        }
        if self.issued < self.issue_cap {
            self.next_arrival
        } else {
            f64::INFINITY
        }
    }

    /// Counts `n` output tokens of a step starting at `t` (in the window when `in_window`).
    pub(super) fn add_tokens(&mut self, t: f64, n: u64, in_window: bool) {
        if in_window {
            self.tokens_in_window += n;
        }
        if t >= self.window_start && !self.done() {
            self.tokens_since_start += n;
        }
    }

    /// Whether a step starting at `t` is inside the measurement window.
    pub(super) fn in_window(&self, t: f64) -> bool {
        t >= self.window_start && t < self.window_end
    }

    /// Ends warm-up: the next `n_measured` requests are measured. After them, filler requests keep the load
    /// up while the last measured ones finish; fillers are capped at half the measured count (a closed loop: at
    /// least one per user) so that a
    /// heavy-tailed output length cannot make the run long (past the cap the batch drains, which only touches
    /// the few longest requests).
    ///
    /// Under extreme overload the warm-up's arrival cap pauses an open-loop arrival process; it resumes at `t`,
    /// not at the paused schedule's past times (which would put the whole measurement window before the present:
    /// no step inside it, 0 tok/s).
    fn start_measuring(&mut self, t: f64) {
        self.measuring = true;
        if !self.closed {
            self.next_arrival = self.next_arrival.max(t);
        }
        // A closed loop keeps every user sending until the last measured request is done (fewer fillers than
        // users let the loop drain under the last measured requests and shortened their E2E: 256 users measured
        // over 256 requests read 8–19 % above the steady state, a review found).
        let fillers = if self.finite {
            0
        } else if self.closed {
            (self.n_measured / 2).max(u64::from(self.concurrency)).max(1)
        } else {
            (self.n_measured / 2).max(1)
        };
        self.issue_cap = self.issued + self.n_measured + fillers;
    }

    /// A request left the system at `t` (completed, rejected, timed out or aborted).
    fn finished(&mut self, measured: bool, t: f64) {
        if measured {
            self.resolved += 1;
            if self.resolved == self.n_measured {
                self.resolved_at = t;
            }
        }
        if !self.measuring {
            self.warm_resolved += 1;
            if self.warm_resolved >= self.warmup {
                self.start_measuring(t);
            }
        }
    }

    /// Creates the next request, arriving at `t` at the back of `queue`; returns false when it was rejected.
    fn issue(&mut self, t: f64, frontend: f64, queue: &mut VecDeque<Seq>) -> bool {
        self.issued += 1;
        let measured = self.measuring && self.measured_issued < self.n_measured;
        let k = self.measured_issued;
        if measured {
            self.measured_issued += 1;
            if k == 0 {
                self.window_start = t;
            }
            // A finite run's window lasts until its last request is resolved.
            if k + 1 == self.n_measured && t > self.window_start && !self.finite {
                self.window_end = t;
            }
        }
        let prompt = self.prompt.sample(&mut self.len_rng);
        let output = self.output.sample(&mut self.len_rng);
        let (base, prompt_new) = self.split_prompt(prompt);
        let context = base.saturating_add(prompt_new);
        let total = context.saturating_add(output);
        let accepted = queue.len() < self.queue_limit && total <= self.max_total && context <= self.max_prompt;
        if accepted {
            queue.push_back(Seq {
                frontend,
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
        } else {
            if measured {
                self.rejected += 1;
            }
            self.finished(measured, t);
        }
        if measured && !self.closed {
            if k == self.n_measured / 2 {
                self.q_mid = Some(queue.len() + self.downstream);
            }
            if k + 1 == self.n_measured {
                self.q_end = Some(queue.len() + self.downstream);
            }
        }
        accepted
    }

    /// Closed loop: a user sends its next request at `t` (and again at once if it is rejected).
    pub(super) fn user_next(&mut self, t: f64, queue: &mut VecDeque<Seq>) {
        let fe = self.sample_frontend();
        self.user_next_with(t, fe, queue);
    }

    /// [`Books::user_next`] for a request whose front-end time `fe` is already drawn.
    fn user_next_with(&mut self, t: f64, fe: f64, queue: &mut VecDeque<Seq>) {
        while self.issued < self.issue_cap && !self.issue(t, fe, queue) {}
    }

    /// One request's front-end time, seconds: `frontend`, or lognormal around it with `frontend_cv`.
    pub(super) fn sample_frontend(&mut self) -> f64 {
        if self.frontend <= 0.0 || self.frontend_cv <= 0.0 {
            return self.frontend.max(0.0);
        }
        let s2 = (1.0 + self.frontend_cv * self.frontend_cv).ln();
        (self.frontend.ln() - s2 / 2.0 + s2.sqrt() * self.fe_rng.normal()).exp()
    }

    /// Closed loop: the first wave, every user sending a request at t = 0 (with a think time, each after one pause).
    pub(super) fn first_wave(&mut self, queue: &mut VecDeque<Seq>) {
        if self.closed {
            for _ in 0..self.concurrency {
                if self.issued >= self.issue_cap {
                    break;
                }
                if self.think > 0.0 {
                    self.send_later(0.0);
                } else {
                    self.user_next(0.0, queue);
                }
            }
        }
    }

    /// Every arrival up to `now` joins `queue`: open-loop arrivals, and closed-loop requests whose front-end
    /// time has passed.
    pub(super) fn arrivals_until(&mut self, now: f64, queue: &mut VecDeque<Seq>) {
        while let Some(&(t, fe)) = self.pending.front() {
            if t > now {
                break;
            }
            self.pending.pop_front();
            self.user_next_with(t, fe, queue);
        }
        if self.closed {
            return;
        }
        while self.issued < self.issue_cap && self.next_arrival <= now {
            let t = self.next_arrival;
            let fe = self.sample_frontend();
            self.issue(t, fe, queue);
            self.next_arrival = t + arrival_gap(&mut self.arr_rng, self.rate, self.burstiness);
        }
    }

    /// Closed loop: the users whose requests ended (`to_issue`) send their next ones at `t`.
    pub(super) fn flush_issues(&mut self, t: f64, queue: &mut VecDeque<Seq>) {
        let n = std::mem::take(&mut self.to_issue);
        if self.closed {
            for _ in 0..n {
                if self.frontend > 0.0 || self.think > 0.0 {
                    self.send_later(t);
                } else {
                    self.user_next(t, queue);
                }
            }
        }
    }

    /// One user's think time, seconds: exponential around `think` (0 without one).
    pub(super) fn think_sample(&mut self) -> f64 {
        if self.think > 0.0 {
            self.think * self.arr_rng.exponential()
        } else {
            0.0
        }
    }

    /// The closed-loop sends [`Books::first_wave`] scheduled for later (a think time), taken out: when each
    /// reaches the engine (the disaggregated loop keeps its own queue of them).
    pub(super) fn take_pending(&mut self) -> Vec<f64> {
        self.pending.drain(..).map(|p| p.0).collect()
    }

    /// Closed loop: a user's next request after its think time (exponential around `think`) from `t`, reaching
    /// the engine after the front end (`arrivals_until` issues it then; its latencies count from the send).
    fn send_later(&mut self, t: f64) {
        let think = self.think_sample();
        let fe = self.sample_frontend();
        let at = t + think + fe;
        let i = self.pending.partition_point(|p| p.0 <= at);
        self.pending.insert(i, (at, fe));
    }

    /// A request was aborted at `t` after its deadline.
    pub(super) fn abort(&mut self, s: &Seq, t: f64) {
        if s.measured {
            self.timed_out += 1;
        }
        self.finished(s.measured, t);
    }

    /// A sequence produced its last token at `t`.
    pub(super) fn complete(&mut self, s: &Seq, t: f64, in_window: bool) {
        // As the client measures: from sending the request, i.e. the engine's times plus the front end.
        let e2e = t - s.arrival + s.frontend;
        let ok = e2e <= self.timeout;
        let ttft = s.first_token - s.arrival + s.frontend;
        let tpot = if s.output >= 2 { Some((t - s.first_token) / f64::from(s.output - 1)) } else { None };
        let meets = ok && within(ttft * 1e3, self.targets.ttft_ms) && tpot.is_none_or(|x| within(x * 1e3, self.targets.tpot_ms));
        if in_window && ok {
            self.completions_in_window += 1;
            if meets {
                self.good_in_window += 1;
            }
        }
        if s.measured {
            if ok {
                self.completed += 1;
                self.measured_tokens += u64::from(s.output);
                self.measured_good += u64::from(meets);
                self.ttft.push(ttft);
                self.e2e.push(e2e);
                if let Some(x) = tpot {
                    self.tpot.push(x);
                }
            } else {
                self.timed_out += 1;
            }
        }
        self.finished(s.measured, t);
    }
}
