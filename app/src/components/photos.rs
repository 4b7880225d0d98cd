//! The phone's half of incident photos (issue #20): a photo from the camera or
//! the gallery is scaled to at most 1600 pixels and re-encoded as JPEG on a
//! canvas — which leaves the file's EXIF, GPS position included, behind — and
//! kept on the phone until the outbox sends it, on its own, once the report is in.

#[cfg(feature = "hydrate")]
use crate::model::photo::MAX_SIDE;

/// Why a photo did not go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotSent {
    /// No signal: try again later.
    Offline,
    /// Signed out (or the session ended): after signing in.
    SignIn,
    /// The server refused this photo for good (not a JPEG, too many, not this
    /// officer's incident); its message.
    Refused(String),
    /// Anything else: try again later.
    Later,
}

#[cfg(feature = "hydrate")]
const UNREADABLE: &str =
    "This file could not be read as a picture. Choose a photo (JPEG, PNG, HEIC the phone opens).";

/// The photo as a JPEG `data:` URL at most [`MAX_SIDE`] pixels on a side, with its
/// width and height.
#[cfg(feature = "hydrate")]
pub async fn prepare(file: web_sys::File) -> Result<(String, u16, u16), String> {
    use wasm_bindgen::{JsCast, JsValue};
    use wasm_bindgen_futures::JsFuture;
    use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageBitmap};

    let window = web_sys::window().ok_or(UNREADABLE)?;
    let promise = window
        .create_image_bitmap_with_blob(&file)
        .map_err(|_| UNREADABLE)?;
    let bitmap: ImageBitmap = JsFuture::from(promise)
        .await
        .ok()
        .and_then(|b| b.dyn_into().ok())
        .ok_or(UNREADABLE)?;
    let (width, height) = (bitmap.width(), bitmap.height());
    if width == 0 || height == 0 {
        return Err(UNREADABLE.to_owned());
    }
    let scale = (f64::from(MAX_SIDE) / f64::from(width.max(height))).min(1.0);
    let side = |n: u32| ((f64::from(n) * scale).round().max(1.0) as u32).min(u32::from(MAX_SIDE));
    let (w, h) = (side(width), side(height));
    let canvas: HtmlCanvasElement = window
        .document()
        .and_then(|d| d.create_element("canvas").ok())
        .and_then(|c| c.dyn_into().ok())
        .ok_or(UNREADABLE)?;
    canvas.set_width(w);
    canvas.set_height(h);
    let context: CanvasRenderingContext2d = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into().ok())
        .ok_or(UNREADABLE)?;
    context
        .draw_image_with_image_bitmap_and_dw_and_dh(&bitmap, 0.0, 0.0, f64::from(w), f64::from(h))
        .map_err(|_| UNREADABLE)?;
    bitmap.close();
    let url = canvas
        .to_data_url_with_type_and_encoder_options("image/jpeg", &JsValue::from_f64(0.85))
        .map_err(|_| UNREADABLE)?;
    Ok((url, w as u16, h as u16))
}

/// Sends one photo of an incident the server has stored: `PUT` under the
/// photo's own id, so sending it again after a lost answer stores nothing twice.
#[cfg(feature = "hydrate")]
pub async fn upload(
    incident_id: uuid::Uuid,
    photo_id: uuid::Uuid,
    data_url: &str,
) -> Result<(), NotSent> {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    use web_sys::{Headers, RequestInit, Response};

    let window = web_sys::window().ok_or(NotSent::Later)?;
    // The page's content policy lets it fetch only from its own origin, so the
    // data URL is decoded here rather than fetched.
    let base64 = data_url
        .split_once(',')
        .map(|(_, b)| b)
        .ok_or_else(|| NotSent::Refused("The photo kept on this phone is damaged.".into()))?;
    let binary = window
        .atob(base64)
        .map_err(|_| NotSent::Refused("The photo kept on this phone is damaged.".into()))?;
    let bytes: Vec<u8> = binary.chars().map(|c| c as u32 as u8).collect();
    let body = js_sys::Uint8Array::from(bytes.as_slice());
    let headers = Headers::new().map_err(|_| NotSent::Later)?;
    headers
        .set("content-type", "image/jpeg")
        .map_err(|_| NotSent::Later)?;
    let init = RequestInit::new();
    init.set_method("PUT");
    init.set_body(&body);
    init.set_headers(&headers);
    let url = format!("/incidents/{incident_id}/photos/{photo_id}");
    let response: Response = JsFuture::from(window.fetch_with_str_and_init(&url, &init))
        .await
        .map_err(|_| NotSent::Offline)?
        .dyn_into()
        .map_err(|_| NotSent::Later)?;
    if response.redirected() {
        // Sent to the sign-in page: not stored.
        return Err(NotSent::SignIn);
    }
    match response.status() {
        200..=299 => Ok(()),
        401 => Err(NotSent::SignIn),
        400 | 404 | 409 | 413 => {
            let text = match response.text() {
                Ok(promise) => JsFuture::from(promise)
                    .await
                    .ok()
                    .and_then(|t| t.as_string()),
                Err(_) => None,
            };
            let message = text
                .and_then(|t| serde_json::from_str::<crate::error::AppError>(&t).ok())
                .map(|e| e.to_string())
                .unwrap_or_else(|| "The server refused the photo.".to_owned());
            Err(NotSent::Refused(message))
        }
        _ => Err(NotSent::Later),
    }
}
