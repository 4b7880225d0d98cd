//! The phone's camera reading a licence's barcode: `/scan/licence.js`, loaded on
//! the first tap of "Scan licence" (the decoder it may need is a megabyte the
//! officer's pages do not carry otherwise), driven from here.

/// The script, fetched once per page.
#[cfg(feature = "hydrate")]
const SCRIPT: &str = "/scan/licence.js";

/// What the officer can do when the camera does not start, by the browser's reason.
#[cfg(feature = "hydrate")]
fn camera_problem(reason: &str) -> String {
    let why = match reason {
        "NotAllowedError" | "SecurityError" => {
            "The camera is not allowed for this site: allow it in the browser's site settings."
        }
        "NotFoundError" | "OverconstrainedError" => "This phone has no camera the page can use.",
        "NotReadableError" | "AbortError" => {
            "The camera is in use by another app: close it and try again."
        }
        _ => "The camera could not start.",
    };
    format!("{why} Or use a barcode reader, or type the details.")
}
#[cfg(feature = "hydrate")]
const NO_DECODER: &str = "The barcode reader could not load. With no signal it works only once it \
                          has been used on this phone; type the details, or try again.";

/// Shows the rear camera in `video` and reads frames until a PDF417 barcode is
/// found (its text) or [`stop`] is called (`None`).
#[cfg(feature = "hydrate")]
pub async fn read_barcode(video: web_sys::HtmlVideoElement) -> Result<Option<String>, String> {
    use js_sys::{Function, Promise, Reflect};
    use wasm_bindgen::{JsCast, JsValue};

    let scanner = scanner().await.map_err(|_| NO_DECODER.to_owned())?;
    let start: Function = Reflect::get(&scanner, &JsValue::from_str("start"))
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or(NO_DECODER)?;
    let promise: Promise = start
        .call1(&scanner, &video)
        .ok()
        .and_then(|p| p.dyn_into().ok())
        .ok_or(NO_DECODER)?;
    match wasm_bindgen_futures::JsFuture::from(promise).await {
        Ok(text) => Ok(text.as_string()),
        Err(error) => {
            let message = Reflect::get(&error, &JsValue::from_str("message"))
                .ok()
                .and_then(|m| m.as_string());
            Err(match message.as_deref() {
                Some("decoder") => NO_DECODER.to_owned(),
                other => camera_problem(
                    other
                        .and_then(|m| m.strip_prefix("camera:"))
                        .unwrap_or_default(),
                ),
            })
        }
    }
}

/// Turns the camera off (the pending [`read_barcode`] answers `None`).
#[cfg(feature = "hydrate")]
pub fn stop() {
    use js_sys::{Function, Reflect};
    use wasm_bindgen::{JsCast, JsValue};

    let Some(window) = web_sys::window() else {
        return;
    };
    let scanner = Reflect::get(&window, &JsValue::from_str("wellsLicenceScanner"))
        .ok()
        .filter(|s| s.is_object());
    if let Some(scanner) = scanner {
        if let Some(stop) = Reflect::get(&scanner, &JsValue::from_str("stop"))
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok())
        {
            let _ = stop.call0(&scanner);
        }
    }
}

/// `window.wellsLicenceScanner`, adding the script to the page the first time.
#[cfg(feature = "hydrate")]
async fn scanner() -> Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue> {
    use js_sys::{Function, Promise, Reflect};
    use wasm_bindgen::{JsCast, JsValue};

    let window = web_sys::window().ok_or(JsValue::NULL)?;
    let name = JsValue::from_str("wellsLicenceScanner");
    let present = Reflect::get(&window, &name)?;
    if present.is_object() {
        return Ok(present);
    }
    let document = Reflect::get(&window, &JsValue::from_str("document"))?;
    let create: Function =
        Reflect::get(&document, &JsValue::from_str("createElement"))?.dyn_into()?;
    let script = create.call1(&document, &JsValue::from_str("script"))?;
    Reflect::set(
        &script,
        &JsValue::from_str("src"),
        &JsValue::from_str(SCRIPT),
    )?;
    let loaded = Promise::new(&mut |resolve, reject| {
        let _ = Reflect::set(&script, &JsValue::from_str("onload"), &resolve);
        let _ = Reflect::set(&script, &JsValue::from_str("onerror"), &reject);
    });
    let head = Reflect::get(&document, &JsValue::from_str("head"))?;
    let append: Function = Reflect::get(&head, &JsValue::from_str("append"))?.dyn_into()?;
    append.call1(&head, &script)?;
    wasm_bindgen_futures::JsFuture::from(loaded).await?;
    let scanner = Reflect::get(&window, &name)?;
    if scanner.is_object() {
        Ok(scanner)
    } else {
        Err(JsValue::NULL)
    }
}

#[cfg(not(feature = "hydrate"))]
pub fn stop() {}
