//! The sizing meeting, end to end (issue 11): "Llama 3.1 70B FP8 on 2 × H100 SXM, a chat service, P99 TPOT ≤
//! 40 ms and P99 TTFT ≤ 2 s: how many concurrent users does one server hold, how many servers for 500 users,
//! what does a million tokens cost at $2.10 per GPU-hour and $0.12 per kWh with a PUE of 1.3 — and what if we
//! used 1 × H200 instead?" Asked as `examples/meeting-2xh100.json` and `examples/meeting-1xh200.json`.

use std::process::Command;
use std::time::Instant;
use tps_planner::plan;
use tps_planner::scenario::{Report, Scenario};

fn scenario(path: &str) -> Scenario {
    Scenario::from_json(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[track_caller]
fn close(a: f64, b: f64, rel: f64) {
    assert!((a - b).abs() <= rel * b.abs().max(1e-12), "{a} vs {b}");
}

/// Every figure the meeting needs is there and they agree with each other.
#[track_caller]
fn check_meeting(r: &Report, devices: u32) {
    let cap = r.capacity.as_ref().unwrap_or_else(|| panic!("no capacity: {}", r.verdict));
    let users = cap.max_users_at_target.expect("a concurrency sweep gives users");
    assert!(cap.max_request_rate_at_target.is_none());
    assert!(users >= 1.0 && users <= r.memory.max_concurrency, "{users} users, at most {} at once", r.memory.max_concurrency);
    assert!(cap.at.tpot_p_ms <= 40.0 && cap.at.ttft_p_ms.unwrap() <= 2000.0, "{cap:?}");
    if let Some(next) = &cap.next {
        assert_eq!(next.concurrency, Some(users + 1.0), "resolved to one user");
        assert!(next.tpot_p_ms > 40.0 || next.ttft_p_ms.unwrap() > 2000.0, "{next:?}");
    }
    let op = r.operating_point.as_ref().unwrap();
    let op_users = op.concurrency.unwrap();
    assert!(op_users >= 1.0 && op_users <= users && op_users.fract() == 0.0);

    let f = r.fleet.as_ref().expect("fleet");
    assert_eq!(f.devices_per_replica, devices);
    assert_eq!(f.users_per_replica, op_users);
    assert_eq!(f.peak_users, Some(500.0));
    assert_eq!(f.spare_replicas, 1);
    assert_eq!(f.replicas, (500.0 / op_users).ceil() as u64 + 1, "replicas = ⌈500 ÷ users per replica⌉ + spare");
    // Rented by the device-hour: the servers' own devices (with a purchase price, whole nodes of 8:
    // `plan::fleet::devices_bought`, tested in tests/regressions.rs).
    assert_eq!(f.devices_total, f.replicas * u64::from(devices));
    let extra = (f.devices_total - f.replicas * u64::from(devices)) as f64;
    close(f.peak_load_per_replica, 500.0 / (f.replicas - 1) as f64, 1e-12);
    close(f.utilisation_at_peak, f.peak_load_per_replica / users, 1e-12);
    assert!(f.utilisation_at_peak <= 1.0);
    assert!(f.sentence.starts_with(&format!("500 users → {} servers of {}", f.replicas, r.hardware)), "{}", f.sentence);
    assert!(f.sentence.contains("+ 1 spare"), "{}", f.sentence);
    for a in &f.alternatives {
        assert_ne!(a.devices_per_replica, devices);
        assert_eq!(a.replicas, (500.0 / a.load_per_replica * (1.0 - 1e-12)).ceil() as u64 + 1);
        assert_eq!(a.devices_total, a.replicas * u64::from(a.devices_per_replica));
    }

    let e = r.energy.as_ref().expect("energy: the presets have a TDP");
    assert_eq!(e.tdp_watts, 700.0);
    assert!(e.average_watts >= f64::from(devices) * e.idle_watts && e.average_watts <= f64::from(devices) * 700.0 + 1e-9);
    close(e.joules_per_output_token, e.average_watts / op.system_tps, 1e-12);
    close(e.output_tokens_per_kwh, 3.6e6 / e.joules_per_output_token, 1e-12);
    close(e.wall_joules_per_output_token.unwrap(), 1.3 * e.joules_per_output_token, 1e-12);
    close(e.at_peak.joules_per_output_token, e.at_peak.average_watts / r.peak.system_tps, 1e-12);
    assert!(e.at_peak.joules_per_output_token < e.joules_per_output_token, "the peak makes more tokens per joule");
    assert!(r.band.energy_pct > r.band.batched_pct);

    let c = r.cost.as_ref().expect("cost");
    assert_eq!(c.currency.as_deref(), Some("USD"));
    let per_hour = 2.10 * f64::from(devices) + 0.12 * e.average_watts / 1000.0 * 1.3;
    close(c.per_hour, per_hour, 1e-12);
    close(c.per_million_output_tokens, per_hour / (op.system_tps * 3600.0) * 1e6, 1e-12);
    close(c.devices_per_hour.unwrap(), 2.10 * f64::from(devices), 1e-12);
    // Tokens in and out: the same hour over the prompts' tokens as well as the answers'.
    let in_and_out = c.per_million_output_tokens * tps_planner::plan::cost::in_and_out_share(r).unwrap();
    close(in_and_out, per_hour / (op.system_tps * (1.0 + r.prompt_tokens / r.output_tokens) * 3600.0) * 1e6, 1e-12);
    // The serving servers at the peak's share of each (at most the operating point's power); the spare idle: its
    // devices paid, its power the idle floor.
    let spares = f64::from(f.spare_replicas);
    let served = f.watts_per_replica.unwrap();
    assert!(served <= e.average_watts * (1.0 + 1e-12) && served > e.idle_watts * f64::from(devices), "{served}");
    let serving_hour = 2.10 * f64::from(devices) + 0.12 * served / 1000.0 * 1.3;
    let spare_hour = 2.10 * f64::from(devices) + 0.12 * e.idle_watts * f64::from(devices) / 1000.0 * 1.3;
    let extra_hour = extra * (2.10 + 0.12 * e.idle_watts / 1000.0 * 1.3);
    close(c.fleet_per_hour.unwrap(), (f.replicas as f64 - spares) * serving_hour + spares * spare_hour + extra_hour, 1e-12);
    assert!(c.at_peak.per_million_output_tokens < c.per_million_output_tokens);
    // The fleet's million tokens at the peak: each serving server's system tok/s at the users it carries (between
    // the levels under the operating point, linear; the operating point's own at its load); the spare and the
    // headroom are paid, so it costs more than one server's at its operating point.
    let x = f.peak_load_per_replica;
    let op_users = op.concurrency.unwrap();
    let under: Vec<(f64, f64)> = std::iter::once((0.0, 0.0))
        .chain(r.sweep.iter().filter_map(|l| l.concurrency.filter(|c| *c < op_users).map(|c| (c, l.system_tps))))
        .chain(std::iter::once((op_users, r.operating_point.as_ref().unwrap().system_tps)))
        .collect();
    let i = under.iter().rposition(|(c, _)| *c <= x).unwrap().min(under.len() - 2);
    let ((x0, y0), (x1, y1)) = (under[i], under[i + 1]);
    let per_server = if x >= op_users { y1 } else { y0 + (y1 - y0) * (x - x0) / (x1 - x0) };
    let tokens_per_s = (f.replicas - u64::from(f.spare_replicas)) as f64 * per_server;
    close(c.fleet_per_million_output_tokens.unwrap(), c.fleet_per_hour.unwrap() / (tokens_per_s * 3600.0) * 1e6, 1e-9);
    assert!(c.fleet_per_million_output_tokens.unwrap() > c.per_million_output_tokens);
}

#[test]
fn the_meeting_question_is_answered() {
    let a = plan::evaluate(&scenario("examples/meeting-2xh100.json")).unwrap();
    let b = plan::evaluate(&scenario("examples/meeting-1xh200.json")).unwrap();
    check_meeting(&a, 2);
    check_meeting(&b, 1);
    // 70B FP8 fits four H100 (64 heads do not divide by 3), not one: the checkpoint's 16-bit head and embedding
    // table make 72.7 GB (`model::quant::head_bits`); one H200 can grow to two.
    let devs = |r: &Report| r.fleet.as_ref().unwrap().alternatives.iter().map(|x| x.devices_per_replica).collect::<Vec<_>>();
    assert_eq!(devs(&a), [4]);
    assert_eq!(devs(&b), [2]);
    let fa = a.fleet.as_ref().unwrap();
    let four = &fa.alternatives[0];
    assert!(four.replicas <= fa.replicas, "4 devices per server never need more servers than 2: {four:?} vs {}", fa.replicas);
    for r in [&a, &b] {
        println!("{}: {}", r.hardware, r.fleet.as_ref().unwrap().sentence);
        println!(
            "  capacity {} users ({:?}), {:.0} W, {:.3} J/token, {:.3} USD per million tokens",
            r.capacity.as_ref().unwrap().max_users_at_target.unwrap(),
            r.capacity.as_ref().unwrap().limited_by,
            r.energy.as_ref().unwrap().average_watts,
            r.energy.as_ref().unwrap().joules_per_output_token,
            r.cost.as_ref().unwrap().per_million_output_tokens
        );
    }

    // A versus B.
    let d = plan::diff(&a, &b);
    let row = |k: &str| d.rows.iter().find(|r| r.metric == k).unwrap_or_else(|| panic!("no row {k}"));
    let check = |k: &str, va: f64, vb: f64| {
        let r = row(k);
        assert_eq!((r.a, r.b), (Some(va), Some(vb)), "{k}");
        close(r.delta.unwrap(), vb - va, 1e-12);
        close(r.ratio.unwrap(), vb / va, 1e-12);
    };
    let (opa, opb) = (a.operating_point.as_ref().unwrap(), b.operating_point.as_ref().unwrap());
    check("per_user_tps", opa.per_user_tps, opb.per_user_tps);
    check("system_tps", opa.system_tps, opb.system_tps);
    check(
        "max_users_at_target",
        a.capacity.as_ref().unwrap().max_users_at_target.unwrap(),
        b.capacity.as_ref().unwrap().max_users_at_target.unwrap(),
    );
    check("replicas", a.fleet.as_ref().unwrap().replicas as f64, b.fleet.as_ref().unwrap().replicas as f64);
    check("cost_per_million_output_tokens", a.cost.as_ref().unwrap().per_million_output_tokens, b.cost.as_ref().unwrap().per_million_output_tokens);
    check("joules_per_output_token", a.energy.as_ref().unwrap().joules_per_output_token, b.energy.as_ref().unwrap().joules_per_output_token);
    // The month a meeting budgets: the cost card's and the energy card's own figures, not counted again in the summary.
    check("fleet_per_month", a.cost.as_ref().unwrap().fleet_per_month.unwrap(), b.cost.as_ref().unwrap().fleet_per_month.unwrap());
    check("fleet_mwh_month", plan::energy::fleet_month_mwh(&a).unwrap(), plan::energy::fleet_month_mwh(&b).unwrap());
    // Coloured as the hour's and the power's rows are (their restatements over the month).
    assert_eq!(row("fleet_mwh_month").b_better(), row("fleet_kw").b_better());
    assert_eq!(row("fleet_per_month").b_better(), row("fleet_per_hour").b_better());
    let kw = row("fleet_kw");
    close(row("fleet_mwh_month").a.unwrap(), 30.0 * 24.0 * kw.a.unwrap() / 1e3, 1e-9);
    assert!(row("cost_per_million_output_tokens").unit.starts_with("USD"));
    assert!(d.a.hardware.contains("2 × NVIDIA H100") && d.b.hardware.contains("H200"), "{:?} {:?}", d.a.hardware, d.b.hardware);

    // `tps diff` reports the same.
    let out =
        Command::new(env!("CARGO_BIN_EXE_tps")).args(["diff", "examples/meeting-2xh100.json", "examples/meeting-1xh200.json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["a"], serde_json::to_value(&d.a).unwrap());
    assert_eq!(v["b"], serde_json::to_value(&d.b).unwrap());
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), d.rows.len());
    // The CLI's diff is plan::diff of the two reports (to JSON's float precision).
    for (j, r) in rows.iter().zip(&d.rows) {
        assert_eq!(j["metric"], r.metric);
        for (key, want) in [("a", r.a), ("b", r.b), ("delta", r.delta), ("ratio", r.ratio)] {
            match want {
                Some(w) => close(j[key].as_f64().unwrap(), w, 1e-12),
                None => assert!(j[key].is_null(), "{}.{key}", r.metric),
            }
        }
    }
    let out = Command::new(env!("CARGO_BIN_EXE_tps"))
        .args(["diff", "examples/meeting-2xh100.json", "examples/meeting-1xh200.json", "--table"])
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&out.stdout);
    for label in ["max users at the target", "servers for the fleet", "cost per million output tokens", "energy per output token", "B ÷ A"] {
        assert!(table.contains(label), "{label} missing in\n{table}");
    }
    println!("{table}");
}

/// The issue's first complaint: capacity moved between 96 and 120 users with the load levels chosen, and the
/// operating point with it. Now both are resolved between levels.
#[test]
fn capacity_and_operating_point_do_not_depend_on_the_grid() {
    let base = scenario("examples/meeting-2xh100.json");
    let grids: [Option<Vec<f64>>; 3] = [None, Some(vec![1.0, 5.0, 10.0, 30.0, 70.0, 150.0]), Some(vec![2.0, 7.0, 13.0, 40.0, 100.0])];
    let mut seen = Vec::new();
    for g in grids {
        let mut s = base.clone();
        s.fleet = None;
        if let Some(levels) = g.clone() {
            s.workload.load = Some(tps_planner::scenario::LoadSpec { concurrency: Some(levels), ..Default::default() });
        }
        let r = plan::evaluate(&s).unwrap();
        let c = r.capacity.as_ref().unwrap();
        let users = c.max_users_at_target.unwrap();
        let op = r.operating_point.as_ref().unwrap().concurrency.unwrap();
        println!("grid {:?}: capacity {users} users, operating point {op} users, {} extra levels", g.as_deref().unwrap_or(&[]), c.extra_levels);
        seen.push((users, op));
    }
    // The search resolves to ±1 user, but a P99 measured over a finite run is not exactly monotone in the load
    // (a neighbouring level can pass where this one fails by a tenth of a millisecond), so grids that bracket
    // the crossing differently may land a few users apart: here P99 TPOT moves by about 1 ms from 29 to 33 users
    // (39–40.3 ms against a 40 ms target; flatter since the kernel chain's floor sets small batches' steps).
    for (u, op) in &seen[1..] {
        assert!((u - seen[0].0).abs() <= (0.1 * seen[0].0).max(2.0), "capacities {seen:?}");
        assert!((op - seen[0].1).abs() <= (0.1 * seen[0].1).max(2.0), "operating points {seen:?}");
    }
}

/// The extra cost of the capacity search, printed (a benchmark, not a timed test: other tests run beside it).
#[test]
fn print_the_cost_of_the_capacity_search() {
    for path in ["examples/h100-llama8b.json", "examples/meeting-2xh100.json", "examples/meeting-1xh200.json"] {
        let r = scenario(path).resolve().unwrap();
        let (mut sweep_ms, mut full_ms) = (Vec::new(), Vec::new());
        let (mut extra, mut levels) = (0, 0);
        // Interleaved, so that a busy moment hits both alike.
        for _ in 0..7 {
            let t = Instant::now();
            std::hint::black_box(plan::sweep_levels(&r));
            sweep_ms.push(t.elapsed().as_secs_f64() * 1e3);
            let t = Instant::now();
            let rep = plan::evaluate_resolved(&r);
            full_ms.push(t.elapsed().as_secs_f64() * 1e3);
            extra = rep.capacity.as_ref().map_or(0, |c| c.extra_levels);
            levels = rep.sweep.len();
        }
        let median = |mut v: Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let (sweep, full) = (median(sweep_ms), median(full_ms));
        println!(
            "capacity search ({path}): {extra} extra simulated levels on top of {levels}; sweep {sweep:.1} ms, whole evaluation {full:.1} ms (+{:.1} ms, {:+.0} %)",
            full - sweep,
            (full / sweep - 1.0) * 100.0
        );
        assert!(extra <= 10, "{path}: {extra} extra levels");
    }
}

/// The meeting with fixed-length users (a benchmark's lengths; the scenario format and the page default to lognormal ones): the capacity is TTFT-bound because the users
/// move in lock-step, and the report says so and what to change; with the example's lognormal lengths it is not.
#[test]
fn a_lock_step_capacity_says_so() {
    let mut s = scenario("examples/meeting-2xh100.json");
    let lognormal = plan::evaluate(&s).unwrap();
    let says = |r: &Report| r.warnings.iter().any(|w| w.message.contains("lock-step"));
    assert!(!says(&lognormal), "{:?}", lognormal.warnings);
    s.workload.distribution = Some(tps_planner::scenario::Distribution::Fixed);
    s.workload.spread = None;
    let fixed = plan::evaluate(&s).unwrap();
    let cap = fixed.capacity.as_ref().unwrap();
    assert_eq!(cap.limited_by, tps_planner::scenario::LimitedBy::Ttft, "{}", fixed.verdict);
    assert!(says(&fixed), "{:?}", fixed.warnings);
    // The same server holds more users of varied lengths.
    assert!(lognormal.capacity.as_ref().unwrap().max_users_at_target.unwrap() > cap.max_users_at_target.unwrap());
    // Whatever limits the capacity, a fleet sized on fixed lengths says so (a TTFT target of a minute: TPOT limits).
    s.target.ttft_ms = Some(60_000.0);
    let tpot_bound = plan::evaluate(&s).unwrap();
    assert_ne!(tpot_bound.capacity.as_ref().unwrap().limited_by, tps_planner::scenario::LimitedBy::Ttft);
    assert!(
        tpot_bound.fleet.is_some() && tpot_bound.warnings.iter().any(|w| w.message.contains("fleet is sized on fixed-length users")),
        "{:?}",
        tpot_bound.warnings
    );
}

/// The month of a service busy part of the day (a pre-sales trial: a bank's assistant at its peak ten hours a day
/// read 16.9 MWh a month, the peak around the clock): `fleet.peak_hours_per_day` hours at the peak's power, the
/// rest with every server idle; the devices paid around the clock. Out of range is refused naming the field.
#[test]
fn a_month_of_ten_busy_hours_a_day() {
    let mut s = scenario("examples/meeting-2xh100.json");
    let all_day = plan::evaluate_analytic(&s).unwrap();
    s.fleet.as_mut().unwrap().peak_hours_per_day = Some(10.0);
    let r = plan::evaluate_analytic(&s).unwrap();
    let (f, e, c) = (r.fleet.as_ref().unwrap(), r.energy.as_ref().unwrap(), r.cost.as_ref().unwrap());
    assert_eq!(f.peak_hours_per_day, 10.0);
    // The same fleet and peak power: only the month changes.
    assert_eq!((f.replicas, c.fleet_per_hour), (all_day.fleet.as_ref().unwrap().replicas, all_day.cost.as_ref().unwrap().fleet_per_hour));
    close(all_day.cost.as_ref().unwrap().fleet_per_month.unwrap(), 720.0 * c.fleet_per_hour.unwrap(), 1e-12);
    // By hand: every server idle is 2 devices at the idle floor, × PUE 1.3; the fleet's peak kW from the report.
    let kw = plan::energy::fleet_kw(&r).unwrap();
    // (With the devices of the last node beyond the servers', idle too.)
    let extra = (f.devices_total - f.replicas * 2) as f64;
    let idle_kw = (f.replicas as f64 * 2.0 + extra) * e.idle_watts * 1.3 / 1e3;
    let mwh = 30.0 * (10.0 * kw + 14.0 * idle_kw) / 1e3;
    let words = plan::energy::fleet_power_words(&r).unwrap();
    let said = words.split(" MWh a month of 10 h a day at the peak and 14 idle (30 days)").next().and_then(|w| w.rsplit(' ').next());
    let said: f64 = said.and_then(|x| x.parse().ok()).unwrap_or_else(|| panic!("{words}"));
    close(said, mwh, 0.005);
    // And a year of it (365 days), after how the month is counted.
    let year = words.split(" MWh a month of 10 h a day at the peak and 14 idle (30 days), ").nth(1).and_then(|w| w.split(" MWh a year").next());
    let year: f64 = year.and_then(|x| x.parse().ok()).unwrap_or_else(|| panic!("{words}"));
    close(year, mwh * 365.0 / 30.0, 0.005);
    // The cost: devices 2.10 an hour each around the clock; electricity at the peak's 10 hours and the idle 14.
    let idle_hour = (f.replicas as f64 * 2.0 + extra) * (2.10 + 0.12 * e.idle_watts / 1e3 * 1.3);
    close(c.fleet_per_month.unwrap(), 30.0 * (10.0 * c.fleet_per_hour.unwrap() + 14.0 * idle_hour), 1e-9);
    assert!(c.fleet_per_month.unwrap() < 720.0 * c.fleet_per_hour.unwrap());
    for bad in [0.0, 25.0, f64::NAN] {
        s.fleet.as_mut().unwrap().peak_hours_per_day = Some(bad);
        let err = plan::evaluate_analytic(&s).unwrap_err();
        assert_eq!(err.field, "fleet.peak_hours_per_day", "{bad}: {err}");
    }
}

/// A head count: 1,500 employees, a fifth of them in the busiest hour, 12 requests an hour each, are 1 req/s — sized
/// as that rate is, the arithmetic in the fleet's sentence; a head count missing a part, or given beside another
/// peak, is refused naming the field (two trials, an operations engineer's and a pre-sales engineer's, had to turn
/// employees into a load by hand).
#[test]
fn a_head_count_is_sized_as_the_requests_it_sends() {
    let with = |fleet: &str| {
        Scenario::from_json(&format!(
            r#"{{"hardware":{{"preset":"h100-sxm","devices":2}},"model":{{"preset":"llama-3.1-70b"}},"quantization":{{"weights":"fp8"}},"engine":{{"preset":"vllm"}},"fleet":{{{fleet}}}}}"#
        ))
        .unwrap()
    };
    let people = plan::evaluate(&with(r#""people":15000,"active_share":0.2,"requests_per_person_hour":12"#)).unwrap();
    let rate = plan::evaluate(&with(r#""peak_request_rate":10"#)).unwrap();
    let (fp, fr) = (people.fleet.as_ref().unwrap(), rate.fleet.as_ref().unwrap());
    assert_eq!(fp.peak_request_rate, Some(10.0));
    assert_eq!((fp.replicas, fp.devices_total), (fr.replicas, fr.devices_total));
    assert!(fp.replicas >= 2, "{}", fp.sentence);
    assert!(
        fp.sentence.starts_with("15\u{202f}000 people × 20 % active in the busiest hour × 12 requests an hour each ÷ 3\u{202f}600 s = 10 req/s → "),
        "{}",
        fp.sentence
    );
    assert!(fp.sentence.ends_with(&format!(" = {}", fr.sentence)), "the rest reads as the rate's: {} | {}", fp.sentence, fr.sentence);
    for (fleet, field) in [
        (r#""people":1500,"requests_per_person_hour":12"#, "fleet.active_share"),
        (r#""people":1500,"active_share":0.2"#, "fleet.requests_per_person_hour"),
        (r#""active_share":0.2,"requests_per_person_hour":12"#, "fleet.people"),
        (r#""people":1500,"active_share":20,"requests_per_person_hour":12"#, "fleet.active_share"),
        (r#""people":1500.5,"active_share":0.2,"requests_per_person_hour":12"#, "fleet.people"),
        (r#""people":1500,"active_share":0.2,"requests_per_person_hour":12,"peak_users":100"#, "fleet.people"),
    ] {
        let e = with(fleet).resolve().unwrap_err();
        assert_eq!(e.field, field, "{fleet}: {}", e.message);
    }
}

/// A fleet bought is also costed over its write-off, the years a quote states: 365 days a year of the month's days
/// (a pre-sales trial multiplied the 30-day month by 36 and came 1.4 % short of three years).
#[test]
fn a_bought_fleet_is_costed_over_its_write_off() {
    let s = Scenario::from_json(
        r#"{"hardware":{"preset":"h100-sxm","devices":8},"model":{"preset":"llama-3.1-70b"},"quantization":{"weights":"fp8"},"engine":{"preset":"vllm"},
            "workload":{"prompt_tokens":1024,"output_tokens":300,"think_time_s":30},"target":{"tpot_ms":50,"ttft_ms":2000,"percentile":99},
            "fleet":{"peak_users":450,"spare_replicas":1,"peak_hours_per_day":10},"cost":{"device_price":37500,"write_off_years":3,"currency":"EUR","electricity_per_kwh":0.2,"pue":1.4}}"#,
    )
    .unwrap();
    let c = plan::evaluate(&s).unwrap().cost.unwrap();
    // What is bought (every device, idle ones of whole nodes too) and the electricity of three years of 365 days.
    let bought = c.purchase.as_ref().and_then(|p| p.fleet_price).unwrap();
    let power = c.fleet_electricity_per_month.unwrap() / 30.0 * 365.0 * 3.0;
    close(c.fleet_over_write_off.unwrap(), bought + power, 1e-9);
    assert!(power > 0.01 * bought, "the electricity counts: {power} against {bought}");
    // Without an electricity price, the devices alone.
    let unpriced = Scenario::from_json(&serde_json::to_string(&s).unwrap().replace(r#","electricity_per_kwh":0.2"#, "")).unwrap();
    let c = plan::evaluate(&unpriced).unwrap().cost.unwrap();
    assert!(c.fleet_electricity_per_month.is_none(), "{c:?}");
    close(c.fleet_over_write_off.unwrap(), c.purchase.as_ref().and_then(|p| p.fleet_price).unwrap(), 1e-9);
    // Renting by the device-hour has no write-off to cost over.
    let rented = Scenario::from_json(&serde_json::to_string(&s).unwrap().replace(r#""device_price":37500.0"#, r#""device_hour":2.0"#)).unwrap();
    let c = plan::evaluate(&rented).unwrap().cost.unwrap();
    assert!(c.purchase.is_none() && c.fleet_over_write_off.is_none(), "{c:?}");
}
