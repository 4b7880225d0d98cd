//! Photos of an incident (issue #20): the obstruction, the crowd. The phone
//! scales each to at most 1600 pixels and re-encodes it as JPEG (which drops its
//! metadata); the server checks it is a JPEG of that size and removes every
//! metadata segment again — EXIF above all, which can carry the phone's GPS
//! position: the incident has its own location, and a photo must not add one.

use serde::{Deserialize, Serialize};

/// At most this many photos per incident.
pub const MAX_PHOTOS: usize = 10;
/// The longest side the phone sends, in pixels.
pub const MAX_SIDE: u16 = 1600;
/// The most one photo may weigh on the wire — the server's limit for any request
/// body: a 1600-pixel JPEG at the phone's quality is well under a megabyte.
pub const MAX_BYTES: usize = crate::error::MAX_BODY_BYTES;

/// A stored photo, as a report lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhotoRef {
    pub photo_id: uuid::Uuid,
    pub width: u16,
    pub height: u16,
    pub bytes: u32,
    /// Of the stored bytes; the audit entry of the upload records it too.
    pub sha256: String,
}

/// A JPEG with its metadata removed, and its size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CleanJpeg {
    pub bytes: Vec<u8>,
    pub width: u16,
    pub height: u16,
    /// 1 grey, 3 colour (YCbCr), 4 CMYK: how a PDF must read it.
    pub components: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PhotoProblem {
    #[error("The photo is not a JPEG image.")]
    NotJpeg,
    #[error("The photo's data is damaged or cut short.")]
    Damaged,
    #[error("The photo is larger than {MAX_SIDE} pixels on a side: the app scales photos before sending them.")]
    TooLarge,
    #[error("The photo is a kind of JPEG a report cannot print (only baseline and progressive).")]
    Unsupported,
}

/// Marker bytes (after 0xFF) of the segments kept: the image itself and how to
/// decode it. Every APPn but APP0 (JFIF) and APP14 (Adobe colour transform), and
/// every comment, is metadata and goes.
fn keep(marker: u8) -> bool {
    !matches!(marker, 0xE1..=0xED | 0xEF | 0xFE)
}

/// Checks `jpeg` is a baseline or progressive JPEG no larger than [`MAX_SIDE`]
/// and returns it without its metadata segments (EXIF, XMP, ICC profiles,
/// comments). The compressed image data is copied untouched.
pub fn clean(jpeg: &[u8]) -> Result<CleanJpeg, PhotoProblem> {
    if jpeg.len() < 4 || jpeg[0] != 0xFF || jpeg[1] != 0xD8 {
        return Err(PhotoProblem::NotJpeg);
    }
    let mut out = Vec::with_capacity(jpeg.len());
    out.extend_from_slice(&jpeg[..2]);
    let mut at = 2;
    let mut size = None;
    loop {
        // Fill bytes (0xFF repeated) may precede a marker.
        while jpeg.get(at) == Some(&0xFF) && jpeg.get(at + 1) == Some(&0xFF) {
            at += 1;
        }
        let (Some(&0xFF), Some(&marker)) = (jpeg.get(at), jpeg.get(at + 1)) else {
            return Err(PhotoProblem::Damaged);
        };
        if marker == 0xD9 {
            return Err(PhotoProblem::Damaged); // an end with no image
        }
        let length = match (jpeg.get(at + 2), jpeg.get(at + 3)) {
            (Some(&hi), Some(&lo)) => usize::from(u16::from_be_bytes([hi, lo])),
            _ => return Err(PhotoProblem::Damaged),
        };
        let end = at + 2 + length;
        if length < 2 || end > jpeg.len() {
            return Err(PhotoProblem::Damaged);
        }
        // Start of frame (any kind but the DHT/JPG/DAC markers among C0–CF).
        if (0xC0..=0xCF).contains(&marker) && !matches!(marker, 0xC4 | 0xC8 | 0xCC) {
            // Lossless, hierarchical and arithmetic-coded frames: PDF readers'
            // DCTDecode does not take them.
            if !matches!(marker, 0xC0..=0xC2) {
                return Err(PhotoProblem::Unsupported);
            }
            let field = |i: usize| jpeg.get(at + 4 + i).copied().ok_or(PhotoProblem::Damaged);
            let height = u16::from_be_bytes([field(1)?, field(2)?]);
            let width = u16::from_be_bytes([field(3)?, field(4)?]);
            size = Some((width, height, field(5)?));
        }
        if keep(marker) {
            out.extend_from_slice(&jpeg[at..end]);
        }
        at = end;
        if marker == 0xDA {
            // Start of scan: the compressed data and everything after it, as is.
            out.extend_from_slice(&jpeg[at..]);
            break;
        }
    }
    let (width, height, components) = size.ok_or(PhotoProblem::Damaged)?;
    if width == 0
        || height == 0
        || !matches!(components, 1 | 3 | 4)
        || !jpeg.ends_with(&[0xFF, 0xD9])
    {
        return Err(PhotoProblem::Damaged);
    }
    if width > MAX_SIDE || height > MAX_SIDE {
        return Err(PhotoProblem::TooLarge);
    }
    Ok(CleanJpeg {
        bytes: out,
        width,
        height,
        components,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segment(marker: u8, data: &[u8]) -> Vec<u8> {
        let mut s = vec![0xFF, marker];
        s.extend_from_slice(&u16::try_from(data.len() + 2).unwrap_or(0).to_be_bytes());
        s.extend_from_slice(data);
        s
    }

    /// A JPEG's structure: SOI, JFIF, EXIF with a GPS block, a comment, a frame
    /// of `width` × `height`, a scan with its data, EOI.
    fn jpeg(width: u16, height: u16) -> Vec<u8> {
        let mut j = vec![0xFF, 0xD8];
        j.extend(segment(0xE0, b"JFIF\0\x01\x01\0\0\x01\0\x01\0\0"));
        j.extend(segment(0xE1, b"Exif\0\0MM\0*GPSLatitude 43.3221"));
        j.extend(segment(0xFE, b"taken on Post Road"));
        let mut frame = vec![8];
        frame.extend(height.to_be_bytes());
        frame.extend(width.to_be_bytes());
        frame.extend([3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
        j.extend(segment(0xC0, &frame));
        j.extend(segment(0xDA, &[1, 1, 0, 0, 0x3F, 0]));
        j.extend([0x12, 0x34, 0xFF, 0x00, 0x56, 0xFF, 0xD9]);
        j
    }

    #[test]
    fn metadata_goes_and_the_image_stays() {
        let original = jpeg(1600, 1200);
        let clean = clean(&original).expect("clean");
        assert_eq!(
            (clean.width, clean.height, clean.components),
            (1600, 1200, 3)
        );
        let text = String::from_utf8_lossy(&clean.bytes);
        assert!(!text.contains("Exif") && !text.contains("GPS") && !text.contains("Post Road"));
        assert!(text.contains("JFIF"));
        assert!(clean
            .bytes
            .ends_with(&[0x12, 0x34, 0xFF, 0x00, 0x56, 0xFF, 0xD9]));
        assert_eq!(
            super::clean(&clean.bytes).map(|c| c.bytes),
            Ok(clean.bytes.clone()),
            "cleaning twice changes nothing"
        );
    }

    #[test]
    fn what_is_not_a_small_whole_jpeg_is_refused_by_name() {
        assert_eq!(clean(b"GIF89a...."), Err(PhotoProblem::NotJpeg));
        assert_eq!(clean(&[]), Err(PhotoProblem::NotJpeg));
        assert_eq!(clean(&jpeg(1601, 900)), Err(PhotoProblem::TooLarge));
        assert_eq!(clean(&jpeg(900, 1601)), Err(PhotoProblem::TooLarge));
        let mut lossless = jpeg(800, 600);
        let frame = lossless
            .windows(2)
            .position(|w| w == [0xFF, 0xC0])
            .expect("frame");
        lossless[frame + 1] = 0xC3;
        assert_eq!(clean(&lossless), Err(PhotoProblem::Unsupported));
        let whole = jpeg(800, 600);
        for cut in 2..whole.len() - 1 {
            assert!(clean(&whole[..cut]).is_err(), "cut at {cut}");
        }
    }
}
