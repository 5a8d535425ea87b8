//! The parts of ActBlue's webhook body the ledger keeps.

use serde::Deserialize;
use std::collections::HashMap;

/// The parts of ActBlue's webhook body the ledger keeps (see `api/tests/fixtures/actblue-webhook.json`).
#[derive(Debug, Deserialize)]
pub struct Payload {
    #[serde(default)]
    pub donor: Donor,
    pub contribution: Contribution,
    #[serde(default)]
    pub lineitems: Vec<LineItem>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Donor {
    pub firstname: Option<String>,
    pub lastname: Option<String>,
    pub zip: Option<String>,
    pub state: Option<String>,
    pub email: Option<String>,
    pub phone: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Contribution {
    pub created_at: Option<String>,
    pub order_number: Option<String>,
    pub contribution_form: Option<String>,
    #[serde(default)]
    pub refcodes: HashMap<String, Option<String>>,
    pub refcode: Option<String>,
    pub refcode2: Option<String>,
    pub recurring_period: Option<String>,
    pub recurring_duration: Option<serde_json::Value>,
    pub is_recurring: Option<bool>,
    pub is_mobile: Option<bool>,
    pub express_signup: Option<bool>,
    pub ab_test_name: Option<String>,
    #[serde(alias = "abTestVariation")]
    pub ab_variation: Option<String>,
    pub refunded_at: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LineItem {
    pub lineitem_id: serde_json::Value,
    pub amount: serde_json::Value,
    pub paid_at: Option<String>,
    pub fee: Option<serde_json::Value>,
    pub refunded_at: Option<String>,
}
