//! The barcode on the back of a US or Canadian driver's license or ID card: the
//! AAMVA DL/ID card design standard's PDF417 data, versions 1 (2000) to 10 (2020).
//!
//! The phone reads the barcode (camera, keyboard-wedge scanner or pasted text) and
//! this module turns its text into the fields of a person; the officer confirms
//! before anything fills. It is shared by the browser and the server and knows
//! nothing of the law: a licence identifies a person, it never decides anything.
//!
//! The data is a header (`@`, LF, RS, CR, `ANSI ` or `AAMVA`, the issuer's
//! six-digit IIN, the version, the jurisdiction's version from version 2 on, the
//! number of subfiles), ten characters per subfile (`DL`/`ID`, offset, length),
//! then the subfiles: each opens with its type and holds elements of a three-letter
//! code and a value, ended by LF, the subfile by CR. Scanners and pasting turn CR
//! into LF and back, so elements are found by their separators, not the offsets.

use serde::{Deserialize, Serialize};

/// What the barcode said, as printed on the card (upper case, as issued: the
/// record keeps the name the card carries).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LicenceScan {
    pub document: ScannedDocument,
    /// The AAMVA version, 1 to 10.
    pub version: u8,
    /// The issuer's identification number (636041 is Maine).
    pub issuer: String,
    pub family_name: String,
    /// First and middle names, as the card gives them.
    pub given_names: String,
    /// `YYYY-MM-DD`
    pub date_of_birth: String,
    pub street: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub postal_code: Option<String>,
    pub number: String,
    /// `YYYY-MM-DD`
    pub expires: Option<String>,
    pub sex: Option<CardSex>,
    pub height: Option<String>,
    pub eyes: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ScannedDocument {
    DriverLicence,
    IdCard,
}

/// The sex printed on the card (AAMVA DBC). Shown to the officer; it never fills
/// the officer's own perception of the person, which is asked separately.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CardSex {
    Male,
    Female,
    NotSpecified,
}

impl CardSex {
    pub fn label(self) -> &'static str {
        match self {
            CardSex::Male => "M",
            CardSex::Female => "F",
            CardSex::NotSpecified => "X",
        }
    }
}

/// Why a barcode could not be read; each message says what the officer can do.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScanError {
    #[error(
        "This barcode is not a driver's license or ID card (no AAMVA header). Scan the \
         barcode on the back of the card, or type the details."
    )]
    NotALicence,
    #[error(
        "This card uses AAMVA version {0}, which this app does not read (versions 1 to 10). \
         Type the details from the card."
    )]
    UnknownVersion(u8),
    #[error("The barcode's data ends early ({0}). Scan it again, or type the details.")]
    Truncated(&'static str),
    #[error("The barcode has no {what} ({code}). Type it from the card.")]
    Missing {
        code: &'static str,
        what: &'static str,
    },
    #[error("The barcode's {what} ({code}) is not a date: \"{value}\". Type it from the card.")]
    BadDate {
        code: &'static str,
        what: &'static str,
        value: String,
    },
}

/// The most a barcode holds (a PDF417 symbol carries under 2 KB); anything longer
/// pasted into the box is not one.
pub const MAX_SCAN_CHARS: usize = 4096;

/// Reads the text of a licence's barcode.
pub fn parse(text: &str) -> Result<LicenceScan, ScanError> {
    if text.len() > MAX_SCAN_CHARS {
        return Err(ScanError::NotALicence);
    }
    let header = Header::find(text)?;
    let elements = Elements::read(&text[header.body..]);
    // A barcode read half-way (a glare, a paste cut short) must not fill half a
    // licence number: the card's subfile is whole when another subfile follows it
    // or when it holds as many characters as the subfile list says it has.
    let whole = elements.later_subfile
        || header
            .card_length
            .is_none_or(|length| elements.card_chars >= length);
    if !whole {
        return Err(ScanError::Truncated("the card's data"));
    }
    let version = header.version;
    let field = |code: &'static str| elements.get(code);
    let required = |code: &'static str, what: &'static str| {
        field(code).ok_or(ScanError::Missing { code, what })
    };

    let (family_name, given_names) = names(&elements)?;
    let date = |code: &'static str, what: &'static str, value: &str| {
        card_date(value).ok_or_else(|| ScanError::BadDate {
            code,
            what,
            value: value.to_owned(),
        })
    };
    let date_of_birth = date("DBB", "date of birth", required("DBB", "date of birth")?)?;
    let expires = field("DBA")
        .map(|v| date("DBA", "expiry date", v))
        .transpose()?;
    let number = required("DAQ", "license number")?.to_owned();

    Ok(LicenceScan {
        document: header.document,
        version,
        issuer: header.issuer,
        family_name,
        given_names,
        date_of_birth,
        street: street(&elements),
        city: field("DAI").map(str::to_owned),
        state: field("DAJ").map(str::to_owned),
        postal_code: field("DAK").map(postal_code),
        number,
        expires,
        sex: field("DBC").and_then(card_sex),
        height: field("DAU").map(height),
        eyes: field("DAY").map(eyes),
    })
}

impl LicenceScan {
    /// "FIRST MIDDLE FAMILY", the way the form's full name reads.
    pub fn full_name(&self) -> String {
        [self.given_names.as_str(), self.family_name.as_str()]
            .iter()
            .filter(|part| !part.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// "123 MAIN ST, WELLS, ME 04090": one line, as the form's address.
    pub fn address(&self) -> String {
        let place = [self.state.as_deref(), self.postal_code.as_deref()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ");
        [
            self.street.as_deref(),
            self.city.as_deref(),
            Some(place.as_str()),
        ]
        .into_iter()
        .flatten()
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(", ")
    }

    /// Whether the card had expired on `today` (`YYYY-MM-DD`): still identification,
    /// but worth a line on the confirmation.
    pub fn expired_on(&self, today: &str) -> bool {
        self.expires
            .as_deref()
            .is_some_and(|expires| expires < today)
    }
}

struct Header {
    issuer: String,
    version: u8,
    document: ScannedDocument,
    /// Where the subfiles' text starts.
    body: usize,
    /// The card subfile's length as the subfile list gives it.
    card_length: Option<usize>,
}

impl Header {
    fn find(text: &str) -> Result<Header, ScanError> {
        let (start, marker) = ["ANSI ", "AAMVA"]
            .iter()
            .filter_map(|marker| text.find(marker).map(|at| (at, marker.len())))
            .min()
            .ok_or(ScanError::NotALicence)?;
        // The compliance indicator '@' comes first; anything before it is not a card.
        if !text[..start].trim_start().starts_with('@') {
            return Err(ScanError::NotALicence);
        }
        let rest = &text[start + marker..];
        let digits = |from: usize, len: usize, what: &'static str| -> Result<&str, ScanError> {
            let part = rest
                .get(from..from + len)
                .ok_or(ScanError::Truncated(what))?;
            if part.bytes().all(|b| b.is_ascii_digit()) {
                Ok(part)
            } else if from == 0 {
                Err(ScanError::NotALicence)
            } else {
                Err(ScanError::Truncated(what))
            }
        };
        let issuer = digits(0, 6, "the issuer's number")?.to_owned();
        let version: u8 = digits(6, 2, "the version")?
            .parse()
            .map_err(|_| ScanError::NotALicence)?;
        if !(1..=10).contains(&version) {
            return Err(ScanError::UnknownVersion(version));
        }
        // Version 1 has no jurisdiction version: the entry count follows at once.
        let count_at = if version == 1 { 8 } else { 10 };
        let entries: usize = digits(count_at, 2, "the number of subfiles")?
            .parse()
            .map_err(|_| ScanError::Truncated("the number of subfiles"))?;
        let designators_at = count_at + 2;
        let first = rest
            .get(designators_at..designators_at + 2)
            .ok_or(ScanError::Truncated("the subfile list"))?;
        let document = match first {
            "DL" => ScannedDocument::DriverLicence,
            "ID" => ScannedDocument::IdCard,
            _ => return Err(ScanError::NotALicence),
        };
        let card_length = rest
            .get(designators_at + 6..designators_at + 10)
            .and_then(|digits| digits.parse().ok());
        let body = start + marker + designators_at + 10 * entries.max(1);
        if body > text.len() || !text.is_char_boundary(body) {
            return Err(ScanError::Truncated("the subfiles"));
        }
        Ok(Header {
            issuer,
            version,
            document,
            body,
            card_length,
        })
    }
}

/// The data elements of the card's subfile, first occurrence of each code.
struct Elements {
    found: Vec<(String, String)>,
    /// The card subfile's characters as written: its type, each element and the
    /// separator that ends it.
    card_chars: usize,
    /// Whether a jurisdiction's own subfile ("Z…") follows the card's.
    later_subfile: bool,
}

impl Elements {
    fn read(body: &str) -> Elements {
        let mut elements = Elements {
            found: Vec::new(),
            card_chars: 0,
            later_subfile: false,
        };
        for raw in body.split(['\n', '\r']).filter(|line| !line.is_empty()) {
            let line = raw.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{1e}');
            if line.starts_with('Z') {
                elements.later_subfile = true;
            }
            if elements.later_subfile {
                continue;
            }
            elements.card_chars += raw.len() + 1;
            // A subfile opens with its type right before its first element: "DLDAQ…".
            let line = match line.get(..2) {
                Some("DL" | "ID") if line.get(2..3).is_some_and(|c| c == "D") => &line[2..],
                _ => line,
            };
            let Some(code) = line.get(..3) else { continue };
            if !code.bytes().all(|b| b.is_ascii_uppercase()) {
                continue;
            }
            let value = line[3..].trim();
            if value.is_empty() || elements.found.iter().any(|(c, _)| c == code) {
                continue;
            }
            elements.found.push((code.to_owned(), value.to_owned()));
        }
        elements
    }

    fn get(&self, code: &str) -> Option<&str> {
        self.found
            .iter()
            .find(|(c, _)| c == code)
            .map(|(_, v)| v.as_str())
            .filter(|v| !is_none(v))
    }
}

/// Cards write "NONE" (or "unavl") where a person has no middle name.
fn is_none(value: &str) -> bool {
    value.eq_ignore_ascii_case("NONE") || value.eq_ignore_ascii_case("unavl")
}

/// Family and given names: DCS with DAC and DAD (versions 4 on), DCS with DCT
/// (versions 2 and 3, given names separated by commas or spaces), or version 1's
/// DAB/DAC/DAD or the whole name in DAA ("FAMILY,FIRST,MIDDLE").
fn names(elements: &Elements) -> Result<(String, String), ScanError> {
    let join = |parts: &[Option<&str>]| {
        parts
            .iter()
            .flatten()
            .flat_map(|part| part.split([',', '$']))
            .map(str::trim)
            .filter(|part| !part.is_empty() && !is_none(part))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let family = elements.get("DCS").or_else(|| elements.get("DAB"));
    let given = match (elements.get("DAC"), elements.get("DCT")) {
        (Some(first), _) => join(&[Some(first), elements.get("DAD")]),
        (None, Some(given)) => join(&[Some(given)]),
        (None, None) => String::new(),
    };
    if let Some(family) = family {
        if !given.is_empty() {
            return Ok((join(&[Some(family)]), given));
        }
    }
    if let Some(whole) = elements.get("DAA") {
        let mut parts = whole.split([',', '$']).map(str::trim);
        let family = parts.next().unwrap_or_default().to_owned();
        let given = parts
            .filter(|p| !p.is_empty() && !is_none(p))
            .collect::<Vec<_>>()
            .join(" ");
        if !family.is_empty() && !given.is_empty() {
            return Ok((family, given));
        }
    }
    match family {
        None => Err(ScanError::Missing {
            code: "DCS",
            what: "family name",
        }),
        Some(_) => Err(ScanError::Missing {
            code: "DAC",
            what: "first name",
        }),
    }
}

/// A card date as `YYYY-MM-DD`. Version 1 and Canadian cards write CCYYMMDD, US
/// cards from version 2 MMDDCCYY — but not every issuer follows its version, and
/// the digits tell the two apart on their own: a month is never above 12, and a
/// century is 19 or 20.
fn card_date(value: &str) -> Option<String> {
    let value = value.trim();
    if value.len() != 8 || !value.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let year_first = value[..2].parse::<u32>().ok()? > 12;
    let (y, m, d) = if year_first {
        (&value[..4], &value[4..6], &value[6..])
    } else {
        (&value[4..], &value[..2], &value[2..4])
    };
    let text = format!("{y}-{m}-{d}");
    crate::model::civil::parse_date(&text).map(|_| text)
}

fn street(elements: &Elements) -> Option<String> {
    let lines: Vec<&str> = ["DAG", "DAH"]
        .iter()
        .filter_map(|code| elements.get(code))
        .collect();
    (!lines.is_empty()).then(|| lines.join(" "))
}

/// US ZIP codes come as nine digits padded with zeros ("040900000"): five digits,
/// or ZIP+4 where the four are given. Canadian postal codes as printed.
fn postal_code(value: &str) -> String {
    let value = value.trim();
    let digits = value.len() >= 5 && value.bytes().all(|b| b.is_ascii_digit());
    match (digits, value.len()) {
        (true, 9) if &value[5..] != "0000" => format!("{}-{}", &value[..5], &value[5..]),
        (true, _) => value[..5].to_owned(),
        (false, _) => value.to_owned(),
    }
}

fn card_sex(value: &str) -> Option<CardSex> {
    match value.trim() {
        "1" | "M" => Some(CardSex::Male),
        "2" | "F" => Some(CardSex::Female),
        "9" | "X" => Some(CardSex::NotSpecified),
        _ => None,
    }
}

/// "069 in" → "5 ft 9 in"; "175 cm" as it is; anything else as printed.
fn height(value: &str) -> String {
    let value = value.trim();
    let inches = value
        .strip_suffix("in")
        .or_else(|| value.strip_suffix("IN"))
        .and_then(|n| n.trim().parse::<u32>().ok());
    match inches {
        Some(inches) => format!("{} ft {} in", inches / 12, inches % 12),
        None => value.to_owned(),
    }
}

/// AAMVA D20 eye colour codes in words.
fn eyes(value: &str) -> String {
    let word = match value.trim() {
        "BLK" => "black",
        "BLU" => "blue",
        "BRO" => "brown",
        "GRY" => "gray",
        "GRN" => "green",
        "HAZ" => "hazel",
        "MAR" => "maroon",
        "PNK" => "pink",
        "DIC" => "dichromatic",
        "UNK" => "unknown",
        other => return other.to_owned(),
    };
    word.to_owned()
}

#[cfg(test)]
mod tests;
