use crate::import::contributions::ContributionPlan;
use crate::import::external_mailings::ExternalMailingsPlan;
use crate::import::media::MediaPlan;
use crate::import::ImportPlan;
use crate::JobError;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// Every kind of background job, with its payload. A job row stores it as `command` (the variant's kebab-case
/// name) and `payload` (its fields), the serde adjacently-tagged form, so the mapping is written once, here.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "command",
    content = "payload",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase"
)]
pub enum JobKind {
    /// Recomputes every CRM list's member count from the contacts it selects. (A struct variant, so its payload
    /// is `{}` like every other kind's object.)
    RecountLists {},
    /// A file uploaded into a new CRM list.
    ListUpload(ImportPlan),
    /// An NGP saved list.
    NgpImport(ImportPlan),
    /// A contact file with a user's column mapping.
    ContactImport(ImportPlan),
    /// Delivers a confirmed mailing to its list.
    SendMailing { mailing_id: i64 },
    /// An ActBlue or WinRed export, or a column-mapped contributions file.
    ContributionImport(ContributionPlan),
    /// Materialises a segment's members (`Some`), or refreshes RFM scores and every segment (`None`).
    UpdateSegment { segment_id: Option<i64> },
    /// A Meta Ads Manager or Google Ads export, or a column-mapped ads file.
    MediaImport(MediaPlan),
    /// Another e-mail platform's or lemlist's report of sends made there.
    ExternalMailingsImport(ExternalMailingsPlan),
    /// A large report's file, built for download (see `worker/src/reports.rs`).
    BuildReport {
        kind: store::reports::ReportKind,
        from: chrono::NaiveDate,
        to: chrono::NaiveDate,
        format: store::reports::files::Format,
    },
    /// One run of a scheduled report, mailed with its file attached.
    SendReport {
        schedule_id: i64,
        from: chrono::NaiveDate,
        to: chrono::NaiveDate,
    },
    /// Rebuilds donors' acquisition and drops the cached retention figures (docs/retention.md).
    RefreshRetention {},
    /// Computes the client's portfolio row and stores it for the agency's portfolio (docs/portfolio.md).
    RefreshPortfolio {},
}

/// A job as its row stores it.
#[derive(Deserialize)]
struct Row {
    command: String,
    payload: serde_json::Value,
}

impl JobKind {
    /// The name the UI shows in banners and on the jobs page (the spec names "NGP Import").
    pub fn label(&self) -> &'static str {
        match self {
            Self::RecountLists {} => "Recount lists",
            Self::ListUpload(_) => "List Upload",
            Self::NgpImport(_) => "NGP Import",
            Self::ContactImport(_) => "Contact Import",
            Self::SendMailing { .. } => "Send Mailing",
            Self::ContributionImport(_) => "Contributions Import",
            Self::UpdateSegment { .. } => "Update Segment",
            Self::MediaImport(_) => "Media Import",
            Self::ExternalMailingsImport(_) => "External Mailings Import",
            Self::BuildReport { .. } => "Build Report",
            Self::SendReport { .. } => "Send Report",
            Self::RefreshRetention {} => "Refresh Retention",
            Self::RefreshPortfolio {} => "Refresh Portfolio",
        }
    }

    /// The row's `command` and `payload`.
    pub fn to_row(&self) -> Result<(String, serde_json::Value), JobError> {
        let row: Row = serde_json::from_value(serde_json::to_value(self)?)?;
        Ok((row.command, row.payload))
    }

    /// Reads a kind back from its row. A command this build does not know, or a payload missing a field, is an
    /// error, never a guess.
    pub fn from_row(command: &str, payload: serde_json::Value) -> Result<Self, JobError> {
        Ok(serde_json::from_value(
            json!({ "command": command, "payload": payload }),
        )?)
    }
}

#[cfg(test)]
mod tests {
    use super::JobKind;
    use serde_json::json;

    /// Rows written by earlier builds must still read: these are the stored shapes of the hand-written mapping
    /// this enum replaced.
    #[test]
    fn rows_keep_their_stored_shape_and_unknown_commands_are_refused() {
        let cases = [
            (JobKind::RecountLists {}, "recount-lists", json!({})),
            (JobKind::RefreshRetention {}, "refresh-retention", json!({})),
            (JobKind::RefreshPortfolio {}, "refresh-portfolio", json!({})),
            (
                JobKind::SendMailing { mailing_id: 7 },
                "send-mailing",
                json!({ "mailingId": 7 }),
            ),
            (
                JobKind::UpdateSegment {
                    segment_id: Some(3),
                },
                "update-segment",
                json!({ "segmentId": 3 }),
            ),
            (
                JobKind::UpdateSegment { segment_id: None },
                "update-segment",
                json!({ "segmentId": null }),
            ),
        ];
        for (kind, command, payload) in cases {
            assert_eq!(
                kind.to_row().expect("row"),
                (command.to_owned(), payload.clone())
            );
            assert_eq!(JobKind::from_row(command, payload).expect("reads"), kind);
        }
        assert_eq!(
            JobKind::from_row("update-segment", json!({})).expect("reads"),
            JobKind::UpdateSegment { segment_id: None }
        );
        assert!(JobKind::from_row("format-disk", json!({})).is_err());
        assert!(JobKind::from_row("send-mailing", json!({})).is_err());
    }
}
