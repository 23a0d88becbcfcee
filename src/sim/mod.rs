//! Serving under load: a discrete-event simulation of an iteration-level continuous-batching LLM server.
//!
//! The analytic model ([`crate::model`]) says how long one forward pass takes for a given batch; this module
//! says which batches a real server forms when requests arrive, queue, prefill, decode and leave, and turns
//! that into the latency distributions users see (TTFT, TPOT, inter-token latency, end-to-end) and the
//! throughput the server delivers.
//!
//! # Algorithm
//!
//! The server is simulated step by step (one step = one forward pass, Orca's *iteration-level scheduling*).
//! Each step, as the vLLM V1 scheduler does:
//!
//! 1. **Running sequences first**, in admission order. Every request is "`computed` tokens in the KV cache,
//!    `target` tokens known"; a step gives it `min(target − computed, budget)` tokens of the step's token budget
//!    (`max_batched_tokens`). A decoding sequence needs 1 token; a sequence still prefilling gets a chunk of its
//!    prompt (*chunked prefill*, Sarathi-Serve): a long prompt is spread over several steps, piggybacked on the
//!    decodes, and decode tokens use the budget first (a prefilling sequence is always behind every decoding
//!    one in admission order).
//! 2. **KV blocks**: the pool is `Deployment::kv_budget_bytes`, allocated in blocks of 16 tokens
//!    (PagedAttention); a sequence holding `c` tokens occupies `Deployment::kv_bytes(⌈c/16⌉·16)`. When a
//!    running sequence needs a new block and none is free, the most recently admitted running sequence is
//!    **preempted** (recompute mode: its blocks are freed, it goes to the front of the waiting queue and later
//!    redoes its prefill over prompt + tokens generated so far). A sequence may have to preempt itself.
//! 3. **Admission** (only in steps without preemption, as vLLM V1): while fewer than `max_batch` sequences run
//!    and budget remains, the head of the FCFS waiting queue is admitted if the KV pool has blocks for its
//!    cached prefix plus its first chunk; otherwise admission stops (no skipping ahead).
//! 4. The step's duration is [`Deployment::step`] of the actual load: every decoding sequence adds its own KV
//!    bytes and attention FLOPs at its own context, every prefill chunk is added with
//!    [`Deployment::with_prefill`] at its prior context. Whether the step was memory-, compute- or
//!    overhead-bound is recorded.
//! 5. At the end of the step every sequence whose `computed` reached `target` samples one token: the step that
//!    finishes a prompt emits the first token (TTFT), each later step one more (ITL). A sequence that has all
//!    its output tokens leaves and frees its blocks.
//!
//! Runs of pure decode steps (every running sequence decoding, nothing to admit, no arrival, no deadline)
//! change only by one token of context per sequence per step; they are simulated in closed form (the
//! roofline's memory and compute times are affine in the step index, `linear`), which gives the same
//! numbers as stepping one by one to rounding (tested) at a fraction of the cost.
//!
//! Between steps, arrivals join the back of the queue. **Closed loop**: `N` users, each sending its next
//! request the moment the previous one ends, the first wave all at t = 0 (`vllm bench serve
//! --max-concurrency N --request-rate inf`); with a think time `Z` (`SimConfig::think_time_s`: people who read
//! and type), each user pauses an exponential time of mean `Z` before its next request and starts after one
//! such pause, so about N × E2E ÷ (E2E + Z) requests are in flight (tested against the steps' batches) and the
//! loop completes N ÷ (E2E + Z) requests per second; no latency includes the pause. **Open loop**: gamma-distributed gaps with shape `burstiness` and
//! mean `1/rate` (`--request-rate R --burstiness B`; shape 1 = Poisson). An idle server jumps to the next
//! arrival.
//!
//! # Measurement
//!
//! `requests` requests are measured. Warm-up comes first: measurement starts once `requests/10` requests
//! (closed loop: at least one full wave, `min(N, requests)`) have left the system — served, rejected or timed
//! out. Counting departures rather than arrivals means the server has filled its batch and turned it over
//! whatever the load, so the start-up burst and the empty-server start do not bias the steady state. The next
//! `requests` requests to arrive are the measured ones. After them, filler requests (at most `requests/2`, or one per closed-loop user)
//! keep the load up while the last measured ones finish, so they do not run on a draining server. Warm-up and
//! filler requests are excluded from all latency statistics.
//!
//! A **finite run** (`finite`, what `vllm bench serve --num-prompts N` measures) has no warm-up and no
//! fillers: exactly `requests` requests from an empty server, all measured, its window from the first arrival
//! to the last completion (so the drain counts, as in the benchmark's duration), and it is never called
//! saturated for a growing queue: an overloaded finite run only builds a finite backlog, which shows in its
//! latencies (in a real engine mostly as a larger running batch and slower tokens, not as waiting).
//!
//! The measurement window runs from the arrival of the first measured request to the arrival of the last one
//! (or, when they arrive together, to the end of the last one): the load is steady throughout. Throughputs
//! (`system_output_tps`, `request_throughput`, `goodput_rps`) count every token and request completed in
//! the window, divided by its length; the time-averaged quantities (`mean_batch`, `mean_kv_utilization`,
//! bound fractions) are weighted by step time over the steps that start in the window. A closed loop's
//! throughputs come from Little's law instead — users ÷ (mean E2E + think time) requests per second, times the measured
//! requests' mean output — when every measured request completed and there were at least as many as users:
//! each user always has one request in the system, so that is exact in steady state, where a window's count
//! depends on where its ends fall in the users' cycles (a review's audit, 2026-12-04: 256 users read 2,661,
//! 2,276, 2,016 and 1,975 tok/s over 300, 600, 2,000 and 8,000 requests; users × output ÷ E2E was 1,991 at
//! each; with Little's law 2,094, 1,991, 1,991 and 1,991 — the first one's E2E is itself short of steady state).
//! An open loop in its steady state (queue not growing, nothing refused or timed out, not a finite run) completes
//! what arrives: the rate asked for × the measured requests' mean output (2026-12-06; counted over the window it was
//! the drawn arrivals' rate, 300 requests at 13.8 req/s reading 16.3 req/s and 1,908 tok/s above the 1,766 that
//! 13.8 × 128 can make: −8 to +5 % by seed at 300 requests, about ±2 % at 2,000). A finite run keeps its window.
//!
//! Metrics follow `vllm bench serve`: TTFT = first token − arrival (queueing included); TPOT = (E2E − TTFT) ÷
//! (n − 1), requests with n = 1 skipped; ITL = every gap between consecutive tokens of a request, pooled over
//! requests; E2E = last token − arrival; percentiles with numpy's linear interpolation (exact for TTFT, TPOT
//! and E2E; within 0.1 % for ITL, whose hundreds of thousands of samples go through a log-bucket histogram,
//! see `stats`).
//!
//! Errors: an arrival that finds `queue_limit` requests waiting is rejected, as is a request that alone could
//! never fit in the KV pool. With `timeout_s`, a request still unfinished that long after its arrival is
//! aborted (its blocks freed) and counted as timed out; latency statistics cover completed requests only.
//!
//! **Saturation**: `saturated` is set when the run hit `max_sim_seconds` or `max_steps`, when (open loop) the
//! waiting queue grew between the middle and the end of the measured arrivals by more than a twentieth of the
//! arrivals in between (arrival rate above service rate: the percentiles then grow with the run length and are
//! only lower bounds), or when no measured request completed. (A tenth until 2026-12-07: a workstation trial's
//! llama.cpp at 0.79 req/s, about 9 % past the 0.72 its slots serve, grew by 8 % of its arrivals and was read as
//! steady, at the rate asked: 202 tok/s as the peak, above the 181 the server makes. At a twentieth the served runs'
//! held-out figures are unchanged, every one.) A deployment whose weights do not fit, or
//! whose smallest possible request cannot fit in the KV pool alone, returns an all-zero result with
//! `saturated = true`.
//!
//! # Prompt steps
//!
//! By default a step carries the running sequences' decodes and, in what is left of its token budget, prompt chunks
//! (vLLM V1's chunked prefill, TensorRT-LLM's in-flight batching). SGLang's own scheduler does otherwise
//! (`engine.mixed_batches: false`): whenever a prefill batch can be formed — a prompt still being read, or a waiting
//! request the batch and the KV pool have room for — the step reads prompts only and every decode waits; the decodes
//! run in the steps between. Admission then needs blocks for the whole prompt, as SGLang's (its chunks keep them):
//! admitted for its first chunk only, a prompt could be preempted at its next chunk over and over while the decodes
//! that would free blocks wait (a first version of this did so, and a run took minutes). What it changes:
//! - TPOT and the inter-token tail grow: a decode waits through whole prompt steps (tested: 8 req/s of 2,000-token
//!   prompts on an H100, TPOT +6 %, ITL P99 longer than a prompt's step), while TTFT hardly moves.
//! - Fixed-length closed-loop users lock into waves for good: the decodes of a wave start together after its last
//!   prompt, so its users finish together and send again together, and each TTFT holds the prompts read before it
//!   (tested: the mean grows with the users, about half a wave's prompts). With shared steps the first token of each
//!   user comes as its prompt is read and the decodes go on meanwhile, so jitter spreads the users apart.
//! - A burst of requests released at once is read prompt after prompt while memory lasts, its decodes starving.
//!
//! Which one the data supports is measured in `presets::engines::mixed_batches` (bursts nearer apart, paced TPOT
//! nearer shared); the model's default is shared steps for every engine.
//!
//! # Tail latency: what varies, and what the data says
//!
//! A simulated server's service times have no noise of their own: the spread of TTFT and TPOT comes from what
//! varies in the workload — request lengths (`LengthDist`), arrival gaps (gamma, `burstiness`), the batch each
//! request shares its steps with, prefill chunks interleaved with decodes, preemptions when the KV pool fills —
//! and from the serving front end's per-request time, lognormal with CV `frontend_cv`
//! (`presets::engines::REQUEST_OVERHEAD_CV`, 1.15, fitted on the low-load served runs' TTFT P99 by
//! `tests/fit.rs`). On the served runs of current engines (`tests/serving.rs`, leave-one-source-out, 2026-12-04)
//! TTFT P99 is 45.9 % off and TPOT P99 18.4 % (12.2 % without the tensor-parallel runs over PCIe), both with a
//! negative bias (−28 / −29 %): the model's tails are too tight, while TPOT's mean is within 15 %. What the data says
//! about where the tails come from:
//! - TTFT at low load is the prompt step (on many GPUs mostly its eager launch chain, `model::kernels`) plus the
//!   front end (HTTP, tokenisation, scheduling), and the front end differs by deployment
//!   more than any physics in the inputs explains: vLLM on one H100 measures ~60 ms at 1–8 users in one source and
//!   35–45 ms on one RTX 4090 (a slower GPU) in another. Calibration on the user's own run (`tps calibrate`, the
//!   page's Calibrate) fits `request_overhead_ms`; a prediction without it carries that spread.
//! - The front end as one server in a queue (tried 2026-12-08, not kept): a closed loop's users that send at once
//!   (the first wave, fixed-length waves) would wait for one another's HTTP and tokenisation, which the model adds
//!   to each request alone. Queued FIFO in the closed loops without a think time, served runs of current engines
//!   held out: with each request's drawn time serialised, TTFT mean 47.3 → 45.8 % (ree2raz's L4 at 16–64 users
//!   40 → 29 %, the SGLang cookbook's 36 → 28 %) but P99 50.0 → 51.6 % (the cookbook's 35 → 48 %, GPUStack's
//!   SGLang runs 96 → 144 %: the lognormal's tail, CV 1.15, queued behind); with its mean serialised and its
//!   spread not, TTFT mean 47.8 %, P50 43.1, P99 49.8. Neither is a gain worth a parameter; the spread of the
//!   front end is mostly not a queue.
//! - TPOT P99 over PCIe tensor parallelism: 1.5–3 × the median even at 1 req/s on 2–8 × RTX 4090 (host-staged
//!   all-reduces, `model::roofline::PCIE_ALLREDUCE_LATENCY_S`); the model's all-reduce has a latency and a
//!   bandwidth but no variance, so those P99s are a median 1.6 × and up to 6 × too low (in-sample).
//!
//! Not modelled yet, in order of the evidence: step-time jitter (CUDA-graph misses, scheduler and
//! detokenisation stalls: the ITL P99 of a steady batch), client-side arrival noise of closed-loop users (real
//! clients drift apart; fixed-length simulated users stay in lock-step waves whose TTFT includes the whole wave's
//! prefill, see the note the comparison prints; what drift they have comes from the front end's jitter alone, so a
//! front end fitted at 0 ms leaves them in lock-step: `presets::engines::SERVED_COMPUTE_AMPERE`), the engine's
//! admission limits when a finite run's backlog is large. What the waves of one closed-loop client show
//! (ree2raz/inference-bench, vLLM 0.8.5 on one L4, Qwen2.5-7B, ~43-token prompts, every request 128 tokens, per-request
//! records committed): in each wave one request gets its first token early (127–151 ms at 16 users, 227 at 32,
//! 397 at 64) and all the others together about one step later (190–230, 336–364, 572–601 ms: TTFT P50 196 / 345 /
//! 581 ms, P99 only 3–19 % above it) — lock-step, as the model has it, but with a longer wave step than the model's
//! (P50 140 / 224 / 335 ms held out). A serial API server (one process templating and tokenising the wave's requests in
//! turn) was tried as the missing piece, 2026-12-03, and rejected: it spreads a wave's TTFT over wave size × its
//! time per request, where the measured spread is a few per cent, and it took the model's P50 at 64 users down
//! (390 → 227 ms at 3 ms per request), not up. Measured on the data and fits as first entered that day (before
//! the review's corrections), 3 ms per request moved the held-out paced runs' TTFT mean / P50 / P99 52.6 / 47.8 /
//! 65.4 → 50.4 / 47.5 / 63.9 % and the all-at-once runs' 48.9 / 49.2 / 43.5 → 44.6 / 38.8 / 39.7 % (6 ms: 49.7 /
//! 45.6 / 64.4 and 48.9 / 49.3 / 47.0 %) — a gain on bursts, got with a mechanism the per-request records
//! contradict, so not adopted. The measured wave spread (the 63 late requests of a 64-user wave within
//! 26 ms, earlier senders waiting longer) bounds such a serial time at about 0.4 ms per request. The longer step
//! is more likely the wave's prefill itself (the prefix cache's share is an estimate for these runs).
//!
//! How far a measurement repeats (measured 2026-12-05, to tell the model's TTFT error from the data's): the
//! served runs hold 13 true repeats — IOG's five Llama-3.1-8B shapes twice on one RTX 4090 (two checkpoints of
//! one architecture, the same 200 prompts), simon-mo's five DeepSeek-R1 runs on two 8 × H200 machines, and the
//! SGLang cookbook's three one-user pairs whose prompts are identical (only the answers' length differs). Their
//! two runs differ by a median 3 % in TTFT mean, 8 % in P50 and 9 % in P99 (TPOT 9 %, output 10 %), but
//! 3.5–5 × in two pairs of the 13 (DeepSeek on 8 × MI300X at one user: TTFT mean 558 against 157 ms; simon-mo's
//! two H200 machines at 10 req/s: 1,525 against 309 ms). A model right on every run would be off by about half
//! the repeats' spread: a few per cent at the median, so the held-out TTFT median (32 % without the PCIe runs,
//! 43 % with) is the model's, not the data's; the p90s, though, include runs like those two, which no model of
//! the server predicts both of. The misses spread evenly
//! over the load (TTFT P50 held out: one user 23 %, closed loops of 2–16 users 34 %, above 16 users 32 %,
//! request rates 36 %): no single term (front end, prefill rate, queueing) carries them.
//!
//! Where the held-out TTFT misses lie, by class (measured 2026-12-06 on the paced runs of current engines without the
//! PCIe tensor-parallel runs, TTFT P50, median predicted ÷ measured): closed loops 0.71 (58 figures, median error 31 %),
//! open loops 1.01 (49, 38 %: unbiased, but spread); SGLang on ROCm 0.53 (12 figures, one source: DeepSeek-V3 and
//! Llama-4 on 8 × MI300X, whose TPOT at one user is also 3 × the model's — a backend class one source cannot fit),
//! SGLang on CUDA 0.88, vLLM 0.95. The closed loops' shortfall is at every concurrency of the SGLang cookbook (0.70–0.75
//! from 1 user to 100: the floor of a large MoE model's prompt step on 8 GPUs) and grows with the users of the L4
//! closed loop (0.92 at 1 user, 0.43 at 64: the wave's step, above). In the runs that release every request at once
//! the model can be right in throughput and wrong in how it is reached: gpt-oss-120b on one H100 (vLLM 0.10.2,
//! ShareGPT) 3,100 output tok/s predicted against 2,901, but TTFT mean 0.61 × and TPOT 1.28 × the measured — by
//! Little's law the model runs about 214 sequences at once where the run held about 157 (its KV space is 5 GB after
//! 64 GB of weights, so what the engine keeps back decides the batch); on A100 with vLLM 0.11 the same deployment's
//! TTFT is within 6 %. Neither is a default to move on one deployment. A second ROCm source (2026-12-06, vLLM 0.23, DeepSeek-V3
//! on 8 × MI300X, 1k-token prompts at 32–128 users) puts TTFT P50 at 0.32–0.38 × the measured (about a second at every
//! load, so not a queue) while its TPOT is within 20 %: DeepSeek's prompts on MI300X are slow with both engines, but
//! SGLang's decode is 3 × slow there and vLLM's is not, so no single ROCm factor fits the two; gpt-oss-120b on one
//! MI300X (vLLM 0.17) is right within 6 % in throughput and TPOT up to 128 users (18 % and 14 % at 256).
//!
//! Whether a constant would close it (measured 2026-12-06 on the held-out paced TTFT figures of current engines, PCIe
//! tensor-parallel runs included): dividing every prediction by the overall median ratio (0.67–0.72) leaves the median
//! error at 46 / 41 / 48 % (mean / P50 / P99, from 48.6 / 44.9 / 49.5); dividing each source's predictions by that
//! source's own median ratio — what a per-deployment front end or prefill factor could do at best — leaves 40 / 30.5 /
//! 41.5 %. Most of the miss is how TTFT moves with the load inside one source, not an offset: IOG's 50 P50 figures
//! (a third of them) are within 14 % on one RTX 4090 up to 16 req/s, 7–9 × over at 32 req/s (the burst above), and
//! 0.01–0.8 × over PCIe tensor parallelism; the L4 closed loop's ratio falls from 0.95 at one user to 0.46 at 64;
//! simon-mo's DeepSeek-R1 at 10 req/s goes from 0.07–0.43 × at 1,000-token prompts to 1.4–1.7 × at 30,000. TPOT P50
//! (15.1 → 12.6 %) and output tok/s (12.4 → 11.5 %) barely move the same way: their physics is right within a source.
//!
//! Two misses the served runs show, measured 2026-12 and not modelled yet (each needs more than one source):
//! - **A TTFT floor of large MoE models on 8 GPUs.** SGLang 0.5.6–0.5.9 (its cookbook's runs, one user):
//!   DeepSeek-R1 on 8 × B200 takes 126–141 ms to the first token of a 610-token prompt and 155 ms of a
//!   4,194-token one; the model says 72 → 140 ms (its prefill grows with the prompt far more than measured, and
//!   its floor — the fitted front end plus a short prefill — is half the measured one). Qwen3-235B (94 layers)
//!   92–109 ms against 64; gpt-oss-120b (36 layers) 32 against 42. A per-request cost of prefill that does not
//!   scale with tokens (eager kernels outside CUDA graphs, per-layer all-reduces and expert dispatch at TP 8) is
//!   the likely physics; the data do not order it by layers alone. *Since modelled* (`model::kernels`, the eager
//!   launch chain of prompt steps: 50 µs × layers × kernels, from SGLang's own eager-versus-graph measurements):
//!   the cookbook's TTFT P50, held out, went from 50 to 31 % off (median).
//! - **One RTX 4090 under a 200-prompt burst** (IOG's vLLM 0.8.5, Llama-3.1-8B at 16 and 32 req/s): TPOT 33 / 39
//!   ms measured against 50 / 65, output 1,353 / 1,460 tok/s against ~770, and every one of the 200 requests had
//!   its first token within 357 ms at 32 req/s (the model queues them: TTFT P95 7.9 s). The longest
//!   inter-token gap measured, 197 ms, is what one full 2,048-token prefill step takes at the board's whole
//!   165 TFLOP/s (FP32-accumulate peak), where the model, with Ampere's served efficiency (0.58, by machine
//!   balance), takes 340 ms (measured with 0.58; 0.56 after, 0.58 again, 0.52 since 2026-12-04: slower still): Ada's prefill GEMMs run nearer their peak than the generation the board borrows its
//!   efficiency from. A served efficiency for Ada needs served Ada runs from a second source. *Found since*: a
//!   closed-loop Mistral-7B sweep on one 4090 (4–48 users) holds the balance rule's value within 1.5 % median in
//!   throughput, 0.8 within 6.5 % (`presets::engines::served_compute`): IOG's bursts are not a class yet.
//! - **The first wave of a closed loop on a fresh server** (measured 2026-12-04, not modelled: a benchmark's
//!   transient, not the server a user sizes). SGLang's cookbook at 16 users (80 requests, ~500-token prompts on
//!   8 × B200 or 8 × MI300X, large MoE models): TTFT P50 right where requests arrive one by one (Qwen3-235B 95
//!   predicted, 89 measured, held out) but mean and P99 2–4 × short (P99 184 against 727 ms; the same run's ITL
//!   max 457 ms with its ITL P99 68 ms) — one slow batch: the first wave's prompts prefilled together on a server
//!   that has not run a batch that size before (kernels compiled or tuned on first use). At 100 users, where every
//!   wave is such a batch, P99 comes out right (873 against 863 ms): the steady state is modelled, the first batch
//!   is not. With IOG's tensor-parallel transients over PCIe (seconds of TTFT at 1 req/s, ~100–200 ms at 4–8;
//!   37 of the 136 paced TTFT P50 figures of current engines) and front ends behind a platform's proxy (GPUStack,
//!   ~60 ms at one user against ~5–10 elsewhere), these are most of the served TTFT error left (leave-one-source-out
//!   median 45 % for P50, 35.5 % without the PCIe transients; tests/serving.rs).
//!
//! - **A closed loop's P99 TTFT where the run's request count is not stated** (measured 2026-12-07, not a model
//!   change): the A100 80GB PCIe source (cssnoeasy/a100-vllm-benchmark-blog, vLLM 0.19 in eager mode, Qwen3-32B, fixed
//!   512/256 and 2,048/512 at 4–32 users) prints P99 TTFT growing by one prompt's prefill a user (2,048-token
//!   prompts: 2.6 s at 4 users to 10.3 s at 16, about 0.65 s each) — the last of the first wave, whose prompts are
//!   all read together. Its request counts are not printed (the one runner configuration it publishes sets
//!   `num_prompts` = `max_concurrency` = 16, and its 2,048/512 runs at 4 users state 16 prompts), and the validation
//!   takes vLLM's default of 1,000, where the first wave is under 1 % of the requests and P99 is the steady state:
//!   0.44–0.78 × the measured at 8–16 users (27 P99 figures, 33 % median error held out). Given one or two waves of
//!   requests, the model's P99 is 1.25–1.31 × the measured (512/256 at 16 users; 2,048/512 at 8 and 12): the wave's
//!   prefill at Ampere's served η_fl 0.52, where the board read these prompts at about 0.66 of its 312 TFLOPS — the
//!   long-prompt class of `model::prefill`, not the queue. Left as scored: the count is the source's unknown.
//!
//! # Assumptions
//!
//! - Step time is the roofline of [`crate::model::roofline`]; the scheduler, input preparation and sampler cost the
//!   engine's fixed `step_overhead_ms` plus `sequence_overhead_us` per running sequence. Networking and client time
//!   are not modelled (the front end's per-request time stands for them).
//! - The prefix-cached part of a prompt (`context_depth` + `prefix_hit_rate` × prompt) skips prefill but still
//!   occupies KV blocks in every sequence (no sharing of blocks between sequences is credited), and is never
//!   recomputed after a preemption. At least one prompt token is always prefilled (it yields the logits of the
//!   first output token, as vLLM does on a full hit).
//! - No speculative decoding, no priorities, no swap-to-CPU preemption, no admission watermark; one model
//!   replica (tensor parallel ranks count as one server), or one prefill and one decode replica
//!   ([`simulate_disaggregated`]).
//! - Deterministic: the same inputs and seed give a bit-identical result. Request lengths come from a random
//!   stream separate from the arrival stream, so load levels run with the same seed draw the same sequence of
//!   lengths (common random numbers: smoother curves across a sweep).
//!
//! # Disaggregated prefill/decode
//!
//! [`simulate_disaggregated`] serves the same workload with prefill and decode on separate pools of devices
//! (DistServe, Splitwise, vLLM's disaggregated prefilling, SGLang's PD disaggregation). Both pools run the
//! engine above; what differs is where a request enters and leaves them:
//!
//! 1. **Prefill pool** (its own [`Deployment`]: step times, `max_batched_tokens`, `max_batch`, KV pool). Requests
//!    arrive there, FCFS, and are prefilled exactly as above — chunks packed up to `max_batched_tokens` tokens
//!    and `max_batch` sequences per step, blocks allocated per chunk, recompute preemption — except that no
//!    sequence ever decodes: the step that finishes a prompt samples the **first token** and the sequence leaves
//!    the batch. TTFT ends there: the prefill instance produces the first token (vLLM's proxy runs the prompt
//!    on it with `max_tokens = 1`) and a front end that streams it at once shows this TTFT; one that waits for
//!    the decode instance shows TTFT plus the transfer and the decode queue, which here appear in the first
//!    inter-token gap instead. The sequence keeps its KV blocks until its transfer is done, so a slow link
//!    fills the prefill pool's KV cache and stalls admissions there. A request with a single output token is
//!    complete at this point.
//! 2. **Transfer**: the KV cache of the prompt, `decode.kv_bytes(prompt tokens)` bytes (the cached prefix
//!    included), crosses one FIFO channel of `kv_transfer_gbps` × 10⁹ B/s: a transfer starts when its prefill
//!    is done and the channel is free and lasts bytes ÷ bandwidth. Transfers overlap with the steps of both
//!    pools and queue on the link, each sent whole at the full bandwidth (the same throughput as sharing it).
//! 3. **Decode pool** (its own [`Deployment`]): the transferred request joins the back of the waiting queue and
//!    is admitted as above, FCFS, when blocks for its whole context plus one token are free; it then decodes one
//!    token per step. A preempted sequence loses its blocks and recomputes its context on the decode pool
//!    (recompute preemption, as vLLM's decode instance does — the prefill pool's copy is gone), beyond the
//!    prefix-cached part, which is assumed cached on the decode pool too, as in the colocated server.
//!
//! The gap from the first token to the second therefore includes the transfer, the wait for the link and the
//! wait in the decode queue, and so do TPOT = (E2E − TTFT) ÷ (n − 1) and the first ITL sample, as a client of
//! such a deployment sees. Everything else is as in [`simulate`]: the same arrival processes, warm-up, fillers,
//! measurement window, percentiles, goodput; `queue_limit` applies to the prefill queue (where requests
//! arrive), `timeout_s` end to end (a request past its deadline is dropped wherever it is — in a queue, a
//! batch, or on arrival at the decode pool); a request is rejected if its prompt cannot fit the prefill pool
//! alone or the whole request the decode pool alone; `max_steps` counts the steps of both pools;
//! `preemptions` adds both pools. The time-averaged fields (`mean_batch`, `mean_kv_utilization`, bound
//! fractions) describe the **decode pool**; `prefill_utilization` is the share of the measurement window the
//! prefill pool spent running steps. Open-loop saturation counts every request waiting anywhere (prefill
//! queue, link, decode queue), so an overloaded decode pool is flagged too.
//!
//! The two pools are simulated as one discrete-event system: each has its own clock (its next scheduling
//! decision), the earlier one moves, and whatever crosses between them — a finished transfer, a closed-loop
//! user's next request — carries its time and is only seen by a pool whose clock has reached it. The decode
//! pool's closed-form runs of pure decode steps stop before the next transfer completes or the prefill pool's
//! next step starts (nothing new can reach the decode pool earlier).
//!
//! Assumptions: the link is dedicated to KV transfers (weights, activations and the colocated all-reduce
//! traffic are not on it), with no per-transfer latency and no layer-by-layer overlap of the transfer with
//! the prefill (Splitwise streams layers as they finish, which would hide part of the transfer); the decode
//! pool needs no free blocks to *receive* (the transferred KV waits in host or staging memory until
//! admission, as with LMCache or a NIXL pull issued once blocks are allocated); no request routing across
//! several instances per pool (one prefill and one decode replica; scale each [`Deployment`] instead); a zero,
//! negative or NaN bandwidth returns the all-zero saturated result, as does a deployment that does not fit.
//! Per the vLLM documentation, disaggregation does not raise throughput; it trades it for a decode step free of
//! prefill interference (lower tail ITL/TPOT) and for sizing TTFT and TPOT separately.
//!
//! # Code map
//!
//! From the entry points down to the parts:
//! - `mod.rs`: this overview and the entry points [`simulate`] and [`simulate_disaggregated`]; `types.rs`: the
//!   public inputs and outputs ([`SimConfig`], [`Targets`], [`Disaggregation`], [`SimResult`]).
//! - `server.rs`: the event loop of the colocated server; `disagg.rs`: that of the disaggregated one (two pools
//!   and the KV-transfer link); `setup.rs`: the run set-up they share.
//! - `books.rs`: the clients (arrival processes, warm-up, fillers) and the measurement; `books/summary.rs`:
//!   the [`SimResult`] at the end of a run.
//! - `pool.rs`: one pool of devices (running batch, waiting queue, KV blocks, preemption, departures);
//!   `pool/schedule.rs`: the scheduler step; `pool/stretch.rs`: runs of pure decode steps in closed form.
//! - `seq.rs`: one request's state, the only thing the books and the pools pass each other (with the pool's
//!   time-weighted statistics); `cost.rs`: a step's load on the roofline; `linear.rs`: step times affine in
//!   the step index.
//! - `dist.rs`, `rng.rs`, `stats.rs`: length distributions and arrival gaps, the random generator,
//!   percentiles and histograms.
//! - `tests.rs`: tests through [`simulate`] (every other file keeps its own unit tests; the disaggregated
//!   server's are in `disagg/tests.rs`).
//!
//! # Sources
//!
//! - Yu et al., "Orca: A Distributed Serving System for Transformer-Based Generative Models", OSDI 2022
//!   (iteration-level scheduling).
//! - Kwon et al., "Efficient Memory Management for Large Language Model Serving with PagedAttention",
//!   SOSP 2023 (KV blocks, recompute preemption).
//! - Agrawal et al., "Taming Throughput-Latency Tradeoff in LLM Inference with Sarathi-Serve", OSDI 2024
//!   (chunked prefill, stall-free batching with decodes first).
//! - vLLM documentation: "Optimization and Tuning" (preemption, chunked prefill, `max_num_batched_tokens`,
//!   `max_num_seqs`), the V1 scheduler (`vllm/v1/core/sched/scheduler.py`: unified token budget, preemption of
//!   the last running request, no admissions in a step that preempted) and `vllm bench serve` (metric
//!   definitions, `--max-concurrency`, `--burstiness` as a gamma shape).
//! - Zhong et al., "DistServe: Disaggregating Prefill and Decoding for Goodput-optimized Large Language Model
//!   Serving", OSDI 2024 (prefill/decode interference, separate pools sized for TTFT and TPOT, KV transfer).
//! - Patel et al., "Splitwise: Efficient Generative LLM Inference Using Phase Splitting", ISCA 2024 (prompt and
//!   token machines, KV-cache transfer over the interconnect and its cost).
//! - vLLM documentation, "Disaggregated Prefilling (experimental)" (`docs/features/disagg_prefill.md`: a prefill
//!   instance and a decode instance joined by a KV connector; controls tail ITL, does not improve throughput)
//!   and its proxy example (the prefill request runs with `max_tokens = 1`); SGLang documentation, "PD
//!   Disaggregation".
//! - Pollaczek–Khinchine formula for the M/G/1 queue (used by the tests as a check).

mod books;
mod cost;
mod disagg;
mod dist;
mod linear;
mod pool;
mod rng;
mod seq;
mod server;
mod setup;
mod stats;
mod types;

pub use books::{MAX_CONCURRENCY, MAX_REQUESTS};
pub use dist::{Arrivals, LengthDist, MAX_TOKENS};
pub use pool::BLOCK_TOKENS;
pub use rng::Rng;
pub use stats::Percentiles;
pub use types::{Disaggregation, SimConfig, SimResult, Targets};

use crate::model::roofline::Deployment;

/// Simulates `cfg` on deployment `d` and summarises latencies and throughput, judging goodput against
/// `targets`. Never panics; deterministic for a fixed `cfg.seed`. See the module docs for the algorithm.
#[must_use]
pub fn simulate(d: &Deployment, cfg: &SimConfig, targets: &Targets) -> SimResult {
    server::run(d, cfg, targets)
}

/// Simulates `cfg` with prompts prefilled on `prefill`, their KV cache moved over the link of `disagg`, and
/// decoding on `decode`, and summarises latencies and throughput as [`simulate`] does (time-averaged fields
/// describe the decode pool). Never panics; deterministic for a fixed `cfg.seed`. See "Disaggregated
/// prefill/decode" in the module docs.
#[must_use]
pub fn simulate_disaggregated(prefill: &Deployment, decode: &Deployment, disagg: &Disaggregation, cfg: &SimConfig, targets: &Targets) -> SimResult {
    disagg::run(prefill, decode, disagg, cfg, targets)
}

#[cfg(test)]
mod tests;
