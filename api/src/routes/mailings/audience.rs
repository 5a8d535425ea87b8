//! A mailing's audience (a list or a segment, minus suppressions) and its variants, as the API carries them.

use crate::error::ApiError;
use poem_openapi::Object;
use tenancy::TenantTx;

/// A list or segment whose members a mailing leaves out.
#[derive(Debug, Clone, Object)]
pub struct Suppression {
    /// `list` or `segment`
    pub kind: String,
    pub id: i64,
    pub name: String,
}

/// A variant of a mailing. A is the mailing itself; B, C … change any of subject, sender, preview text and body
/// (a null field is the mailing's own).
#[derive(Debug, Clone, Object)]
pub struct MailingVariant {
    pub letter: String,
    #[oai(nullable, rename = "subjectLine", validator(max_length = 300))]
    pub subject_line: Option<String>,
    #[oai(nullable, rename = "senderId")]
    pub sender_id: Option<i64>,
    #[oai(nullable, rename = "previewText", validator(max_length = 300))]
    pub preview_text: Option<String>,
    #[oai(nullable, rename = "bodyHtml", validator(max_length = 500000))]
    pub body_html: Option<String>,
}

/// The fields of a variant B, C … (letters are given in order).
#[derive(Debug, Clone, Object)]
pub struct VariantInput {
    #[oai(nullable, rename = "subjectLine", validator(max_length = 300))]
    pub subject_line: Option<String>,
    #[oai(nullable, rename = "senderId")]
    pub sender_id: Option<i64>,
    #[oai(nullable, rename = "previewText", validator(max_length = 300))]
    pub preview_text: Option<String>,
    #[oai(nullable, rename = "bodyHtml", validator(max_length = 500000))]
    pub body_html: Option<String>,
}

/// A list or segment the mailing editor can send to or suppress.
#[derive(Debug, Clone, Object)]
pub struct AudienceOption {
    /// `list` or `segment`
    pub kind: String,
    pub id: i64,
    pub name: String,
    pub size: i64,
}

/// What the audience fields of a mailing input ask for, checked.
pub struct Audience {
    pub list_id: Option<i64>,
    pub segment_id: Option<i64>,
    pub suppress_lists: Vec<i64>,
    pub suppress_segments: Vec<i64>,
    pub variants: Vec<store::mailings::Variant>,
}

const MAX_SUPPRESSIONS: usize = 100;

fn single_line(value: Option<&String>, what: &str) -> Result<Option<String>, ApiError> {
    let Some(v) = value.map(|v| v.trim()).filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    if v.chars().any(char::is_control) {
        return Err(ApiError::BadRequest(format!(
            "{what} must be a single line"
        )));
    }
    Ok(Some(v.to_owned()))
}

/// Checks the audience and variants: exactly one of list and segment, every id the client's own.
pub async fn check(
    tx: &mut TenantTx,
    list_id: Option<i64>,
    segment_id: Option<i64>,
    suppress_lists: Option<&Vec<i64>>,
    suppress_segments: Option<&Vec<i64>>,
    variants: Option<&Vec<VariantInput>>,
) -> Result<Audience, ApiError> {
    match (list_id, segment_id) {
        (Some(_), Some(_)) => {
            return Err(ApiError::BadRequest(
                "Choose a list or a segment, not both".to_owned(),
            ))
        }
        (None, None) => {
            return Err(ApiError::BadRequest(
                "Choose a list or a segment".to_owned(),
            ))
        }
        _ => {}
    }
    let suppress_lists = suppress_lists.cloned().unwrap_or_default();
    let suppress_segments = suppress_segments.cloned().unwrap_or_default();
    if suppress_lists.len() + suppress_segments.len() > MAX_SUPPRESSIONS {
        return Err(ApiError::BadRequest(format!(
            "At most {MAX_SUPPRESSIONS} suppression lists and segments"
        )));
    }
    let lists: Vec<i64> = list_id.into_iter().chain(suppress_lists.clone()).collect();
    if !store::mailings::unknown_ids(tx, "crm_lists", &lists)
        .await?
        .is_empty()
    {
        return Err(ApiError::BadRequest("Unknown list".to_owned()));
    }
    let segments: Vec<i64> = segment_id
        .into_iter()
        .chain(suppress_segments.clone())
        .collect();
    if !store::mailings::unknown_ids(tx, "segments", &segments)
        .await?
        .is_empty()
    {
        return Err(ApiError::BadRequest("Unknown segment".to_owned()));
    }
    let inputs = variants.cloned().unwrap_or_default();
    if inputs.len() > store::mailings::VARIANT_LETTERS.len() {
        return Err(ApiError::BadRequest(
            "At most 26 variants, A to Z".to_owned(),
        ));
    }
    let mut out = Vec::with_capacity(inputs.len());
    let mut senders = Vec::new();
    for v in &inputs {
        senders.extend(v.sender_id);
        out.push(store::mailings::Variant {
            letter: String::new(),
            subject_line: single_line(v.subject_line.as_ref(), "A variant's subject line")?,
            sender_id: v.sender_id,
            preview_text: single_line(v.preview_text.as_ref(), "A variant's preview text")?,
            body_html: v.body_html.clone().filter(|b| !b.trim().is_empty()),
        });
    }
    if !store::mailings::unknown_ids(tx, "senders", &senders)
        .await?
        .is_empty()
    {
        return Err(ApiError::BadRequest("Unknown sender".to_owned()));
    }
    Ok(Audience {
        list_id,
        segment_id,
        suppress_lists,
        suppress_segments,
        variants: out,
    })
}

/// Stores the suppressions and variants of mailing `id`.
pub async fn save(tx: &mut TenantTx, id: i64, audience: &Audience) -> Result<(), ApiError> {
    store::mailings::set_suppressions(
        tx,
        id,
        &audience.suppress_lists,
        &audience.suppress_segments,
    )
    .await?;
    store::mailings::set_variants(tx, id, &audience.variants).await?;
    Ok(())
}

/// The stored suppressions and variants of mailing `id`.
pub async fn load(
    tx: &mut TenantTx,
    id: i64,
) -> Result<(Vec<Suppression>, Vec<MailingVariant>), ApiError> {
    let suppressions = store::mailings::suppressions(tx, id)
        .await?
        .into_iter()
        .map(|s| Suppression {
            kind: s.kind,
            id: s.id,
            name: s.name,
        })
        .collect();
    let variants = store::mailings::variants(tx, id)
        .await?
        .into_iter()
        .map(|v| MailingVariant {
            letter: v.letter.to_uppercase(),
            subject_line: v.subject_line,
            sender_id: v.sender_id,
            preview_text: v.preview_text,
            body_html: v.body_html,
        })
        .collect();
    Ok((suppressions, variants))
}

pub async fn options(tx: &mut TenantTx) -> Result<Vec<AudienceOption>, ApiError> {
    Ok(store::mailings::audience_options(tx)
        .await?
        .into_iter()
        .map(|o| AudienceOption {
            kind: o.kind,
            id: o.id,
            name: o.name,
            size: o.size,
        })
        .collect())
}
