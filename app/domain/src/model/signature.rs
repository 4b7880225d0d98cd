//! Signatures drawn with a finger on the phone (issue #20): the officer's, captured
//! once and printed on each summons the officer issues, and the person's, which is
//! optional — Maine does not require the defendant to sign a summons, so a refusal
//! is recorded as such and changes nothing else.
//!
//! Kept as vector strokes, not pictures: a few kilobytes, drawn at any size into
//! the summons PDF, and hashed into the audit chain exactly.

use serde::{Deserialize, Serialize};

/// The pad's coordinate box: strokes are points in 0..=WIDTH × 0..=HEIGHT, the
/// shape of a signature line (10 : 3), whatever the size of the phone's screen.
pub const WIDTH: u16 = 1000;
pub const HEIGHT: u16 = 300;
/// More than any hand signs; a bound on what a request may carry.
pub const MAX_STROKES: usize = 60;
pub const MAX_POINTS: usize = 6000;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Signature {
    /// Each stroke is the points one touch drew, in order.
    pub strokes: Vec<Vec<[u16; 2]>>,
}

impl Signature {
    pub fn points(&self) -> usize {
        self.strokes.iter().map(Vec::len).sum()
    }

    /// What is wrong with it as a signature, in the officer's words.
    pub fn problem(&self) -> Option<&'static str> {
        if self.points() < 2 {
            return Some("Sign in the box: it is empty.");
        }
        if self.strokes.len() > MAX_STROKES || self.points() > MAX_POINTS {
            return Some(
                "The signature has more strokes than a signature: clear it and sign again.",
            );
        }
        if self.strokes.iter().any(Vec::is_empty) {
            return Some("A stroke of the signature has no points: clear it and sign again.");
        }
        if self
            .strokes
            .iter()
            .flatten()
            .any(|[x, y]| *x > WIDTH || *y > HEIGHT)
        {
            return Some("The signature runs outside its box: clear it and sign again.");
        }
        None
    }

    /// Its content hash (SHA-256 of its JSON), for the audit chain.
    #[cfg(feature = "ssr")]
    pub fn digest(&self) -> String {
        use sha2::{Digest, Sha256};
        let json = serde_json::to_vec(self).unwrap_or_default();
        hex::encode(Sha256::digest(json))
    }
}

/// The person's answer when asked to sign the summons.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PersonSignature {
    Signed(Signature),
    /// Asked, and declined: recorded, never held against the person.
    Refused,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(points: usize) -> Signature {
        Signature {
            strokes: vec![(0..points).map(|i| [i as u16 % WIDTH, 150]).collect()],
        }
    }

    #[test]
    fn a_signature_needs_a_stroke_inside_its_box_and_within_bounds() {
        assert_eq!(line(0).problem(), Some("Sign in the box: it is empty."));
        assert_eq!(
            Signature::default().problem(),
            Some("Sign in the box: it is empty.")
        );
        assert_eq!(line(40).problem(), None);
        assert!(line(MAX_POINTS + 1).problem().is_some());
        let outside = Signature {
            strokes: vec![vec![[10, 10], [WIDTH + 1, 10]]],
        };
        assert!(outside.problem().unwrap_or_default().contains("outside"));
        let many = Signature {
            strokes: vec![vec![[1, 1], [2, 2]]; MAX_STROKES + 1],
        };
        assert!(many.problem().is_some());
        let hollow = Signature {
            strokes: vec![vec![[1, 1], [2, 2]], vec![]],
        };
        assert!(hollow.problem().unwrap_or_default().contains("no points"));
    }

    #[test]
    fn a_person_s_answer_reads_and_writes_by_its_kind() {
        let refused = serde_json::to_string(&PersonSignature::Refused).expect("json");
        assert_eq!(refused, r#"{"kind":"refused"}"#);
        let signed = PersonSignature::Signed(line(3));
        let json = serde_json::to_string(&signed).expect("json");
        assert_eq!(
            json,
            r#"{"kind":"signed","strokes":[[[0,150],[1,150],[2,150]]]}"#
        );
        assert_eq!(
            serde_json::from_str::<PersonSignature>(&json).ok(),
            Some(signed)
        );
    }
}
