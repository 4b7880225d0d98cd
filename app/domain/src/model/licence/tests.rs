//! Barcodes written here the way a card printer writes them: the header, the
//! subfile list with true offsets and lengths, the card's subfile and a
//! jurisdiction's own subfile after it.

use super::*;
use proptest::prelude::*;

struct Card {
    version: u8,
    issuer: &'static str,
    document: &'static str,
    elements: Vec<(&'static str, &'static str)>,
}

impl Card {
    /// A driver's licence ("DL") with these elements, in this order.
    fn licence(
        version: u8,
        issuer: &'static str,
        elements: &[(&'static str, &'static str)],
    ) -> Card {
        Card {
            version,
            issuer,
            document: "DL",
            elements: elements.to_vec(),
        }
    }

    fn encode(&self) -> String {
        let mut card = String::from(self.document);
        for (code, value) in &self.elements {
            card.push_str(code);
            card.push_str(value);
            card.push('\n');
        }
        card.pop();
        card.push('\r');
        let own = String::from("ZVZVA01\r");
        let mut header = format!("@\n\u{1e}\rANSI {}{:02}", self.issuer, self.version);
        if self.version > 1 {
            header.push_str("00");
        }
        header.push_str("02");
        let first = header.len() + 20;
        header.push_str(&format!("{}{:04}{:04}", self.document, first, card.len()));
        header.push_str(&format!("ZV{:04}{:04}", first + card.len(), own.len()));
        header + &card + &own
    }
}

/// A Maine licence in the version 4–10 layout.
fn modern(version: u8) -> Card {
    Card::licence(
        version,
        "636041",
        &[
            ("DCA", "C"),
            ("DCB", "NONE"),
            ("DCD", "NONE"),
            ("DBA", "07042029"),
            ("DCS", "PUBLIC"),
            ("DAC", "JOHN"),
            ("DAD", "QUINCY"),
            ("DBD", "07042021"),
            ("DBB", "07041980"),
            ("DBC", "1"),
            ("DAY", "BLU"),
            ("DAU", "069 in"),
            ("DAG", "123 POST RD"),
            ("DAI", "WELLS"),
            ("DAJ", "ME"),
            ("DAK", "040900000  "),
            ("DAQ", "1234567"),
            ("DCF", "0123456789"),
            ("DCG", "USA"),
            ("DDE", "N"),
            ("DDF", "N"),
            ("DDG", "N"),
        ],
    )
}

fn john(scan: &LicenceScan) {
    assert_eq!(scan.family_name, "PUBLIC");
    assert_eq!(scan.given_names, "JOHN QUINCY");
    assert_eq!(scan.full_name(), "JOHN QUINCY PUBLIC");
    assert_eq!(scan.date_of_birth, "1980-07-04");
    assert_eq!(scan.number, "1234567");
}

#[test]
fn versions_4_to_10_read_every_field() {
    for version in 4..=10 {
        let scan = parse(&modern(version).encode()).unwrap_or_else(|e| panic!("v{version}: {e}"));
        john(&scan);
        assert_eq!(scan.version, version);
        assert_eq!(scan.issuer, "636041");
        assert_eq!(scan.document, ScannedDocument::DriverLicence);
        assert_eq!(scan.expires.as_deref(), Some("2029-07-04"));
        assert_eq!(scan.sex, Some(CardSex::Male));
        assert_eq!(scan.height.as_deref(), Some("5 ft 9 in"));
        assert_eq!(scan.eyes.as_deref(), Some("blue"));
        assert_eq!(scan.state.as_deref(), Some("ME"));
        assert_eq!(scan.postal_code.as_deref(), Some("04090"));
        assert_eq!(scan.address(), "123 POST RD, WELLS, ME 04090");
    }
}

#[test]
fn version_1_reads_the_whole_name_and_year_first_dates() {
    let card = Card::licence(
        1,
        "636041",
        &[
            ("DAQ", "1234567"),
            ("DAA", "PUBLIC,JOHN,QUINCY"),
            ("DAG", "123 POST RD"),
            ("DAI", "WELLS"),
            ("DAJ", "ME"),
            ("DAK", "040901234  "),
            ("DBA", "20290704"),
            ("DBB", "19800704"),
            ("DBC", "M"),
            ("DAU", "509"),
            ("DAY", "BRO"),
        ],
    );
    let scan = parse(&card.encode()).expect("version 1");
    john(&scan);
    assert_eq!(scan.version, 1);
    assert_eq!(scan.address(), "123 POST RD, WELLS, ME 04090-1234");
    assert_eq!(scan.expires.as_deref(), Some("2029-07-04"));
    assert_eq!(scan.sex, Some(CardSex::Male));
    assert_eq!(scan.height.as_deref(), Some("509"));
    assert_eq!(scan.eyes.as_deref(), Some("brown"));
}

#[test]
fn version_1_with_separate_name_elements() {
    let card = Card::licence(
        1,
        "636039",
        &[
            ("DAQ", "NHL12345678"),
            ("DAB", "DOE"),
            ("DAC", "JANE"),
            ("DAD", "NONE"),
            ("DBB", "19751231"),
        ],
    );
    let scan = parse(&card.encode()).expect("version 1, separate names");
    assert_eq!(scan.full_name(), "JANE DOE");
    assert_eq!(scan.date_of_birth, "1975-12-31");
    assert_eq!(scan.address(), "");
    assert_eq!(scan.expires, None);
}

#[test]
fn a_date_in_the_other_order_than_its_version_says_still_reads() {
    let card = Card::licence(
        1,
        "636041",
        &[
            ("DAQ", "1234567"),
            ("DAA", "PUBLIC,JOHN,QUINCY"),
            ("DBB", "07041980"),
        ],
    );
    assert_eq!(
        parse(&card.encode()).map(|s| s.date_of_birth),
        Ok("1980-07-04".into())
    );
}

#[test]
fn versions_2_and_3_read_given_names_from_dct() {
    for (version, given, expected) in [
        (2, "JANE,ANN", "JANE ANN"),
        (3, "JANE ANN", "JANE ANN"),
        (3, "JANE", "JANE"),
    ] {
        let card = Card::licence(
            version,
            "636039",
            &[
                ("DCA", "D"),
                ("DBA", "12312027"),
                ("DCS", "DOE"),
                ("DCT", given),
                ("DBB", "02291984"),
                ("DBC", "2"),
                ("DAU", "064 in"),
                ("DAG", "1 MAIN ST"),
                ("DAH", "APT 2"),
                ("DAI", "PORTSMOUTH"),
                ("DAJ", "NH"),
                ("DAK", "03801"),
                ("DAQ", "NHL12345678"),
                ("DCG", "USA"),
            ],
        );
        let scan = parse(&card.encode()).unwrap_or_else(|e| panic!("v{version}: {e}"));
        assert_eq!(scan.given_names, expected);
        assert_eq!(scan.family_name, "DOE");
        assert_eq!(scan.date_of_birth, "1984-02-29", "leap day, month first");
        assert_eq!(scan.expires.as_deref(), Some("2027-12-31"));
        assert_eq!(scan.sex, Some(CardSex::Female));
        assert_eq!(scan.height.as_deref(), Some("5 ft 4 in"));
        assert_eq!(scan.address(), "1 MAIN ST APT 2, PORTSMOUTH, NH 03801");
    }
}

#[test]
fn canadian_cards_write_the_year_first() {
    let mut card = modern(8);
    card.issuer = "636012";
    card.elements = vec![
        ("DCS", "TREMBLAY"),
        ("DAC", "MARIE"),
        ("DAD", "NONE"),
        ("DBB", "19910115"),
        ("DBA", "20300115"),
        ("DBC", "9"),
        ("DAU", "165 cm"),
        ("DAG", "10 KING ST W"),
        ("DAI", "TORONTO"),
        ("DAJ", "ON"),
        ("DAK", "M5H 1A1"),
        ("DAQ", "T1234-56789-10115"),
        ("DCG", "CAN"),
    ];
    let scan = parse(&card.encode()).expect("Ontario");
    assert_eq!(scan.full_name(), "MARIE TREMBLAY");
    assert_eq!(scan.date_of_birth, "1991-01-15");
    assert_eq!(scan.expires.as_deref(), Some("2030-01-15"));
    assert_eq!(scan.sex, Some(CardSex::NotSpecified));
    assert_eq!(scan.height.as_deref(), Some("165 cm"));
    assert_eq!(scan.address(), "10 KING ST W, TORONTO, ON M5H 1A1");
}

#[test]
fn an_id_card_is_told_from_a_licence() {
    let mut card = modern(9);
    card.document = "ID";
    let scan = parse(&card.encode()).expect("ID card");
    assert_eq!(scan.document, ScannedDocument::IdCard);
    john(&scan);
}

#[test]
fn separators_changed_by_a_scanner_or_a_paste_still_read() {
    let text = modern(10).encode();
    for variant in [
        text.replace('\r', "\n"),
        text.replace('\n', "\r\n"),
        text.replace('\u{1e}', ""),
        format!("  {text}\n"),
    ] {
        john(&parse(&variant).expect("variant"));
    }
    let aamva = text.replace("ANSI ", "AAMVA");
    john(&parse(&aamva).expect("AAMVA marker"));
}

#[test]
fn an_expired_card_still_reads_and_says_so() {
    let scan = parse(&modern(10).encode()).expect("card");
    assert!(!scan.expired_on("2029-07-04"));
    assert!(scan.expired_on("2029-07-05"));
}

#[test]
fn garbage_and_foreign_barcodes_are_refused_by_name() {
    for text in [
        "",
        "hello",
        "https://example.org/ticket/123",
        "ANSI 636041100002DL00410278",
        "@\n\u{1e}\rANSI standard text",
        "0123456789012",
    ] {
        assert_eq!(parse(text), Err(ScanError::NotALicence), "{text:?}");
    }
    assert_eq!(
        parse(&"@ANSI ".repeat(1000)),
        Err(ScanError::NotALicence),
        "longer than any barcode"
    );
    let mut future = modern(10);
    future.version = 11;
    assert_eq!(parse(&future.encode()), Err(ScanError::UnknownVersion(11)));
    future.version = 0;
    assert_eq!(parse(&future.encode()), Err(ScanError::UnknownVersion(0)));
}

#[test]
fn truncated_data_is_refused_and_says_where() {
    let text = modern(10).encode();
    assert_eq!(
        parse(&text[..12]),
        Err(ScanError::Truncated("the issuer's number"))
    );
    assert_eq!(
        parse(&text[..20]),
        Err(ScanError::Truncated("the number of subfiles"))
    );
    assert_eq!(
        parse(&text[..22]),
        Err(ScanError::Truncated("the subfile list"))
    );
    assert_eq!(
        parse(&text[..30]),
        Err(ScanError::Truncated("the subfiles"))
    );
    // Cut inside the licence number, at an element's start and inside the last
    // elements: refused. Cut just before the jurisdiction's subfile: the whole card.
    let number = text.find("DAQ").expect("DAQ");
    for cut in [number + 5, number, text.find("DCG").expect("DCG") + 6] {
        assert_eq!(
            parse(&text[..cut]),
            Err(ScanError::Truncated("the card's data")),
            "{cut}"
        );
    }
    john(&parse(&text[..text.find("ZVZVA").expect("ZV subfile")]).expect("the card subfile whole"));
}

#[test]
fn a_whole_card_without_a_required_element_names_it() {
    for (code, what) in [("DAQ", "license number"), ("DBB", "date of birth")] {
        let mut card = modern(10);
        card.elements.retain(|(c, _)| *c != code);
        assert_eq!(
            parse(&card.encode()),
            Err(ScanError::Missing { code, what })
        );
    }
    let mut card = modern(10);
    card.elements
        .retain(|(c, _)| !matches!(*c, "DCS" | "DAC" | "DAD"));
    assert_eq!(
        parse(&card.encode()),
        Err(ScanError::Missing {
            code: "DCS",
            what: "family name"
        })
    );
}

#[test]
fn a_date_that_does_not_exist_is_named() {
    let mut card = modern(10);
    card.elements.retain(|(code, _)| *code != "DBB");
    card.elements.push(("DBB", "02301980"));
    assert_eq!(
        parse(&card.encode()),
        Err(ScanError::BadDate {
            code: "DBB",
            what: "date of birth",
            value: "02301980".into()
        })
    );
}

#[test]
fn messages_tell_the_officer_what_to_do() {
    assert!(ScanError::NotALicence
        .to_string()
        .contains("type the details"));
    let missing = ScanError::Missing {
        code: "DAQ",
        what: "license number",
    };
    assert_eq!(
        missing.to_string(),
        "The barcode has no license number (DAQ). Type it from the card."
    );
}

proptest! {
    #[test]
    fn any_text_is_read_or_refused_never_a_panic(text in "\\PC{0,600}") {
        let _ = parse(&text);
    }

    #[test]
    fn any_cut_of_a_card_is_read_or_refused_never_a_panic(cut in 0usize..400, version in 1u8..=10) {
        let text = modern(version).encode();
        let cut = cut.min(text.len());
        if let Ok(scan) = parse(&text[..cut]) {
            prop_assert_eq!(scan.number, "1234567");
        }
    }
}
