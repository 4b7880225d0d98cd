//! The browser's half of a passkey ceremony: the server's options (JSON) in,
//! the signed credential (JSON) out. The options are parsed by the browser's own
//! `PublicKeyCredential.parse…FromJSON`, and the answer serialised by its
//! `toJSON()`, so no WebAuthn encoding is re-implemented here.

/// Registers a new passkey (`navigator.credentials.create`).
pub async fn create(options_json: String) -> Result<String, String> {
    ceremony(&options_json, "parseCreationOptionsFromJSON", "create").await
}

/// Signs the server's challenge with a passkey (`navigator.credentials.get`).
pub async fn get(options_json: String) -> Result<String, String> {
    ceremony(&options_json, "parseRequestOptionsFromJSON", "get").await
}

#[cfg(feature = "hydrate")]
async fn ceremony(options_json: &str, parse: &str, method: &str) -> Result<String, String> {
    use js_sys::{Function, Object, Promise, Reflect, JSON};
    use wasm_bindgen::{JsCast, JsValue};

    const UNSUPPORTED: &str =
        "This browser cannot use passkeys here. Update it, or use an authenticator code.";
    let get = |target: &JsValue, name: &str| Reflect::get(target, &JsValue::from_str(name));
    let function = |target: &JsValue, name: &str| -> Result<Function, String> {
        get(target, name)
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok())
            .ok_or_else(|| UNSUPPORTED.to_owned())
    };
    let window: JsValue = web_sys::window().ok_or(UNSUPPORTED)?.into();
    let class = get(&window, "PublicKeyCredential").map_err(|_| UNSUPPORTED)?;
    let parse = function(&class, parse)?;
    let options =
        JSON::parse(options_json).map_err(|_| "The server's passkey request is malformed.")?;
    let public_key = get(&options, "publicKey").map_err(|_| UNSUPPORTED)?;
    let parsed = parse
        .call1(&class, &public_key)
        .map_err(|_| "The server's passkey request is malformed.")?;
    let argument = Object::new();
    Reflect::set(&argument, &JsValue::from_str("publicKey"), &parsed).map_err(|_| UNSUPPORTED)?;
    let credentials = get(&window, "navigator")
        .and_then(|n| get(&n, "credentials"))
        .map_err(|_| UNSUPPORTED)?;
    let promise: Promise = function(&credentials, method)?
        .call1(&credentials, &argument)
        .ok()
        .and_then(|p| p.dyn_into().ok())
        .ok_or(UNSUPPORTED)?;
    let credential = wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map_err(|error| {
            let name = get(&error, "name").ok().and_then(|n| n.as_string());
            match name.as_deref() {
                Some("NotAllowedError") => {
                    "The passkey request was cancelled or timed out. Try again.".to_owned()
                }
                Some("InvalidStateError") => {
                    "This device already holds a passkey for your account.".to_owned()
                }
                _ => {
                    "The passkey did not work on this device. Try again, or use a code.".to_owned()
                }
            }
        })?;
    let json = function(&credential, "toJSON")?
        .call0(&credential)
        .map_err(|_| UNSUPPORTED)?;
    JSON::stringify(&json)
        .map(String::from)
        .map_err(|_| UNSUPPORTED.to_owned())
}

#[cfg(not(feature = "hydrate"))]
async fn ceremony(_options_json: &str, _parse: &str, _method: &str) -> Result<String, String> {
    Err("Passkeys need the page to have finished loading.".to_owned())
}
