//! One's own second factors (issue #18): passkeys, the authenticator app and
//! recovery codes. Where the sign-in policy sends an account that has none.

use leptos::prelude::*;
use leptos_meta::Title;

use crate::access::Permission;
use crate::api::second_factor::{
    my_second_factors, new_recovery_codes, passkey_begin, passkey_finish, passkey_remove,
    totp_begin, totp_confirm, totp_remove,
};
use crate::components::form::{focus_input, ErrorSummary, TextField};
use crate::components::session::{hydrated, signed_in, Guard};
use crate::error::AppError;
use crate::model::account::{Enrolled, SecondFactors, TotpEnrolment};

#[component]
pub fn SecurityPage() -> impl IntoView {
    view! {
        <Title text="Sign-in security"/>
        <Guard permission=Permission::OwnAccount>
            <Security/>
        </Guard>
    }
}

#[component]
fn Security() -> impl IntoView {
    let status = Resource::new(|| (), |_| my_second_factors());
    // Recovery codes to show once (after the first factor, or new ones).
    let codes = RwSignal::new(None::<Vec<String>>);
    let changed = move |enrolled: Option<Vec<String>>| {
        if enrolled.is_some() {
            codes.set(enrolled);
        }
        status.refetch();
    };
    let needs = signed_in().is_some_and(|m| m.needs_second_factor);
    view! {
        <section class="panel narrow">
            <h1>"Sign-in security"</h1>
            <RecoveryCodes codes/>
            <Suspense fallback=|| view! { <p class="hint">"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match status.await {
                        Ok(s) => view! {
                            // The policy's banner, while the account has no factor
                            // (#35: it stayed after one was set up here).
                            {(needs && !s.totp && s.passkeys.is_empty()).then(|| view! {
                                <div class="notice warn" role="status">
                                    "The department's sign-in policy requires a second factor (CJIS IA-2). Set one up "
                                    "below to continue: a passkey (your phone's fingerprint or face unlock) or an "
                                    "authenticator app."
                                </div>
                            })}
                            <Factors status=s changed=Callback::new(changed)/>
                        }.into_any(),
                        Err(e) => view! { <p role="alert">{e.to_string()}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </section>
    }
}

/// The ten codes, shown once with the one instruction that matters, to print
/// (the page prints the codes alone: `body:has(#recovery-codes)` in the style) or copy (issue
/// #37, finding 18). Where the browser offers no clipboard, the codes are put
/// in a selected box to copy by hand.
#[component]
fn RecoveryCodes(codes: RwSignal<Option<Vec<String>>>) -> impl IntoView {
    let ready = hydrated();
    // None: not tried; Some(true): copied; Some(false): no clipboard here.
    let copied = RwSignal::new(None::<bool>);
    let copy = Action::new_local(move |text: &String| {
        let text = text.clone();
        async move { copied.set(Some(crate::client::copy_to_clipboard(&text).await)) }
    });
    let print = move |_| {
        #[cfg(feature = "hydrate")]
        let _ = window().print();
    };
    move || {
        codes.get().map(|list| {
            let text = list.join("\n");
            let by_hand = text.clone();
            view! {
                <div class="notice ok" role="status" id="recovery-codes">
                    <h2>"Your recovery codes"</h2>
                    <p class="no-print">"Write these down or print them, and keep them away from your phone. Each "
                       "signs in once if the phone is lost. They are not shown again."</p>
                    <ol class="codes">
                        {list.into_iter().map(|c| view! { <li><code>{c}</code></li> }).collect_view()}
                    </ol>
                    <div class="actions no-print">
                        <button type="button" class="secondary" disabled=move || !ready.get() on:click=print>
                            "Print the codes"</button>
                        <button type="button" class="secondary" disabled=move || !ready.get() || copy.pending().get()
                            on:click=move |_| { copy.dispatch(text.clone()); }>
                            "Copy the codes"</button>
                    </div>
                    {move || copied.get().map(|done| if done {
                        view! { <p class="no-print" role="status" data-testid="codes-copied">
                            "Copied: the 10 codes are on the clipboard. Paste them somewhere safe, away from your phone."</p> }.into_any()
                    } else {
                        let by_hand = by_hand.clone();
                        view! {
                            <div class="field no-print" data-testid="codes-copy-by-hand">
                                <label for="codes-text">"This browser does not let the page copy. Select the codes here and copy them yourself:"</label>
                                <textarea id="codes-text" readonly rows="10" prop:value=by_hand
                                    on:focus=move |ev| select_all(&ev)></textarea>
                            </div>
                        }.into_any()
                    })}
                    <a class="no-print" href="/" rel="external">"Continue"</a>
                </div>
            }
        })
    }
}

/// Selects the whole text of the focused box (copying by hand).
fn select_all(ev: &leptos::ev::FocusEvent) {
    #[cfg(feature = "hydrate")]
    {
        use leptos::wasm_bindgen::JsCast;
        if let Some(area) = ev
            .target()
            .and_then(|t| t.dyn_into::<leptos::web_sys::HtmlTextAreaElement>().ok())
        {
            area.select();
        }
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = ev;
}

/// The day (UTC, so the server's page and the browser's agree).
fn date(m: crate::ordinance::Moment) -> String {
    crate::model::civil::date_text(m.0.div_euclid(86_400_000))
}

#[component]
fn Factors(status: SecondFactors, changed: Callback<Option<Vec<String>>>) -> impl IntoView {
    let ready = hydrated();
    let remove_passkey = Action::new(move |id: &String| {
        let id = id.clone();
        async move { passkey_remove(id).await }
    });
    let remove_totp = Action::new(move |_: &()| async move { totp_remove().await });
    let regenerate = Action::new(move |_: &()| async move { new_recovery_codes().await });
    Effect::new(move |_| {
        if let Some(Ok(())) = remove_passkey.value().get() {
            changed.run(None);
        }
    });
    Effect::new(move |_| {
        if let Some(Ok(())) = remove_totp.value().get() {
            changed.run(None);
        }
    });
    Effect::new(move |_| {
        if let Some(Ok(new)) = regenerate.value().get() {
            changed.run(Some(new));
        }
    });
    let error = Signal::derive(move || {
        remove_passkey
            .value()
            .get()
            .and_then(Result::err)
            .or_else(|| remove_totp.value().get().and_then(Result::err))
            .or_else(|| regenerate.value().get().and_then(Result::err))
    });
    let any = status.totp || !status.passkeys.is_empty();
    let passkey_note = status.passkey_required.then(|| {
        view! { <p class="notice warn">"Your role must sign in with a passkey: an authenticator app alone is not enough."</p> }
    });
    let passkeys = status.passkeys.clone();
    view! {
        <ErrorSummary error/>
        <h2>"Passkeys"</h2>
        {passkey_note}
        {if passkeys.is_empty() {
            view! { <p>"No passkey yet."</p> }.into_any()
        } else {
            view! {
                <ul class="factor-list">
                    {passkeys.into_iter().map(|p| {
                        let id = p.credential_id.clone();
                        let used = p.last_used_at.map(|m| format!(", last used {}", date(m))).unwrap_or_default();
                        let label = format!("Remove passkey {}", p.name);
                        view! {
                            <li>
                                <span>{p.name.clone()}" — added "{date(p.created_at)}{used}</span>
                                <button type="button" class="secondary" aria-label=label
                                    disabled=move || !ready.get()
                                    on:click=move |_| { remove_passkey.dispatch(id.clone()); }>
                                    "Remove"
                                </button>
                            </li>
                        }
                    }).collect_view()}
                </ul>
            }.into_any()
        }}
        {match status.passkeys_unavailable.clone() {
            Some(reason) => view! { <p class="hint">{reason}</p> }.into_any(),
            None => view! { <AddPasskey changed/> }.into_any(),
        }}
        <h2>"Authenticator app"</h2>
        {if status.totp {
            view! {
                <p>"An authenticator app is set up."</p>
                <div class="actions">
                    <button type="button" class="secondary" disabled=move || !ready.get()
                        on:click=move |_| { remove_totp.dispatch(()); }>
                        "Remove the authenticator app"
                    </button>
                </div>
            }.into_any()
        } else {
            view! { <AddAuthenticator changed/> }.into_any()
        }}
        {any.then(|| view! {
            <h2>"Recovery codes"</h2>
            <p>{format!("{} of 10 unused.", status.recovery_codes_left)}</p>
            <div class="actions">
                <button type="button" class="secondary" disabled=move || !ready.get() || regenerate.pending().get()
                    on:click=move |_| { regenerate.dispatch(()); }>
                    "Make new recovery codes"
                </button>
            </div>
        })}
    }
}

#[component]
fn AddPasskey(changed: Callback<Option<Vec<String>>>) -> impl IntoView {
    let ready = hydrated();
    let name = RwSignal::new(String::from("work phone"));
    // Local: the browser's WebAuthn promise is not `Send`.
    let add = Action::new_local(move |n: &String| {
        let n = n.clone();
        async move {
            let options = passkey_begin(n).await?;
            let credential = crate::components::passkey::create(options)
                .await
                .map_err(AppError::conflict)?;
            passkey_finish(credential).await
        }
    });
    Effect::new(move |_| {
        if let Some(Ok(Enrolled { recovery_codes })) = add.value().get() {
            changed.run(recovery_codes);
        }
    });
    let error = Signal::derive(move || add.value().get().and_then(Result::err));
    view! {
        <form method="post" on:submit=move |ev: leptos::ev::SubmitEvent| {
            ev.prevent_default();
            add.dispatch(name.get_untracked());
        }>
            <ErrorSummary error/>
            <TextField name="name" label="Passkey name" value=name error required=true
                hint="So you can tell your passkeys apart, e.g. \"work phone\"."/>
            <div class="actions">
                <button type="submit" disabled=move || !ready.get() || add.pending().get()>
                    "Add a passkey"
                </button>
            </div>
        </form>
    }
}

/// The key in groups of four, as authenticator apps print theirs: 32 letters in
/// one run are hard to type without losing one's place.
fn grouped(secret: &str) -> String {
    secret
        .as_bytes()
        .chunks(4)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Three ways to give the app its key (#35): on this very phone, a link the app
/// opens (`otpauth://`) — the QR code is for an app on another device, and a
/// phone cannot scan its own screen; the key to copy; the key to type, grouped.
#[component]
fn Enrolment(secret: String, uri: String, qr_svg: String) -> impl IntoView {
    let copied = RwSignal::new(None::<bool>);
    let copy = Action::new_local(move |text: &String| {
        let text = text.clone();
        async move { copied.set(Some(crate::client::copy_to_clipboard(&text).await)) }
    });
    let to_copy = secret.clone();
    // The code comes next: the keyboard is open for it once the key is in the app.
    focus_input("code");
    view! {
        <p>"Give your authenticator app this account's key, one of three ways:"</p>
        <ol class="enrol">
            <li>
                "On this phone: "
                <a class="button" href=uri rel="external" data-testid="otpauth-link">"Add to the authenticator app"</a>
            </li>
            <li>
                "With the app on another device, scan this code:"
                <div class="qr" role="img" aria-label="QR code for the authenticator app" inner_html=qr_svg></div>
            </li>
            <li>
                "Or copy or type the key: "
                <code id="totp-secret">{grouped(&secret)}</code>" "
                <button type="button" class="secondary" data-testid="copy-key"
                    on:click=move |_| { copy.dispatch(to_copy.clone()); }>
                    "Copy the key"
                </button>
                <span role="status">{move || copied.get().map(|ok| if ok {
                    "Key copied: paste it into the app."
                } else {
                    "This browser cannot copy: type the key, four letters at a time."
                })}</span>
            </li>
        </ol>
    }
}

#[component]
fn AddAuthenticator(changed: Callback<Option<Vec<String>>>) -> impl IntoView {
    let ready = hydrated();
    let begin = Action::new(move |_: &()| async move { totp_begin().await });
    let code = RwSignal::new(String::new());
    let confirm = Action::new(move |c: &String| {
        let c = c.clone();
        async move { totp_confirm(c).await }
    });
    Effect::new(move |_| {
        if let Some(Ok(Enrolled { recovery_codes })) = confirm.value().get() {
            changed.run(recovery_codes);
        }
    });
    let error = Signal::derive(move || {
        confirm
            .value()
            .get()
            .and_then(Result::err)
            .or_else(|| begin.value().get().and_then(Result::err))
    });
    let enrolment = move || begin.value().get().and_then(Result::ok);
    view! {
        <ErrorSummary error/>
        {move || match enrolment() {
            None => view! {
                <div class="actions">
                    <button type="button" disabled=move || !ready.get() || begin.pending().get()
                        on:click=move |_| { begin.dispatch(()); }>
                        "Set up an authenticator app"
                    </button>
                </div>
            }.into_any(),
            Some(TotpEnrolment { secret, uri, qr_svg }) => view! {
                <Enrolment secret uri qr_svg/>
                <form method="post" on:submit=move |ev: leptos::ev::SubmitEvent| {
                    ev.prevent_default();
                    confirm.dispatch(code.get_untracked());
                }>
                    <TextField name="code" label="The 6-digit code the app shows" value=code error
                        autocomplete="one-time-code" inputmode="numeric" required=true/>
                    <div class="actions">
                        <button type="submit" disabled=move || !ready.get() || confirm.pending().get()>
                            "Confirm"
                        </button>
                    </div>
                </form>
            }.into_any(),
        }}
    }
}
