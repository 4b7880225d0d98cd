//! What only the phone can do: its clock and time zone, its storage, its GPS, and
//! new ids. Each function has a server-side stand-in so components compile and
//! render on the server too; the stand-ins are never what an officer relies on.

use serde::de::DeserializeOwned;
use serde::Serialize;
use uuid::Uuid;

use crate::model::incident::GpsFix;
use crate::ordinance::Moment;

/// Now, by this device's clock.
pub fn now() -> Moment {
    #[cfg(feature = "hydrate")]
    {
        Moment(js_sys::Date::now() as i64)
    }
    #[cfg(not(feature = "hydrate"))]
    {
        Moment(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_millis() as i64)
                .unwrap_or(0),
        )
    }
}

/// A new UUID v7 (time-ordered), made here so a retried submit names the same
/// report. In the browser the random part comes from `crypto.getRandomValues`.
pub fn new_id() -> Uuid {
    #[cfg(feature = "hydrate")]
    {
        let mut random = [0u8; 10];
        if let Some(crypto) = web_sys::window().and_then(|w| w.crypto().ok()) {
            let _ = crypto.get_random_values_with_u8_array(&mut random);
        }
        uuid::Builder::from_unix_timestamp_millis(now().0 as u64, &random).into_uuid()
    }
    #[cfg(not(feature = "hydrate"))]
    {
        Uuid::now_v7()
    }
}

/// `moment` as this device's local `YYYY-MM-DDTHH:MM` (what a datetime-local input shows).
pub fn local_text(moment: Moment) -> String {
    #[cfg(feature = "hydrate")]
    {
        let d = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(moment.0 as f64));
        format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}",
            d.get_full_year(),
            d.get_month() + 1,
            d.get_date(),
            d.get_hours(),
            d.get_minutes()
        )
    }
    #[cfg(not(feature = "hydrate"))]
    {
        let s = moment.0.div_euclid(1000);
        let days = s.div_euclid(86_400);
        let secs = s.rem_euclid(86_400);
        let (y, m, d) = crate::model::civil::civil_from_days(days);
        format!(
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}",
            secs / 3600,
            secs % 3600 / 60
        )
    }
}

/// A local `YYYY-MM-DDTHH:MM` (this device's zone) as a moment.
pub fn parse_local(text: &str) -> Option<Moment> {
    #[cfg(feature = "hydrate")]
    {
        // Validate the shape first: Date parses far too much.
        crate::model::civil::parse_utc_local(text)?;
        let ms = js_sys::Date::new(&wasm_bindgen::JsValue::from_str(text.trim())).get_time();
        ms.is_finite().then_some(Moment(ms as i64))
    }
    #[cfg(not(feature = "hydrate"))]
    {
        crate::model::civil::parse_utc_local(text)
    }
}

/// Now, as local `YYYY-MM-DDTHH:MM`.
pub fn now_local() -> String {
    local_text(now())
}

/// Reads a value saved on this device.
pub fn load<T: DeserializeOwned>(key: &str) -> Option<T> {
    serde_json::from_str(&load_text(key)?).ok()
}

/// The text saved under `key`, for values whose older shapes are read too.
pub fn load_text(key: &str) -> Option<String> {
    #[cfg(feature = "hydrate")]
    {
        let storage = web_sys::window()?.local_storage().ok()??;
        storage.get_item(key).ok()?
    }
    #[cfg(not(feature = "hydrate"))]
    {
        let _ = key;
        None
    }
}

/// Saves a value on this device (survives reloads, browser restarts, sign-outs).
/// Returns false when storage is full or unavailable.
pub fn save<T: Serialize>(key: &str, value: &T) -> bool {
    #[cfg(feature = "hydrate")]
    {
        let Some(storage) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) else {
            return false;
        };
        serde_json::to_string(value)
            .ok()
            .is_some_and(|text| storage.set_item(key, &text).is_ok())
    }
    #[cfg(not(feature = "hydrate"))]
    {
        let _ = (key, value);
        false
    }
}

pub fn remove(key: &str) {
    #[cfg(feature = "hydrate")]
    if let Some(storage) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = storage.remove_item(key);
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = key;
}

/// This tab's session storage: what a person typed and has not yet sent (issue
/// #37, finding 12). It outlives a sign-in in the same tab and goes with the tab,
/// so a shared desk computer does not keep it.
#[cfg(feature = "hydrate")]
fn tab_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok()?
}

/// The text this tab kept under `key`.
pub fn tab_text(key: &str) -> Option<String> {
    #[cfg(feature = "hydrate")]
    {
        tab_storage()?.get_item(key).ok()?
    }
    #[cfg(not(feature = "hydrate"))]
    {
        let _ = key;
        None
    }
}

/// Keeps `text` under `key` in this tab (nothing kept for an empty text).
pub fn keep_tab_text(key: &str, text: &str) {
    #[cfg(feature = "hydrate")]
    if let Some(storage) = tab_storage() {
        let _ = if text.is_empty() {
            storage.remove_item(key)
        } else {
            storage.set_item(key, text)
        };
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (key, text);
}

/// A one-shot callback that either geolocation's success or its error path takes.
#[cfg(feature = "hydrate")]
type Once<T> = std::rc::Rc<std::cell::RefCell<Option<Box<dyn FnOnce(T)>>>>;

/// Asks the phone for one GPS fix; `done` gets the fix or a sentence saying why not.
pub fn locate(done: impl FnOnce(Result<GpsFix, String>) + 'static) {
    #[cfg(feature = "hydrate")]
    {
        use std::cell::RefCell;
        use std::rc::Rc;
        use wasm_bindgen::closure::Closure;
        use wasm_bindgen::JsCast;

        let done: Once<Result<GpsFix, String>> = Rc::new(RefCell::new(Some(Box::new(done))));
        let finish = {
            let done = done.clone();
            move |result| {
                if let Some(f) = done.borrow_mut().take() {
                    f(result);
                }
            }
        };
        let Some(geo) = web_sys::window().and_then(|w| w.navigator().geolocation().ok()) else {
            finish(Err("This phone offers no location.".into()));
            return;
        };
        let ok_finish = finish.clone();
        let ok = Closure::once(move |position: web_sys::Position| {
            let c = position.coords();
            ok_finish(Ok(GpsFix {
                latitude: c.latitude(),
                longitude: c.longitude(),
                accuracy_m: c.accuracy(),
            }));
        });
        let err = Closure::once(move |error: web_sys::PositionError| {
            finish(Err(match error.code() {
                1 => "Location permission was denied — type the address instead.".into(),
                3 => "No fix in time — try again in the open, or type the address.".into(),
                _ => "No location available — type the address instead.".into(),
            }));
        });
        let options = web_sys::PositionOptions::new();
        options.set_enable_high_accuracy(true);
        options.set_timeout(20_000);
        options.set_maximum_age(30_000);
        let _ = geo.get_current_position_with_error_callback_and_options(
            ok.as_ref().unchecked_ref(),
            Some(err.as_ref().unchecked_ref()),
            &options,
        );
        ok.forget();
        err.forget();
    }
    #[cfg(not(feature = "hydrate"))]
    done(Err("Location is only available on the phone.".into()));
}

/// Installs the service worker that keeps the field form usable with no signal.
pub fn register_service_worker() {
    #[cfg(feature = "hydrate")]
    if let Some(window) = web_sys::window() {
        let container = window.navigator().service_worker();
        let _ = container.register("/sw.js");
        // On an officer's page (a signed-in one: the others answer "Sign in to
        // continue"), the worker saves the officer's pages it does not hold yet.
        let path = window.location().pathname().unwrap_or_default();
        if path.starts_with("/field/") {
            use wasm_bindgen::{closure::Closure, JsCast, JsValue};
            let ask = Closure::once(move |registration: JsValue| {
                let registration: web_sys::ServiceWorkerRegistration =
                    registration.unchecked_into();
                if let Some(worker) = registration.active() {
                    let _ = worker.post_message(&JsValue::from_str("keep-pages"));
                }
            });
            if let Ok(ready) = container.ready() {
                let _ = ready.then(&ask);
            }
            ask.forget();
        }
    }
}

/// Drops the pages the service worker kept (they show the signed-in user), of
/// every release (`public/sw.js` names its caches `wells-pages-<release>`);
/// called at sign-out so the next person on this phone does not see them.
pub fn forget_cached_pages() {
    #[cfg(feature = "hydrate")]
    if let Some(caches) = web_sys::window().and_then(|w| w.caches().ok()) {
        use wasm_bindgen::{closure::Closure, JsValue};
        let store = caches.clone();
        let drop_pages = Closure::once(move |names: JsValue| {
            for name in js_sys::Array::from(&names)
                .iter()
                .filter_map(|n| n.as_string())
            {
                if name.starts_with("wells-pages-") {
                    let _ = store.delete(&name);
                }
            }
        });
        let _ = caches.keys().then(&drop_pages);
        drop_pages.forget();
    }
}

/// Asks the browser to keep this site's storage (the drafts and the outbox of
/// reports not yet sent) under storage pressure rather than evict it; called
/// once an officer has signed in. The browser may refuse; nothing depends on it.
pub fn keep_storage() {
    #[cfg(feature = "hydrate")]
    if let Some(window) = web_sys::window() {
        let _ = window.navigator().storage().persist();
    }
}

/// Whether the browser says it has a network.
pub fn online() -> bool {
    #[cfg(feature = "hydrate")]
    {
        web_sys::window().is_none_or(|w| w.navigator().on_line())
    }
    #[cfg(not(feature = "hydrate"))]
    {
        true
    }
}

/// Times and dates as a document printed on this phone words them: in the
/// Town's zone (the number block names it), as `TownZone` words them on the
/// server — `2026-07-04 21:08 EDT` — whatever zone the phone is set to. A
/// summons states Town time (issue #35: a phone set to UTC printed "07:07 UTC"
/// where the court's copy of the same citation printed "02:07 EST").
pub struct TownTime<'a> {
    /// An IANA zone name, e.g. `America/New_York`.
    pub zone: &'a str,
}

/// A moment's civil date and time in a zone: `(year, month, day, hour, minute, abbreviation)`.
type CivilParts = (i32, u32, u32, u32, u32, String);

impl TownTime<'_> {
    #[cfg(feature = "hydrate")]
    fn parts(&self, moment: Moment) -> CivilParts {
        use js_sys::{Array, Intl, Object, Reflect};
        let options = Object::new();
        for (key, value) in [
            ("timeZone", self.zone),
            ("year", "numeric"),
            ("month", "numeric"),
            ("day", "numeric"),
            ("hour", "numeric"),
            ("minute", "numeric"),
            ("hourCycle", "h23"),
            ("timeZoneName", "short"),
        ] {
            let _ = Reflect::set(&options, &key.into(), &value.into());
        }
        let format = Intl::DateTimeFormat::new(&Array::of1(&"en-US".into()), &options);
        let date = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(moment.0 as f64));
        let parts = format.format_to_parts(&date);
        let part = |name: &str| -> String {
            parts
                .iter()
                .find(|p| {
                    Reflect::get(p, &"type".into())
                        .ok()
                        .and_then(|t| t.as_string())
                        .as_deref()
                        == Some(name)
                })
                .and_then(|p| Reflect::get(&p, &"value".into()).ok())
                .and_then(|v| v.as_string())
                .unwrap_or_default()
        };
        let number = |name: &str| part(name).parse().unwrap_or(0);
        (
            part("year").parse().unwrap_or(1970),
            number("month"),
            number("day"),
            number("hour"),
            number("minute"),
            part("timeZoneName"),
        )
    }

    /// The server renders no phone copy; UTC keeps its fallback defined.
    #[cfg(not(feature = "hydrate"))]
    fn parts(&self, moment: Moment) -> CivilParts {
        let day = moment.0.div_euclid(86_400_000);
        let minute = moment.0.rem_euclid(86_400_000) / 60_000;
        let (y, m, d) = crate::model::civil::civil_from_days(day);
        (
            y,
            m,
            d,
            (minute / 60) as u32,
            (minute % 60) as u32,
            "UTC".to_owned(),
        )
    }
}

impl crate::model::wording::TimeWords for TownTime<'_> {
    fn date_time(&self, moment: Moment) -> String {
        let (y, m, d, hour, minute, zone) = self.parts(moment);
        format!("{y:04}-{m:02}-{d:02} {hour:02}:{minute:02} {zone}")
            .trim_end()
            .to_owned()
    }

    fn date_after(&self, moment: Moment, days: u32) -> String {
        let (y, m, d, ..) = self.parts(moment);
        crate::model::civil::date_text(
            crate::model::civil::days_from_civil(y, m, d) + i64::from(days),
        )
    }
}

/// This site's origin as the browser reached it (`https://wells.example`), for
/// a link the reader keeps; empty on the server.
pub fn origin() -> String {
    #[cfg(feature = "hydrate")]
    {
        web_sys::window()
            .and_then(|w| w.location().origin().ok())
            .unwrap_or_default()
    }
    #[cfg(not(feature = "hydrate"))]
    {
        String::new()
    }
}

/// Puts `text` on the clipboard and waits for the browser's answer: true only
/// once the text is there (a refused or missing clipboard is false, so the page
/// never says "copied" when it was not).
pub async fn copy_to_clipboard(text: &str) -> bool {
    #[cfg(feature = "hydrate")]
    {
        use wasm_bindgen::{JsCast, JsValue};
        let Some(window) = web_sys::window() else {
            return false;
        };
        let Some(clipboard) =
            js_sys::Reflect::get(&window.navigator(), &JsValue::from_str("clipboard"))
                .ok()
                .filter(|c| !c.is_undefined() && !c.is_null())
        else {
            return false;
        };
        let Some(write) = js_sys::Reflect::get(&clipboard, &JsValue::from_str("writeText"))
            .ok()
            .and_then(|w| w.dyn_into::<js_sys::Function>().ok())
        else {
            return false;
        };
        let Ok(promise) = write.call1(&clipboard, &JsValue::from_str(text)) else {
            return false;
        };
        let Ok(promise) = promise.dyn_into::<js_sys::Promise>() else {
            return false;
        };
        wasm_bindgen_futures::JsFuture::from(promise).await.is_ok()
    }
    #[cfg(not(feature = "hydrate"))]
    {
        let _ = text;
        false
    }
}

/// Whether the phone has a share sheet for files (Web Share, #35): a desk's
/// browser mostly has none, and then no Share button is shown.
pub fn can_share() -> bool {
    #[cfg(feature = "hydrate")]
    {
        use wasm_bindgen::JsValue;
        web_sys::window()
            .and_then(|w| js_sys::Reflect::get(&w.navigator(), &JsValue::from_str("share")).ok())
            .is_some_and(|share| share.is_function())
    }
    #[cfg(not(feature = "hydrate"))]
    false
}

/// A document ready for the phone's share sheet. It is fetched before the tap:
/// a phone lets a page share only from the tap itself, and Safari refuses a
/// share that first waited on the network.
#[derive(Clone)]
pub struct ShareFile {
    #[cfg(feature = "hydrate")]
    data: js_sys::Object,
}

/// Fetches the document at `url` (this site's) as the file `name`, titled
/// `title`, and checks the phone can share it. `Err` says why in words.
pub async fn share_file(url: &str, name: &str, title: &str) -> Result<ShareFile, String> {
    #[cfg(feature = "hydrate")]
    {
        use wasm_bindgen::{JsCast, JsValue};
        use wasm_bindgen_futures::JsFuture;
        let get =
            |target: &JsValue, key: &str| js_sys::Reflect::get(target, &JsValue::from_str(key));
        let window = web_sys::window().ok_or("no window")?;
        let response: web_sys::Response = JsFuture::from(window.fetch_with_str(url))
            .await
            .map_err(|_| "No signal: the PDF could not be fetched to share.".to_owned())?
            .unchecked_into();
        if !response.ok() {
            return Err(format!(
                "The server did not give the PDF ({}).",
                response.status()
            ));
        }
        let blob = JsFuture::from(response.blob().map_err(|_| "no blob")?)
            .await
            .map_err(|_| "The PDF could not be read.".to_owned())?;
        let options = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&options, &"type".into(), &"application/pdf".into());
        let file_type = get(&window, "File")
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
            .ok_or("This browser cannot share files.")?;
        let file = js_sys::Reflect::construct(
            &file_type,
            &js_sys::Array::of3(&js_sys::Array::of1(&blob), &name.into(), &options),
        )
        .map_err(|_| "This browser cannot share files.".to_owned())?;
        let data = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&data, &"files".into(), &js_sys::Array::of1(&file));
        let _ = js_sys::Reflect::set(&data, &"title".into(), &title.into());
        let navigator = window.navigator();
        let can = get(&navigator, "canShare")
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
            .map(|f| f.call1(&navigator, &data).is_ok_and(|ok| ok.is_truthy()))
            .unwrap_or(true);
        if can {
            Ok(ShareFile { data })
        } else {
            Err("This phone cannot share a PDF: use Print or PDF.".to_owned())
        }
    }
    #[cfg(not(feature = "hydrate"))]
    {
        let _ = (url, name, title);
        Err("Sharing happens in the browser.".to_owned())
    }
}

/// Opens the share sheet with `file` at once (call it from the tap), and
/// answers when the officer has shared or closed it (closing is no error).
pub fn share(file: &ShareFile) -> impl std::future::Future<Output = Result<(), String>> {
    #[cfg(feature = "hydrate")]
    let started: Result<js_sys::Promise, String> = {
        use wasm_bindgen::{JsCast, JsValue};
        web_sys::window()
            .ok_or_else(|| "no window".to_owned())
            .and_then(|window| {
                let navigator = window.navigator();
                js_sys::Reflect::get(&navigator, &JsValue::from_str("share"))
                    .ok()
                    .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
                    .ok_or_else(|| "This phone has no share sheet.".to_owned())?
                    .call1(&navigator, &file.data)
                    .map(|p| p.unchecked_into())
                    .map_err(|_| "The phone refused to share.".to_owned())
            })
    };
    #[cfg(not(feature = "hydrate"))]
    let started: Result<(), String> = {
        let _ = file;
        Err("Sharing happens in the browser.".to_owned())
    };
    async move {
        #[cfg(feature = "hydrate")]
        {
            use wasm_bindgen::JsValue;
            match wasm_bindgen_futures::JsFuture::from(started?).await {
                Ok(_) => Ok(()),
                // The officer closed the share sheet.
                Err(e)
                    if js_sys::Reflect::get(&e, &JsValue::from_str("name"))
                        .ok()
                        .and_then(|n| n.as_string())
                        .as_deref()
                        == Some("AbortError") =>
                {
                    Ok(())
                }
                Err(_) => Err("The phone could not share the PDF.".to_owned()),
            }
        }
        #[cfg(not(feature = "hydrate"))]
        started
    }
}
