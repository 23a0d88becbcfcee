//! Latency target, fleet and cost inputs.

use super::super::checks::{check, check_u, opt_pos, positive, unknown};
use super::super::*;
use crate::presets;

/// The share of a server's capacity an operating point may take (`target.operating_fraction`'s range): a fleet
/// keeps each server within it where it can (`plan::fleet`), whole users too (`plan::operating_point`).
pub const OPERATING_RANGE: (f64, f64) = (0.5, 0.7);

pub(crate) fn resolve_target(s: &TargetSpec, mode: Mode, defaults: &mut Vec<String>) -> Result<Target, ScenarioError> {
    let task_s = opt_pos("target.task_s", s.task_s, 1e7, "s")?;
    if task_s.is_some() && mode != Mode::Agent {
        return Err(ScenarioError::new("target.task_s", "a task-time target applies in agent mode only (workload.mode \"agent\")"));
    }
    // A task target alone stands for the agent's whole latency: no per-token limit unless one is given too.
    let task_only = task_s.is_some() && s.preset.is_none() && s.tpot_ms.is_none() && s.ttft_ms.is_none();
    let id = s.preset.clone().unwrap_or_else(|| if mode == Mode::Batch || task_only { "batch".into() } else { "reader".into() });
    let p = presets::targets::find(&id).ok_or_else(|| unknown("target.preset", &id, presets::targets::TARGETS.iter().map(|t| t.id)))?;
    let pct = check("target.percentile", s.percentile.unwrap_or(p.percentile), 50.0, 99.0, "(50, 90, 95 or 99)")?;
    let Some(pct) = crate::percentiles::Pct::from_value(pct) else {
        return Err(ScenarioError::new("target.percentile", format!("{pct} is not one of 50, 90, 95, 99")));
    };
    let name = match task_s {
        Some(t) if task_only => format!("agent task ≤ {} s", crate::model::units::fmt_num(t)),
        Some(t) => {
            format!("{} and task ≤ {} s", if s.tpot_ms.is_some() || s.ttft_ms.is_some() { "custom" } else { p.name }, crate::model::units::fmt_num(t))
        }
        None if s.tpot_ms.is_some() || s.ttft_ms.is_some() => "custom".into(),
        None => p.name.into(),
    };
    // One limit typed and the other taken from the default preset: say so (a trial set only tpot_ms and was judged
    // on a TTFT ≤ 2000 ms it never asked for).
    if s.preset.is_none() && s.tpot_ms.is_some() != s.ttft_ms.is_some() {
        let (field, v) = if s.tpot_ms.is_some() { ("ttft_ms", p.ttft_ms) } else { ("tpot_ms", p.tpot_ms) };
        if let Some(v) = v {
            defaults.push(format!(
                "target.{field}: {} ms, the \"{}\" preset's — give target.{field} to change it, or target.preset \"batch\" for no such limit",
                crate::model::units::fmt_num(v),
                p.id
            ));
        }
    }
    Ok(Target {
        name,
        // From 0.1 ms: a trial's 0.001 printed as "TPOT ≤ 0 ms".
        tpot_ms: s.tpot_ms.or(p.tpot_ms).map(|v| check("target.tpot_ms", v, 0.1, 1e9, "ms")).transpose()?,
        ttft_ms: s.ttft_ms.or(p.ttft_ms).map(|v| check("target.ttft_ms", v, 0.1, 1e9, "ms")).transpose()?,
        percentile: pct,
        operating_fraction: check(
            "target.operating_fraction",
            s.operating_fraction.unwrap_or(0.6),
            OPERATING_RANGE.0,
            OPERATING_RANGE.1,
            "(share of the capacity's load)",
        )?,
        task_s,
    })
}

pub(crate) fn resolve_fleet(s: &FleetSpec) -> Result<FleetInputs, ScenarioError> {
    // A head count: all three, each in range; the peak is the requests/s they send in the busiest hour.
    let head = [s.people, s.active_share, s.requests_per_person_hour];
    let head_count = if head.iter().any(Option::is_some) {
        if s.peak_users.is_some() || s.peak_request_rate.is_some() {
            return Err(ScenarioError::new(
                "fleet.people",
                "give the peak once: people (with their share active and requests an hour), peak_users or peak_request_rate",
            ));
        }
        let people = s.people.ok_or_else(|| ScenarioError::new("fleet.people", "give the number of people who use the service (the head count)"))?;
        let people = check("fleet.people", people, 1.0, 1e9, "people")?;
        if people.fract() != 0.0 {
            return Err(ScenarioError::new("fleet.people", format!("{} must be a whole number of people", crate::model::units::fmt_num(people))));
        }
        let share = s
            .active_share
            .ok_or_else(|| ScenarioError::new("fleet.active_share", "give the share of them who use it in the busiest hour (e.g. 20 %)"))?;
        // From 1 %, as the page takes it (where "0.2" is far likelier the fraction 20 % than 0.2 %).
        if !(0.01..=1.0).contains(&share) {
            return Err(ScenarioError::new(
                "fleet.active_share",
                format!("{} is out of range: a share of the people from 0.01 (1 %) to 1 (100 %)", crate::model::units::fmt_num(share)),
            ));
        }
        let per_hour = s.requests_per_person_hour.ok_or_else(|| {
            ScenarioError::new("fleet.requests_per_person_hour", "give the requests each of them sends in that hour (e.g. 10: one every 6 minutes)")
        })?;
        let per_hour = positive("fleet.requests_per_person_hour", per_hour, 3600.0, "requests an hour")?;
        Some(crate::scenario::HeadCount { people, active_share: share, requests_per_hour: per_hour })
    } else {
        None
    };
    let peak = match (s.peak_users, s.peak_request_rate) {
        _ if head_count.is_some() => PeakLoad::RequestRate(head_count.map_or(0.0, |h| h.request_rate())),
        (Some(_), Some(_)) => return Err(ScenarioError::new("fleet", "give only one of peak_users or peak_request_rate")),
        // People are counted whole (2.5 peak users had been sized), once in range.
        (Some(u), None) => {
            let u = check("fleet.peak_users", u, 1.0, 1e9, "users")?;
            if u.fract() != 0.0 {
                return Err(ScenarioError::new("fleet.peak_users", format!("{} must be a whole number of users", crate::model::units::fmt_num(u))));
            }
            PeakLoad::Users(u)
        }
        (None, Some(r)) => PeakLoad::RequestRate(positive("fleet.peak_request_rate", r, 1e9, "requests/s")?),
        (None, None) => {
            return Err(ScenarioError::new(
                "fleet",
                "give the peak load: peak_users (concurrent users), peak_request_rate (requests/s) or people (a head count, with active_share and requests_per_person_hour)",
            ))
        }
    };
    Ok(FleetInputs {
        peak,
        head_count,
        spare_replicas: check_u("fleet.spare_replicas", s.spare_replicas.unwrap_or(0), 0, 10_000)?,
        peak_hours_per_day: check("fleet.peak_hours_per_day", s.peak_hours_per_day.unwrap_or(24.0), 0.5, 24.0, "hours a day")?,
    })
}

pub(crate) fn resolve_cost(s: &CostSpec) -> Result<CostInputs, ScenarioError> {
    let currency = match &s.currency {
        None => None,
        Some(c) => {
            let c = c.trim();
            if c.is_empty() || c.chars().count() > 8 || c.chars().any(char::is_control) {
                return Err(ScenarioError::new("cost.currency", "a short name of 1–8 characters (USD, EUR, €)"));
            }
            Some(c.to_string())
        }
    };
    let device_hour = s.device_hour.map(|v| check("cost.device_hour", v, 0.0, 1e7, "per device and hour")).transpose()?;
    let device_price = s.device_price.map(|v| check("cost.device_price", v, 0.0, 1e10, "per device")).transpose()?;
    if device_hour.is_some() && device_price.is_some() {
        return Err(ScenarioError::new("cost.device_price", "give a price per device-hour or a purchase price per device, not both"));
    }
    // Years alone (no purchase price) write nothing off: kept, not used.
    let years = s.write_off_years.map(|v| check("cost.write_off_years", v, 0.25, 30.0, "years")).transpose()?;
    let write_off_years = device_price.map(|_| years.unwrap_or(crate::plan::cost::WRITE_OFF_YEARS));
    Ok(CostInputs {
        device_hour: device_hour.or_else(|| device_price.zip(write_off_years).map(|(p, y)| crate::plan::cost::written_off_hourly(p, y))),
        device_price,
        write_off_years,
        currency,
        electricity_per_kwh: s.electricity_per_kwh.map(|v| check("cost.electricity_per_kwh", v, 0.0, 1e5, "per kWh")).transpose()?,
        pue: s.pue.map(|v| check("cost.pue", v, 1.0, 5.0, "(facility power ÷ IT power)")).transpose()?,
        host_watts: s
            .host_watts_per_device
            .map(|v| check("cost.host_watts_per_device", v, 0.0, 10_000.0, "W per device (the server beyond its accelerators)"))
            .transpose()?,
    })
}
