//! A small page-flowing PDF writer on pdf-writer: US Letter, the standard
//! Helvetica fonts (no embedding: every reader has them), text wrapped to width.

use pdf_writer::types::{LineCapStyle, LineJoinStyle};
use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref, Str, TextStr};

use domain::model::signature::{Signature, HEIGHT as PAD_HEIGHT};

const PAGE_W: f32 = 612.0;
const PAGE_H: f32 = 792.0;
const MARGIN: f32 = 54.0;
const REGULAR: Name<'static> = Name(b"F1");
const BOLD: Name<'static> = Name(b"F2");

/// Helvetica advance widths (per 1000 em) for ASCII 32..=126, from its AFM.
const WIDTHS: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
    556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667,
    611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
    667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500,
    222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

/// Text in the fonts' WinAnsi encoding. Latin-1 letters (é, ñ, ü…), dashes, curly
/// quotes and § survive; anything else prints as `?`.
pub fn win_ansi(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| match c {
            ' '..='~' => c as u8,
            '\u{A0}'..='\u{FF}' => c as u32 as u8,
            '€' => 0x80,
            '‚' => 0x82,
            '„' => 0x84,
            '…' => 0x85,
            '‘' => 0x91,
            '’' => 0x92,
            '“' => 0x93,
            '”' => 0x94,
            '•' => 0x95,
            '–' => 0x96,
            '—' => 0x97,
            '™' => 0x99,
            'Œ' => 0x8C,
            'œ' => 0x9C,
            'Š' => 0x8A,
            'š' => 0x9A,
            'Ž' => 0x8E,
            'ž' => 0x9E,
            'Ÿ' => 0x9F,
            '−' => b'-',
            '\t' => b' ',
            _ => b'?',
        })
        .collect()
}

fn width(text: &str, size: f32, bold: bool) -> f32 {
    let units: f32 = text
        .chars()
        .map(|c| {
            let code = c as u32;
            if (32..=126).contains(&code) {
                f32::from(WIDTHS[(code - 32) as usize])
            } else {
                556.0
            }
        })
        .sum();
    // Bold is a little wider than regular; over-estimating only wraps earlier.
    units * size / 1000.0 * if bold { 1.08 } else { 1.0 }
}

/// Splits `text` into lines no wider than `max` points (long words are cut).
pub fn wrap(text: &str, size: f32, bold: bool, max: f32) -> Vec<String> {
    let mut lines = Vec::new();
    for paragraph in text.split('\n') {
        let mut line = String::new();
        for word in paragraph.split_whitespace() {
            let candidate = if line.is_empty() {
                word.to_owned()
            } else {
                format!("{line} {word}")
            };
            if width(&candidate, size, bold) <= max {
                line = candidate;
                continue;
            }
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            let mut piece = String::new();
            for c in word.chars() {
                piece.push(c);
                if width(&piece, size, bold) > max {
                    piece.pop();
                    lines.push(std::mem::take(&mut piece));
                    piece.push(c);
                }
            }
            line = piece;
        }
        lines.push(line);
    }
    lines
}

/// A document being laid out top to bottom; pages are added as text overflows.
pub struct Document {
    pages: Vec<Content>,
    content: Content,
    y: f32,
    images: Vec<PlacedImage>,
}

/// A JPEG drawn on a page: embedded as it is (the PDF reader decodes it).
struct PlacedImage {
    page: usize,
    jpeg: Vec<u8>,
    width: u16,
    height: u16,
    components: u8,
}

impl Default for Document {
    fn default() -> Self {
        Self::new()
    }
}

impl Document {
    pub fn new() -> Document {
        Document {
            pages: Vec::new(),
            content: Content::new(),
            y: PAGE_H - MARGIN,
            images: Vec::new(),
        }
    }

    pub const fn text_width() -> f32 {
        PAGE_W - 2.0 * MARGIN
    }

    /// Starts a new page.
    pub fn page_break(&mut self) {
        let done = std::mem::replace(&mut self.content, Content::new());
        self.pages.push(done);
        self.y = PAGE_H - MARGIN;
    }

    fn room(&mut self, height: f32) {
        if self.y - height < MARGIN {
            self.page_break();
        }
    }

    fn line_at(&mut self, x: f32, text: &str, size: f32, bold: bool) {
        self.content
            .begin_text()
            .set_font(if bold { BOLD } else { REGULAR }, size)
            .next_line(x, self.y)
            .show(Str(&win_ansi(text)))
            .end_text();
    }

    /// A paragraph, wrapped.
    pub fn text(&mut self, text: &str, size: f32, bold: bool) {
        for line in wrap(text, size, bold, Self::text_width()) {
            self.room(size * 1.35);
            self.y -= size * 1.35;
            self.line_at(MARGIN, &line, size, bold);
        }
    }

    /// `label: value`, the label bold in a fixed column, the value wrapped beside it.
    pub fn field(&mut self, label: &str, value: &str) {
        const SIZE: f32 = 10.0;
        const LABEL_W: f32 = 150.0;
        let lines = wrap(value, SIZE, false, Self::text_width() - LABEL_W);
        self.room(SIZE * 1.4 * lines.len().max(1) as f32);
        for (i, line) in lines.iter().enumerate() {
            self.y -= SIZE * 1.4;
            if i == 0 {
                self.line_at(MARGIN, label, SIZE, true);
            }
            self.line_at(MARGIN + LABEL_W, line, SIZE, false);
        }
    }

    /// A section heading with a rule under it.
    pub fn heading(&mut self, text: &str) {
        self.room(34.0);
        self.gap(8.0);
        self.y -= 13.0;
        self.line_at(MARGIN, text, 11.0, true);
        self.y -= 4.0;
        self.content
            .set_line_width(0.75)
            .move_to(MARGIN, self.y)
            .line_to(PAGE_W - MARGIN, self.y)
            .stroke();
    }

    /// A line to sign on, with its caption.
    pub fn signature_line(&mut self, caption: &str) {
        self.signed_line(caption, None);
    }

    /// A line to sign on with a signature captured on the phone drawn on it, as
    /// the strokes were made (40 points high, in proportion), inside a
    /// marked-content section named `tag` so the file says what the drawing is.
    pub fn signed_line(&mut self, caption: &str, signed: Option<(&Signature, &'static str)>) {
        const DRAWN_HEIGHT: f32 = 40.0;
        // An unsigned line keeps the room it always had, so documents printed
        // before signatures print the same.
        let above = if signed.is_some() {
            DRAWN_HEIGHT + 4.0
        } else {
            30.0
        };
        self.room(above + 10.0);
        self.y -= above;
        if let Some((signature, tag)) = signed {
            let scale = DRAWN_HEIGHT / f32::from(PAD_HEIGHT);
            let (left, bottom) = (MARGIN + 8.0, self.y);
            let at = |[x, y]: [u16; 2]| {
                (
                    left + f32::from(x) * scale,
                    bottom + f32::from(PAD_HEIGHT - y.min(PAD_HEIGHT)) * scale,
                )
            };
            self.content
                .begin_marked_content(Name(tag.as_bytes()))
                .save_state()
                .set_line_width(1.1)
                .set_line_cap(LineCapStyle::RoundCap)
                .set_line_join(LineJoinStyle::RoundJoin);
            for stroke in signature.strokes.iter().filter(|s| !s.is_empty()) {
                let (x, y) = at(stroke[0]);
                self.content.move_to(x, y);
                if stroke.len() == 1 {
                    self.content.line_to(x + 0.5, y);
                }
                for point in &stroke[1..] {
                    let (x, y) = at(*point);
                    self.content.line_to(x, y);
                }
                self.content.stroke();
            }
            self.content.restore_state().end_marked_content();
        }
        self.content
            .set_line_width(0.5)
            .move_to(MARGIN, self.y)
            .line_to(MARGIN + 300.0, self.y)
            .stroke();
        self.y -= 2.0;
        self.y -= 9.0;
        self.line_at(MARGIN, caption, 8.0, false);
    }

    /// A photo, as wide as the text or at most 260 points high, with its caption.
    pub fn photo(&mut self, jpeg: &domain::model::photo::CleanJpeg, caption: &str) {
        let (w, h) = (f32::from(jpeg.width), f32::from(jpeg.height));
        let scale = (Self::text_width() / w).min(260.0 / h);
        let (shown_w, shown_h) = (w * scale, h * scale);
        self.room(shown_h + 18.0);
        self.y -= shown_h + 6.0;
        let name = format!("Im{}", self.images.len());
        self.content
            .save_state()
            .transform([shown_w, 0.0, 0.0, shown_h, MARGIN, self.y])
            .x_object(Name(name.as_bytes()))
            .restore_state();
        self.images.push(PlacedImage {
            page: self.pages.len(),
            jpeg: jpeg.bytes.clone(),
            width: jpeg.width,
            height: jpeg.height,
            components: jpeg.components,
        });
        self.y -= 11.0;
        self.line_at(MARGIN, caption, 8.0, false);
    }

    pub fn gap(&mut self, height: f32) {
        self.y -= height;
    }

    /// A table row: cells at fixed x offsets (from the left margin), one line each.
    pub fn row(&mut self, cells: &[(f32, &str)], size: f32, bold: bool) {
        self.room(size * 1.5);
        self.y -= size * 1.5;
        for (x, text) in cells {
            self.line_at(MARGIN + x, text, size, bold);
        }
    }

    /// The finished PDF bytes.
    pub fn finish(mut self, title: &str) -> Vec<u8> {
        let last = std::mem::replace(&mut self.content, Content::new());
        self.pages.push(last);
        let mut pdf = Pdf::new();
        let catalog = Ref::new(1);
        let tree = Ref::new(2);
        let regular = Ref::new(3);
        let bold = Ref::new(4);
        let info = Ref::new(5);
        let first_page = 10;
        let page_ids: Vec<Ref> = (0..self.pages.len())
            .map(|i| Ref::new(first_page + 2 * i as i32))
            .collect();
        let first_image = first_page + 2 * self.pages.len() as i32;
        let image_id = |k: usize| Ref::new(first_image + k as i32);
        let image_names: Vec<String> = (0..self.images.len()).map(|k| format!("Im{k}")).collect();
        pdf.catalog(catalog).pages(tree);
        pdf.pages(tree)
            .kids(page_ids.iter().copied())
            .count(page_ids.len() as i32);
        for (i, content) in self.pages.into_iter().enumerate() {
            let page_id = page_ids[i];
            let content_id = Ref::new(page_id.get() + 1);
            let mut page = pdf.page(page_id);
            page.media_box(Rect::new(0.0, 0.0, PAGE_W, PAGE_H));
            page.parent(tree);
            page.contents(content_id);
            let mut resources = page.resources();
            resources.fonts().pair(REGULAR, regular).pair(BOLD, bold);
            if self.images.iter().any(|image| image.page == i) {
                let mut objects = resources.x_objects();
                for (k, _) in self.images.iter().enumerate().filter(|(_, m)| m.page == i) {
                    objects.pair(Name(image_names[k].as_bytes()), image_id(k));
                }
            }
            resources.finish();
            page.finish();
            pdf.stream(content_id, &content.finish());
        }
        for (k, image) in self.images.iter().enumerate() {
            let mut object = pdf.image_xobject(image_id(k), &image.jpeg);
            object.filter(pdf_writer::Filter::DctDecode);
            object.width(i32::from(image.width));
            object.height(i32::from(image.height));
            match image.components {
                1 => object.color_space().device_gray(),
                4 => object.color_space().device_cmyk(),
                _ => object.color_space().device_rgb(),
            }
            object.bits_per_component(8);
        }
        pdf.type1_font(regular)
            .base_font(Name(b"Helvetica"))
            .encoding_predefined(Name(b"WinAnsiEncoding"));
        pdf.type1_font(bold)
            .base_font(Name(b"Helvetica-Bold"))
            .encoding_predefined(Name(b"WinAnsiEncoding"));
        pdf.document_info(info)
            .title(TextStr(title))
            .producer(TextStr("Wells loitering enforcement log"));
        pdf.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin_letters_and_legal_punctuation_survive_the_encoding() {
        assert_eq!(win_ansi("José Ñúñez"), b"Jos\xe9 \xd1\xfa\xf1ez");
        assert_eq!(win_ansi("§52-1 — “ok”"), b"\xa752-1 \x97 \x93ok\x94");
        assert_eq!(win_ansi("漢"), b"?");
    }

    #[test]
    fn long_text_wraps_within_the_width_and_keeps_every_word() {
        let text = "word ".repeat(300);
        let lines = wrap(&text, 10.0, false, 200.0);
        assert!(lines.len() > 10);
        assert!(lines.iter().all(|l| width(l, 10.0, false) <= 200.0));
        assert_eq!(lines.join(" ").split_whitespace().count(), 300);
    }

    #[test]
    fn a_long_document_flows_onto_more_pages() {
        let mut doc = Document::new();
        for i in 0..200 {
            doc.field("Line", &format!("entry {i}"));
        }
        let bytes = doc.finish("test");
        assert!(bytes.starts_with(b"%PDF-"));
        let text = String::from_utf8_lossy(&bytes);
        let pages = text.matches("/Type /Page").count() - text.matches("/Type /Pages").count();
        assert!(pages >= 2, "{pages} pages");
        assert!(text.contains("(entry 199)"));
    }
}
