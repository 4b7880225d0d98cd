//! Checks of the free text a report carries: its length in characters, and no
//! control characters (or the bidirectional overrides that can disguise text).
//! Shared by the report and the gathering it may describe; and text made safe
//! for an address's query.

use crate::error::FieldError;

/// Counts as the Town prints them, with thousands separators: `2,000`.
pub use crate::ordinance::penalty::grouped;

/// Longest name, address or other short field.
pub const MAX_SHORT_CHARS: usize = 200;

pub fn too_long(text: &str, max: usize) -> bool {
    text.chars().count() > max
}

pub fn has_control(text: &str) -> bool {
    // Newlines and tabs are fine in a narrative; other control characters (and
    // the bidirectional overrides that can disguise text) are not.
    text.chars().any(|c| {
        (c.is_control() && c != '\n' && c != '\r' && c != '\t')
            || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
    })
}

/// Checks a short one-line text field.
pub fn short_text(
    errors: &mut Vec<FieldError>,
    field: String,
    text: &str,
    label: &str,
    required: bool,
) {
    if required && text.trim().is_empty() {
        errors.push(FieldError::new(field, format!("{label}: required.")));
    } else if too_long(text, MAX_SHORT_CHARS) {
        errors.push(FieldError::new(
            field,
            format!("{label}: at most {MAX_SHORT_CHARS} characters."),
        ));
    } else if has_control(text) || text.contains('\n') {
        errors.push(FieldError::new(
            field,
            format!("{label}: one line of plain text."),
        ));
    }
}

/// Percent-encodes `text` for a query parameter's value: RFC 3986's
/// unreserved characters and `/` stay as they are (a path reads as a path).
pub fn percent_encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
