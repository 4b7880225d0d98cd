//! What the phone keeps for the officer — drafts, reports waiting to be sent,
//! the block of citation numbers — in the browser's IndexedDB (issue #17).
//!
//! localStorage held it before: about 5 MB for the whole site, written
//! synchronously on the page's one thread, and the first thing a browser
//! clears. IndexedDB takes far more, writes off the main thread, and reports
//! when a write is on disk (the transaction's `complete`), which is when the
//! app tells the officer a report is saved on the phone. Values are JSON text
//! under a key; one database, one object store.
//!
//! On the server (and in tests) every call is a no-op that finds nothing.

#[cfg(feature = "hydrate")]
mod browser {
    use std::cell::RefCell;

    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    use web_sys::{IdbDatabase, IdbRequest, IdbTransaction, IdbTransactionMode};

    const DATABASE: &str = "wells";
    const STORE: &str = "kv";

    thread_local! {
        static OPEN: RefCell<Option<IdbDatabase>> = const { RefCell::new(None) };
    }

    /// Waits for a request's `success` (its result) or `error`.
    async fn done(request: &IdbRequest) -> Result<JsValue, JsValue> {
        let promise = js_sys::Promise::new(&mut |resolve, reject| {
            let ok = request.clone();
            let success = Closure::once_into_js(move || {
                let _ = resolve.call1(&JsValue::NULL, &ok.result().unwrap_or(JsValue::UNDEFINED));
            });
            let failure = Closure::once_into_js(move || {
                let _ = reject.call0(&JsValue::NULL);
            });
            request.set_onsuccess(Some(success.unchecked_ref()));
            request.set_onerror(Some(failure.unchecked_ref()));
        });
        JsFuture::from(promise).await
    }

    /// Waits until a write transaction is committed (`complete`).
    async fn committed(tx: &IdbTransaction) -> Result<(), JsValue> {
        let promise = js_sys::Promise::new(&mut |resolve, reject| {
            let complete = Closure::once_into_js(move || {
                let _ = resolve.call0(&JsValue::NULL);
            });
            let reject_too = reject.clone();
            let failed = Closure::once_into_js(move || {
                let _ = reject.call0(&JsValue::NULL);
            });
            let aborted = Closure::once_into_js(move || {
                let _ = reject_too.call0(&JsValue::NULL);
            });
            tx.set_oncomplete(Some(complete.unchecked_ref()));
            tx.set_onerror(Some(failed.unchecked_ref()));
            tx.set_onabort(Some(aborted.unchecked_ref()));
        });
        JsFuture::from(promise).await.map(|_| ())
    }

    async fn database() -> Result<IdbDatabase, JsValue> {
        if let Some(db) = OPEN.with(|o| o.borrow().clone()) {
            return Ok(db);
        }
        let factory = web_sys::window()
            .ok_or(JsValue::NULL)?
            .indexed_db()?
            .ok_or(JsValue::NULL)?;
        let request = factory.open_with_u32(DATABASE, 1)?;
        let upgrading = request.clone();
        let upgrade = Closure::once_into_js(move || {
            if let Ok(db) = upgrading.result() {
                let db: IdbDatabase = db.unchecked_into();
                if !db.object_store_names().contains(STORE) {
                    let _ = db.create_object_store(STORE);
                }
            }
        });
        request.set_onupgradeneeded(Some(upgrade.unchecked_ref()));
        let db: IdbDatabase = done(&request).await?.unchecked_into();
        OPEN.with(|o| *o.borrow_mut() = Some(db.clone()));
        Ok(db)
    }

    pub async fn get(key: &str) -> Result<Option<String>, JsValue> {
        let db = database().await?;
        let tx = db.transaction_with_str(STORE)?;
        let request = tx.object_store(STORE)?.get(&JsValue::from_str(key))?;
        Ok(done(&request).await?.as_string())
    }

    pub async fn put(key: &str, value: &str) -> Result<(), JsValue> {
        let db = database().await?;
        let tx = db.transaction_with_str_and_mode(STORE, IdbTransactionMode::Readwrite)?;
        tx.object_store(STORE)?
            .put_with_key(&JsValue::from_str(value), &JsValue::from_str(key))?;
        committed(&tx).await
    }

    pub async fn delete(key: &str) -> Result<(), JsValue> {
        let db = database().await?;
        let tx = db.transaction_with_str_and_mode(STORE, IdbTransactionMode::Readwrite)?;
        tx.object_store(STORE)?.delete(&JsValue::from_str(key))?;
        committed(&tx).await
    }
}

/// The text saved under `key`; `None` when there is none or the browser
/// refuses IndexedDB (a private window may).
pub async fn get(key: &str) -> Option<String> {
    #[cfg(feature = "hydrate")]
    {
        browser::get(key).await.ok().flatten()
    }
    #[cfg(not(feature = "hydrate"))]
    {
        let _ = key;
        None
    }
}

/// Saves `value` under `key`; true once it is committed to the phone's disk.
pub async fn put(key: &str, value: &impl serde::Serialize) -> bool {
    let Ok(text) = serde_json::to_string(value) else {
        return false;
    };
    #[cfg(feature = "hydrate")]
    {
        browser::put(key, &text).await.is_ok()
    }
    #[cfg(not(feature = "hydrate"))]
    {
        let _ = (key, text);
        false
    }
}

pub async fn delete(key: &str) {
    #[cfg(feature = "hydrate")]
    {
        let _ = browser::delete(key).await;
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = key;
}

/// The value under `key` in IndexedDB or, the first time, the one an earlier
/// version of the app left in localStorage under `old_key`: copied over, and
/// removed from localStorage only once the copy is on disk, so a report queued
/// before the update is never lost between the two.
pub async fn get_or_move(key: &str, old_key: &str) -> Option<String> {
    if let Some(text) = get(key).await {
        return Some(text);
    }
    let old = crate::client::load_text(old_key)?;
    #[cfg(feature = "hydrate")]
    if browser::put(key, &old).await.is_ok() {
        crate::client::remove(old_key);
    }
    Some(old)
}

/// Where the phone keeps a photo's JPEG (as a `data:` URL) until it is sent.
pub fn photo_key(photo_id: uuid::Uuid) -> String {
    format!("wells-photo-{photo_id}")
}
