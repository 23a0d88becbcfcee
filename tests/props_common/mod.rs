//! Helpers shared by the property tests.

/// Whether every null in a report is one of the fields that are optional by design.
pub fn no_stray_null(v: &serde_json::Value, key: &str) -> bool {
    match v {
        serde_json::Value::Null => matches!(
            key,
            "peak_usable"
                | "knee"
                | "operating_point"
                | "ttft_p_ms"
                | "capacity"
                | "max_users_at_target"
                | "max_request_rate_at_target"
                | "next"
                | "fleet"
                | "peak_users"
                | "peak_request_rate"
                | "utilisation_one_fewer"
                | "energy"
                | "pue"
                | "wall_joules_per_output_token"
                | "cost"
                | "currency"
                | "devices_per_hour"
                | "electricity_per_hour"
                | "fleet_per_hour"
                | "fleet_per_million_output_tokens"
                | "fleet_per_month"
                | "fleet_devices"
                | "fleet_price"
                | "prefill"
                // the prefill chunk's (it has no decodes; the decode steps' always have a value)
                | "attention_intensity"
        ),
        serde_json::Value::Array(a) => a.iter().all(|x| no_stray_null(x, key)),
        serde_json::Value::Object(o) => o.iter().all(|(k, x)| no_stray_null(x, k)),
        _ => true,
    }
}
