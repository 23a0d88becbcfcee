//! Cost per output token from the prices a scenario gives (`cost`); no price is ever assumed.
//!
//! One replica for one hour costs
//!
//! ```text
//! per_hour = device_hour × devices + electricity_per_kwh × (average_watts + host_watts × devices) ÷ 1000 × PUE
//! ```
//!
//! and produces system TPS × 3600 output tokens, so
//! `per_million_output_tokens = per_hour ÷ (system TPS × 3600) × 10⁶`, at the operating point and at the peak.
//! Only the parts given are counted: the devices alone (`device_hour`), the electricity alone
//! (`electricity_per_kwh`, which needs the power model and so a TDP; PUE 1 and no hosts when not given) or both.
//! The electricity part carries the energy band (`band.energy_pct`).
//!
//! A purchase price per device (`cost.device_price`, the device with its share of the server: chassis, CPUs,
//! network) stands in for the price per device-hour: written off over `cost.write_off_years` (default
//! [`WRITE_OFF_YEARS`], straight-line, every hour of the year), `device_hour = price ÷ (years × 8,760)`; with a
//! fleet, its purchase is priced too (every device of every server, spares included). A pre-sales trial had to
//! turn a server's price into a device-hour by hand to answer "this cost" in a meeting.

use crate::scenario::{Cost, CostFigures, CostInputs, Energy, Purchase};

/// Years a purchase is written off over when the scenario does not say (four: a common depreciation period of
/// servers; an assumption the cost card states).
pub const WRITE_OFF_YEARS: f64 = 4.0;

/// Hours in a year of 365 days.
pub const HOURS_A_YEAR: f64 = 8760.0;

/// A purchase price per device written off straight-line over `years`, every hour of the year: its device-hour.
#[must_use]
pub fn written_off_hourly(price: f64, years: f64) -> f64 {
    price / (years * HOURS_A_YEAR)
}

impl Purchase {
    /// The device-hour its price makes over its years ([`written_off_hourly`]).
    #[must_use]
    pub fn device_hour(&self) -> f64 {
        written_off_hourly(self.device_price, self.write_off_years)
    }
}

/// The per-hour parts of one replica: (devices, electricity), each `None` when not priced.
#[must_use]
pub fn per_hour_parts(
    device_hour: Option<f64>,
    devices: u32,
    electricity_per_kwh: Option<f64>,
    average_watts: Option<f64>,
    pue: Option<f64>,
) -> (Option<f64>, Option<f64>) {
    let dev = device_hour.map(|p| p * f64::from(devices));
    let elec = match (electricity_per_kwh, average_watts) {
        (Some(e), Some(w)) => Some(e * w / 1000.0 * pue.unwrap_or(1.0)),
        _ => None,
    };
    (dev, elec)
}

/// Cost of a million output tokens from the cost of an hour and the output tokens per second; `None` when
/// nothing is produced.
#[must_use]
pub fn per_million(per_hour: f64, tps: f64) -> Option<f64> {
    let v = per_hour / (tps * 3600.0) * 1e6;
    (tps > 0.0 && v.is_finite()).then_some(v)
}

/// What the cost of a fleet rests on: its replicas (spares among them), a serving replica's power at the peak's share
/// of it (`None`: the operating point's), the hours a day at the peak, the output tokens/s its peak asks for, and
/// the devices bought beyond the replicas' (whole nodes: paid, idle all day).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FleetBasis {
    pub replicas: u64,
    pub idle_devices: u64,
    pub spares: u32,
    pub watts_per_replica: Option<f64>,
    pub peak_hours_per_day: f64,
    pub output_tps_at_peak: f64,
}

/// The report's cost: at the operating point (`op_tps`, energy's `average_watts`) and at the peak (`peak_tps`,
/// energy's `at_peak`), for one replica of `devices` devices; `fleet` (replicas, of which spares, and a serving
/// replica's power at the peak's share of it) prices the whole fleet: the serving replicas at that power (the
/// operating point's where it is `None`), the spares idle (their devices paid, their power the idle floor). `None` when no part can be priced (a note in `warnings` says why when a price was given).
#[must_use]
pub fn cost(
    c: &CostInputs,
    devices: u32,
    energy: Option<&Energy>,
    op_tps: f64,
    peak_tps: f64,
    fleet: Option<FleetBasis>,
    warnings: &mut Vec<super::Warning>,
) -> Option<Cost> {
    if c.electricity_per_kwh.is_some() && energy.is_none() {
        warnings.push(super::Warning::new(
            super::WarningKind::Cost,
            "cost: electricity is priced but there is no power estimate (hardware.tdp_watts not known): the cost leaves electricity out",
        ));
    }
    if c.host_watts.is_some() && energy.is_none() {
        warnings.push(super::Warning::new(
            super::WarningKind::Cost,
            "cost: the hosts' power is given but there is no power estimate (hardware.tdp_watts not known): nothing counts it",
        ));
    }
    // The meter's electricity: the accelerators and, when given, their hosts (`cost.host_watts_per_device`).
    let hosts = c.host_watts.unwrap_or(0.0) * f64::from(devices);
    let energy_w = |f: fn(&Energy) -> f64| energy.map(|e| f(e) + hosts);
    let (dev, elec) = per_hour_parts(c.device_hour, devices, c.electricity_per_kwh, energy_w(|e| e.average_watts), c.pue);
    if dev.is_none() && elec.is_none() {
        return None;
    }
    let per_hour = dev.unwrap_or(0.0) + elec.unwrap_or(0.0);
    let (dev_pk, elec_pk) = per_hour_parts(c.device_hour, devices, c.electricity_per_kwh, energy_w(|e| e.at_peak.average_watts), c.pue);
    let per_hour_peak = dev_pk.unwrap_or(0.0) + elec_pk.unwrap_or(0.0);
    let idle = energy.map(|e| e.idle_watts * f64::from(devices) + hosts);
    let (dev_idle, elec_idle) = per_hour_parts(c.device_hour, devices, c.electricity_per_kwh, idle, c.pue);
    let spare_hour = dev_idle.unwrap_or(0.0) + elec_idle.unwrap_or(0.0);
    // One device bought beyond the replicas': paid, at its idle floor (with its host's share) all day.
    let idle_one = energy.map(|e| e.idle_watts + c.host_watts.unwrap_or(0.0));
    let (dev_one, elec_one) = per_hour_parts(c.device_hour, 1, c.electricity_per_kwh, idle_one, c.pue);
    let extra_hour = |f: &FleetBasis| f.idle_devices as f64 * (dev_one.unwrap_or(0.0) + elec_one.unwrap_or(0.0));
    // The same month's electricity alone: the serving replicas at the peak's power for its hours, every device at its
    // idle floor for the rest, the spares and idle devices of whole nodes at the floor all day.
    let fleet_electricity_per_month = fleet.zip(elec_idle).zip(elec_one).and_then(|((f, idle_server), one)| {
        let watts = f.watts_per_replica.map(|w| w + hosts).or(energy_w(|e| e.average_watts));
        let (_, serving) = per_hour_parts(None, devices, c.electricity_per_kwh, watts, c.pue);
        let extra = f.idle_devices as f64 * one;
        let peak = f.replicas.saturating_sub(u64::from(f.spares)) as f64 * serving? + f64::from(f.spares) * idle_server + extra;
        Some(30.0 * (f.peak_hours_per_day * peak + (24.0 - f.peak_hours_per_day) * (f.replicas as f64 * idle_server + extra)))
    });
    let fleet_per_hour = fleet.map(|f| {
        let watts = f.watts_per_replica.map(|w| w + hosts).or(energy_w(|e| e.average_watts));
        let (dev_s, elec_s) = per_hour_parts(c.device_hour, devices, c.electricity_per_kwh, watts, c.pue);
        f.replicas.saturating_sub(u64::from(f.spares)) as f64 * (dev_s.unwrap_or(0.0) + elec_s.unwrap_or(0.0))
            + f64::from(f.spares) * spare_hour
            + extra_hour(&f)
    });
    // A day of the fleet: its hours at the peak, the rest with every server idle.
    let fleet_day = fleet
        .zip(fleet_per_hour)
        .map(|(f, peak)| f.peak_hours_per_day * peak + (24.0 - f.peak_hours_per_day) * (f.replicas as f64 * spare_hour + extra_hour(&f)));
    Some(Cost {
        per_million_output_tokens: per_million(per_hour, op_tps)?,
        per_hour,
        currency: c.currency.clone(),
        devices_per_hour: dev,
        electricity_per_hour: elec,
        at_peak: CostFigures { per_million_output_tokens: per_million(per_hour_peak, peak_tps)?, per_hour: per_hour_peak },
        purchase: c.device_price.map(|p| Purchase {
            device_price: p,
            write_off_years: c.write_off_years.unwrap_or(WRITE_OFF_YEARS),
            fleet_devices: fleet.map(|f| f.replicas * u64::from(devices) + f.idle_devices),
            fleet_price: fleet.map(|f| (f.replicas * u64::from(devices) + f.idle_devices) as f64 * p),
        }),
        fleet_per_million_output_tokens: fleet.zip(fleet_per_hour).and_then(|(f, h)| per_million(h, f.output_tps_at_peak)),
        // The month's tokens are the peak's for its hours alone (a day's cost spread over a day's busy hours).
        fleet_per_million_over_month: fleet
            .zip(fleet_day)
            .filter(|(f, _)| f.peak_hours_per_day > 0.0 && f.peak_hours_per_day < 24.0)
            .and_then(|(f, day)| per_million(day / f.peak_hours_per_day, f.output_tps_at_peak)),
        fleet_per_hour,
        // Off the peak every server idles, as the spares do all day: devices paid, power at the floor.
        fleet_per_month: fleet_day.map(|d| 30.0 * d),
        fleet_electricity_per_month,
        fleet_over_write_off: c.device_price.and(fleet_day).map(|d| d * 365.0 * c.write_off_years.unwrap_or(WRITE_OFF_YEARS)),
    })
}

/// The share of the tokens in and out that are output tokens, output ÷ (prompt + output): a cost per million output
/// tokens times it is the cost per million tokens in and out, for the page's cost card and the CLI. Price lists quote
/// prompts and answers apart, and the cost per million output tokens reads high against a price per token in and out
/// (a pre-sales trial: 5 × with 2,000-token prompts to 500 out). `None` without a prompt or an answer.
#[must_use]
pub fn in_and_out_share(r: &crate::scenario::Report) -> Option<f64> {
    (r.prompt_tokens > 0.0 && r.output_tokens > 0.0).then(|| r.output_tokens / (r.prompt_tokens + r.output_tokens))
}

/// The fleet's cost per million output tokens over the month, where its peak lasts part of the day
/// (`Cost::fleet_per_million_over_month`), for the cost sentences of the page and the CLI: empty around the clock.
/// `amount` writes a sum with its currency.
#[must_use]
pub fn over_month_words(c: &Cost, r: &crate::scenario::Report, amount: &dyn Fn(f64) -> String) -> String {
    let (Some(m), Some(f)) = (c.fleet_per_million_over_month, r.fleet.as_ref()) else { return String::new() };
    format!(
        "; over the month, busy {} h a day and idle the rest, {} per million (the servers paid around the clock for the peak's tokens alone)",
        crate::model::units::fmt_num(f.peak_hours_per_day),
        amount(m)
    )
}

/// An hour's electricity beside the devices' hour in a cost sentence: two decimals from 1 up, as the devices' ("devices
/// 8.56 + electricity 1.15"; a trial read "1.149" beside "8.56"), three below, where two would round a server's
/// 0.104 to 0.10 (0.9996, which three decimals would show as "1.000", takes two).
#[must_use]
pub fn hourly_part(v: f64) -> String {
    if v >= 0.9995 {
        format!("{v:.2}")
    } else if v >= 0.00995 || v <= 0.0 || !v.is_finite() {
        format!("{v:.3}")
    } else {
        // Two significant digits below a cent: a device written off over 30 years costs 0.00038 an hour, not "0.00"
        // (a review).
        let d = (1.0 - v.log10().floor()).clamp(3.0, 9.0) as usize;
        format!("{v:.d$}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cost_formula_by_hand() {
        // 2 GPUs at 2.10/h = 4.20/h; 980 W at 0.12/kWh × PUE 1.3 = 0.98 × 0.12 × 1.3 = 0.15288/h; total 4.35288/h.
        let (d, e) = per_hour_parts(Some(2.10), 2, Some(0.12), Some(980.0), Some(1.3));
        assert!((d.unwrap() - 4.2).abs() < 1e-12);
        assert!((e.unwrap() - 0.152_88).abs() < 1e-12);
        // At 2000 tok/s a replica makes 7.2 M tokens an hour: 4.35288 / 7.2 = 0.60457 per million.
        let m = per_million(4.352_88, 2000.0).unwrap();
        assert!((m - 0.604_566_666_666_666_7).abs() < 1e-12, "{m}");
        // Devices alone; electricity alone (PUE 1 when not given); neither.
        assert_eq!(per_hour_parts(Some(2.0), 4, None, Some(500.0), None), (Some(8.0), None));
        assert_eq!(per_hour_parts(None, 4, Some(0.2), Some(500.0), None), (None, Some(0.1)));
        assert_eq!(per_hour_parts(None, 4, None, None, Some(1.5)), (None, None));
        assert_eq!(per_hour_parts(None, 4, Some(0.2), None, None), (None, None), "no power estimate, no electricity");
        assert!(per_million(1.0, 0.0).is_none());
    }

    #[test]
    fn the_report_prices_the_parts_given() {
        let energy = Energy {
            average_watts: 980.0,
            joules_per_output_token: 0.49,
            output_tokens_per_kwh: 3.6e6 / 0.49,
            at_peak: crate::scenario::EnergyFigures { average_watts: 1400.0, joules_per_output_token: 0.35, output_tokens_per_kwh: 3.6e6 / 0.35 },
            tdp_watts: 700.0,
            idle_watts: 175.0,
            activity: 0.6,
            pue: Some(1.3),
            host_watts: None,
            wall_joules_per_output_token: Some(0.637),
        };
        let c = CostInputs {
            device_hour: Some(2.10),
            currency: Some("USD".into()),
            electricity_per_kwh: Some(0.12),
            pue: Some(1.3),
            device_price: None,
            write_off_years: None,
            host_watts: None,
        };
        // Seven servers, one of them spare, serving at `watts` (the operating point's when `None`) `hours` a day.
        let seven = |watts: Option<f64>, hours: f64| {
            Some(FleetBasis { replicas: 7, idle_devices: 0, spares: 1, watts_per_replica: watts, peak_hours_per_day: hours, output_tps_at_peak: 0.0 })
        };
        let mut w = Vec::new();
        let r = cost(&c, 2, Some(&energy), 2000.0, 4000.0, seven(None, 24.0), &mut w).unwrap();
        assert!((r.per_hour - 4.352_88).abs() < 1e-12);
        assert!((r.per_million_output_tokens - 4.352_88 / 7.2).abs() < 1e-12);
        // Peak: 4.2 + 1.4 × 0.12 × 1.3 = 4.4184 per hour over 14.4 M tokens.
        assert!((r.at_peak.per_hour - 4.4184).abs() < 1e-12);
        assert!((r.at_peak.per_million_output_tokens - 4.4184 / 14.4).abs() < 1e-12);
        // 6 serving at 4.35288 per hour; the spare pays its devices (4.2) and its idle floor, 2 × 175 W at
        // 0.12 per kWh × PUE 1.3 = 0.0546.
        assert!((r.fleet_per_hour.unwrap() - (6.0 * 4.352_88 + 4.2 + 0.0546)).abs() < 1e-9);
        // Serving replicas that carry less than the operating point draw less: 700 W each, 0.7 × 0.12 × 1.3 =
        // 0.1092 an hour of electricity beside the devices' 4.2.
        let lighter = cost(&c, 2, Some(&energy), 2000.0, 4000.0, seven(Some(700.0), 24.0), &mut w).unwrap();
        assert!((lighter.fleet_per_hour.unwrap() - (6.0 * (4.2 + 0.1092) + 4.2 + 0.0546)).abs() < 1e-9);
        // A month around the clock is 720 such hours; of 10 h a day at the peak, the other 14 have all 7 servers
        // idle (each 4.2 + 0.0546 an hour): 30 × (10 × 30.1098 + 14 × 7 × 4.2546) = 30 × (301.098 + 416.9508) = 21,541.464.
        assert!((lighter.fleet_per_month.unwrap() - 720.0 * lighter.fleet_per_hour.unwrap()).abs() < 1e-6);
        let ten = cost(&c, 2, Some(&energy), 2000.0, 4000.0, seven(Some(700.0), 10.0), &mut w).unwrap();
        assert!((ten.fleet_per_month.unwrap() - 21_541.464).abs() < 1e-6, "{:?}", ten.fleet_per_month);
        // Over the month, with the peak's 10,000 output tok/s for those 10 h a day and nothing the rest: a day's
        // 718.0488 over 10 × 36 M tokens = 1.99458 per million, where the peak's hour alone is 30.1098 ÷ 36 = 0.83638.
        // Around the clock there is no second figure (it would be the peak's).
        let busy = |hours: f64| Some(FleetBasis { output_tps_at_peak: 10_000.0, ..seven(Some(700.0), hours).unwrap() });
        let ten = cost(&c, 2, Some(&energy), 2000.0, 4000.0, busy(10.0), &mut w).unwrap();
        assert!((ten.fleet_per_million_output_tokens.unwrap() - 30.1098 / 36.0).abs() < 1e-9);
        assert!((ten.fleet_per_million_over_month.unwrap() - 718.048_8 / 360.0).abs() < 1e-9, "{:?}", ten.fleet_per_million_over_month);
        assert!(cost(&c, 2, Some(&energy), 2000.0, 4000.0, busy(24.0), &mut w).unwrap().fleet_per_million_over_month.is_none());
        assert_eq!(r.currency.as_deref(), Some("USD"));
        assert!(w.is_empty());
        // The hosts at 575 W per device count at the meter, whatever the load: 980 + 2 × 575 = 2,130 W at the
        // operating point, 2.13 × 0.12 × 1.3 = 0.33228 an hour; the idle spare 350 + 1,150 = 1,500 W, 0.234.
        let hosted = CostInputs { host_watts: Some(575.0), ..c.clone() };
        let h = cost(&hosted, 2, Some(&energy), 2000.0, 4000.0, seven(Some(700.0), 24.0), &mut w).unwrap();
        assert!((h.electricity_per_hour.unwrap() - 0.332_28).abs() < 1e-12);
        assert!((h.at_peak.per_hour - (4.2 + 2.55 * 0.12 * 1.3)).abs() < 1e-12);
        assert!((h.fleet_per_hour.unwrap() - (6.0 * (4.2 + 1.85 * 0.12 * 1.3) + 4.2 + 0.234)).abs() < 1e-9);
        // Electricity without a power estimate: devices only, and a note.
        let r = cost(&c, 2, None, 2000.0, 4000.0, None, &mut w).unwrap();
        assert!((r.per_hour - 4.2).abs() < 1e-12 && r.electricity_per_hour.is_none());
        assert_eq!(w.len(), 1);
        // Nothing priced.
        let none = CostInputs {
            device_hour: None,
            currency: Some("EUR".into()),
            electricity_per_kwh: None,
            pue: Some(1.2),
            device_price: None,
            write_off_years: None,
            host_watts: None,
        };
        assert!(cost(&none, 2, Some(&energy), 2000.0, 4000.0, None, &mut Vec::new()).is_none());
    }
}
