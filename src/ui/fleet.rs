//! Inputs for the sizing meeting: the fleet's peak load and spare servers, and the prices (none assumed).

use super::inputs::{Inputs, NumField, SelectField, TextField};
use crate::scenario::ScenarioError;
use leptos::prelude::*;

/// The "Fleet and cost" fieldset.
#[component]
pub fn FleetCostInputs(
    /// The page's inputs.
    inputs: Inputs,
    /// The current error, if any.
    #[prop(into)]
    error: Signal<Vec<ScenarioError>>,
) -> impl IntoView {
    // The unit of a price follows the currency typed ("USD per device-hour"; "per device-hour" without one).
    let per = move |what: &'static str| {
        Signal::derive(move || {
            let c = inputs.currency.get();
            let c = c.trim();
            // A currency the check refuses (more than 8 characters) is not repeated into every unit beside the
            // message that refuses it (a trial).
            if c.is_empty() || c.chars().count() > 8 || c.chars().any(char::is_control) {
                what.to_string()
            } else {
                format!("{c} {what}")
            }
        })
    };
    view! {
        <fieldset>
            <legend>"Fleet and cost"</legend>
            <SelectField label="Peak load of the whole service" field="fleet.kind" value=inputs.peak_kind options=vec![
                ("users".to_string(), "Concurrent users".to_string()),
                ("rate".to_string(), "Requests per second".to_string()),
                ("people".to_string(), "People (a head count)".to_string()),
            ] error />
            // Each kind its own numbers (all kept): switching shows what was typed for that kind. A head count is
            // the requests/s its people send in the busiest hour (two trials turned employees into a load by hand).
            {move || match inputs.peak_kind.get().as_str() {
                "rate" => view! {
                    <NumField label="Peak request rate" unit="req/s" field="fleet.peak_request_rate" value=inputs.peak_rate
                        placeholder=Signal::derive(|| "no fleet sized".to_string()) error />
                }.into_any(),
                "people" => view! {
                    <NumField label="People who use the service (the head count)" unit="people" field="fleet.people" value=inputs.people
                        placeholder=Signal::derive(|| "no fleet sized".to_string()) error />
                    <NumField label="Share of them using it in the busiest hour" unit="%" field="fleet.active_share" value=inputs.active_pct
                        placeholder=Signal::derive(|| "e.g. 20".to_string()) error />
                    <NumField label="Requests each of those sends in that hour (a chat turn is one)" unit="per hour" field="fleet.requests_per_person_hour" value=inputs.per_hour
                        placeholder=Signal::derive(|| "e.g. 10".to_string()) error />
                    <p class="note">"The peak is people × share × requests ÷ 3,600 s, in requests/s; the fleet's line shows the product."</p>
                }.into_any(),
                _ => view! {
                    <NumField label="Peak concurrent users (each with a request in flight, unless a think time is set under Serving)" unit="users" field="fleet.peak_users" value=inputs.peak
                        placeholder=Signal::derive(|| "no fleet sized".to_string()) error />
                }.into_any(),
            }}
            <NumField label="Spare servers (N+1 headroom)" unit="servers" field="fleet.spare_replicas" value=inputs.spare
                placeholder=Signal::derive(|| "0".to_string()) error />
            <NumField label="Hours a day at the peak (the rest idle: the month's energy and cost)" unit="h" field="fleet.peak_hours_per_day" value=inputs.peak_hours
                placeholder=Signal::derive(|| "24 (around the clock)".to_string()) error />
            <p class="note">"Prices: none is assumed; cost is computed from the parts given."</p>
            <TextField label="Currency" field="cost.currency" value=inputs.currency placeholder="e.g. USD, EUR" error />
            <NumField label="Price of one device for one hour" unit="" field="cost.device_hour" value=inputs.device_hour
                placeholder=Signal::derive(|| "not priced".to_string()) error unit_text=per("per device-hour") />
            <NumField label="Or its purchase price (with its share of the server: a server's price ÷ its devices)" unit="" field="cost.device_price" value=inputs.device_price
                placeholder=Signal::derive(|| "not priced".to_string()) error unit_text=per("per device") />
            <NumField label="Years to write the purchase off" unit="years" field="cost.write_off_years" value=inputs.write_off
                placeholder=Signal::derive(|| "4".to_string()) error />
            <NumField label="Electricity price" unit="" field="cost.electricity_per_kwh" value=inputs.electricity
                placeholder=Signal::derive(|| "not priced".to_string()) error unit_text=per("per kWh") />
            <NumField label="PUE (facility power ÷ IT power)" unit="×" field="cost.pue" value=inputs.pue
                placeholder=Signal::derive(|| "1 (devices only)".to_string()) error />
            <NumField label="Host power per device (the server beyond its accelerators ÷ their number)" unit="W" field="cost.host_watts_per_device"
                value=inputs.host_watts placeholder=Signal::derive(|| "not counted".to_string()) error />
        </fieldset>
    }
}
