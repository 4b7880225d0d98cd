use leptos::prelude::*;
use leptos_meta::Title;
use uuid::Uuid;

use crate::access::Permission;
use crate::api::admin::{
    create_user, list_users, reset_password, reset_second_factor, set_active, set_roles,
    unlock_user,
};
use crate::components::confirm::Confirm;
use crate::components::form::{ErrorSummary, RoleChoices, TextField};
use crate::components::session::{hydrated, Guard};
use crate::components::table::ScrollTable;
use crate::error::AppError;
use crate::model::account::{FactorKind, NewUser, Role, UserSummary};

/// Accounts: create, roles, disable, unlock, reset password or second factor.
#[component]
pub fn UsersPage() -> impl IntoView {
    view! {
        <Title text="Users"/>
        <Guard permission=Permission::ManageUsers>
            <Users/>
        </Guard>
    }
}

#[derive(Clone, Debug)]
enum Change {
    Roles(Uuid, Vec<Role>),
    Active(Uuid, bool),
    Unlock(Uuid),
    Reset(Uuid, String),
    /// A lost phone: every second factor of the account removed.
    ResetSecondFactor(Uuid),
}

/// A saved change: what it did in words, and a reset's temporary password
/// (with the username it belongs to).
#[derive(Clone, Debug)]
struct Saved {
    said: String,
    password: Option<(String, String)>,
}

/// What a change did, said once it is saved.
fn done_text(change: &Change, username: &str) -> String {
    match change {
        Change::Roles(_, roles) if roles.is_empty() => {
            format!("Saved: {username} now has no role.")
        }
        Change::Roles(_, roles) => format!(
            "Saved: {username}'s roles are now {}.",
            roles
                .iter()
                .map(|r| r.label())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Change::Active(_, true) => format!("Saved: {username} is enabled."),
        Change::Active(_, false) => {
            format!("Saved: {username} is disabled; their sessions have ended.")
        }
        Change::Unlock(_) => format!("Saved: {username} is unlocked."),
        Change::Reset(..) => format!("Saved: {username}'s password is reset."),
        Change::ResetSecondFactor(_) => format!(
            "Saved: {username}'s passkeys, authenticator and recovery codes are removed; their \
             sessions have ended and they set up a new second factor at their next sign-in."
        ),
    }
}

#[component]
fn Users() -> impl IntoView {
    // The action answers with what it did in words: its input signal is
    // cleared once it resolves, so the text is made while it is still known.
    let change = Action::new(|(c, username): &(Change, String)| {
        let (c, said) = (c.clone(), done_text(c, username));
        async move {
            let password = match c {
                Change::Roles(id, roles) => set_roles(id, roles).await.map(|_| None),
                Change::Active(id, active) => set_active(id, active).await.map(|_| None),
                Change::Unlock(id) => unlock_user(id).await.map(|_| None),
                Change::ResetSecondFactor(id) => reset_second_factor(id).await.map(|_| None),
                Change::Reset(id, username) => {
                    reset_password(id).await.map(|p| Some((username, p)))
                }
            }?;
            Ok(Saved { said, password })
        }
    });
    let created = RwSignal::new(0u32);
    let users = Resource::new(
        move || (change.version().get(), created.get()),
        |_| list_users(),
    );
    let change_error = Signal::derive(move || change.value().get().and_then(Result::err));
    let done = move || change.value().get().and_then(Result::ok).map(|s| s.said);
    // Found by name, username, badge or role (issue #37, finding 18).
    let query = RwSignal::new(String::new());
    view! {
        <h1>"Users"</h1>
        <NewUserForm created/>
        <ErrorSummary error=change_error/>
        {move || done().map(|text| view! { <p class="notice ok" role="status" data-testid="user-saved">{text}</p> })}
        <div class="field" role="search">
            <label for="user-search">"Find an account"</label>
            <input id="user-search" type="search" aria-describedby="user-search-hint"
                prop:value=move || query.get() on:input=move |ev| query.set(event_target_value(&ev))/>
            <span class="hint" id="user-search-hint">"Part of a name, a username, a badge number or a role."</span>
        </div>
        <Transition fallback=|| view! { <p class="hint">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match users.await {
                    Ok(list) => {
                        // Disabled accounts apart, below those in use.
                        let (in_use, disabled): (Vec<_>, Vec<_>) = list.into_iter().partition(|u| u.active);
                        let all: Vec<UserSummary> = in_use.iter().chain(disabled.iter()).cloned().collect();
                        let found = move || {
                            let q = query.get();
                            all.iter().filter(|u| matches(u, &q)).count()
                        };
                        let total = in_use.len() + disabled.len();
                        view! {
                            <p role="status" data-testid="users-found">{move || match (query.with(|q| q.trim().is_empty()), found()) {
                                (true, _) => format!("{total} accounts."),
                                (false, 0) => "No account matches.".to_owned(),
                                (false, n) => format!("{n} of {total} accounts match."),
                            }}</p>
                            <h2 id="accounts-in-use">"Accounts in use"</h2>
                            <UserTable list=in_use change query label="Accounts in use"/>
                            <h2 id="accounts-disabled">"Disabled accounts"</h2>
                            {if disabled.is_empty() {
                                view! { <p class="hint" data-testid="no-disabled">"None."</p> }.into_any()
                            } else {
                                view! { <UserTable list=disabled change query label="Disabled accounts"/> }.into_any()
                            }}
                        }.into_any()
                    }
                    Err(e) => view! { <p class="notice bad">{e.to_string()}</p> }.into_any(),
                }
            })}
        </Transition>
    }
}

/// Whether an account answers to the search: part of its name, username or
/// badge number, or a role's name (any case).
fn matches(u: &UserSummary, query: &str) -> bool {
    let q = query.trim().to_lowercase();
    q.is_empty()
        || u.full_name.to_lowercase().contains(&q)
        || u.username.to_lowercase().contains(&q)
        || u.badge_number
            .as_deref()
            .is_some_and(|b| b.to_lowercase().contains(&q))
        || u.roles
            .iter()
            .any(|r| r.label().to_lowercase().contains(&q) || r.code().contains(&q))
}

#[component]
fn UserTable(
    list: Vec<UserSummary>,
    change: Action<(Change, String), Result<Saved, AppError>>,
    /// The search: rows that do not answer to it are hidden, not removed (a
    /// row's ticked roles survive a search).
    query: RwSignal<String>,
    label: &'static str,
) -> impl IntoView {
    let ready = hydrated();
    view! {
        <ScrollTable label=label.to_owned()>
            <table>
                <caption class="hint">{format!("{} accounts", list.len())}</caption>
                <thead><tr>
                    <th scope="col">"User"</th>
                    <th scope="col">"Roles"</th>
                    <th scope="col">"State"</th>
                    <th scope="col">"Actions"</th>
                </tr></thead>
                <tbody>
                    {list.into_iter().map(|u| {
                        let id = u.user_id;
                        let username = u.username.clone();
                        let held = u.roles.clone();
                        let state = match (u.active, u.locked) {
                            (false, _) => view! { <span class="badge bad">"Disabled"</span> }.into_any(),
                            (true, true) => view! { <span class="badge warn">"Locked"</span> }.into_any(),
                            (true, false) => view! { <span class="badge ok">"Active"</span> }.into_any(),
                        };
                        // Ticks change a draft; "Save roles" asks, then saves. A
                        // refused save reloads the list, and the boxes with it.
                        let draft = RwSignal::new(held.clone());
                        let roles = Role::ALL.into_iter().map(|role| {
                            let label = format!("{} for {}", role.label(), u.username);
                            view! {
                                <label class="inline-check">
                                    <input type="checkbox" aria-label=label
                                        prop:checked=move || draft.with(|d| d.contains(&role))
                                        disabled=move || !ready.get()
                                        on:change=move |_| draft.update(|d| {
                                            if d.contains(&role) { d.retain(|r| *r != role) } else { d.push(role) }
                                        })/>
                                    {role.label()}
                                </label>
                            }
                        }).collect_view();
                        let roles_question = {
                            let (username, held) = (username.clone(), held.clone());
                            Signal::derive(move || {
                                let now = draft.get();
                                let added: Vec<&str> = now.iter().filter(|r| !held.contains(r)).map(|r| r.label()).collect();
                                let removed: Vec<&str> = held.iter().filter(|r| !now.contains(r)).map(|r| r.label()).collect();
                                let mut parts = Vec::new();
                                if !added.is_empty() { parts.push(format!("gives {}", added.join(", "))); }
                                if !removed.is_empty() { parts.push(format!("takes away {}", removed.join(", "))); }
                                format!("Save {username}'s roles? This {}; it applies at their next request.", parts.join(" and "))
                            })
                        };
                        let unchanged = {
                            let held = held.clone();
                            Signal::derive(move || {
                                !ready.get() || draft.with(|d| {
                                    d.len() == held.len() && d.iter().all(|r| held.contains(r))
                                })
                            })
                        };
                        let active = u.active;
                        let name_for = username.clone();
                        let disable_question = Signal::derive(move || if active {
                            format!("Disable {name_for}? They cannot sign in, and their sessions end at their next request.")
                        } else {
                            format!("Enable {name_for}? They can sign in again.")
                        });
                        let name_for = username.clone();
                        let reset_question = Signal::derive(move || format!(
                            "Reset {name_for}'s password? The old one stops working; you get a temporary one to give them in person."
                        ));
                        let name_for = username.clone();
                        let factor_question = Signal::derive(move || format!(
                            "Reset {name_for}'s second factor? Their passkeys, authenticator app and recovery codes stop working and their sessions end; they set up a new one at next sign-in. Do this only after checking it is really them (a lost or replaced phone)."
                        ));
                        let factors = if u.second_factors.is_empty() {
                            "no second factor".to_owned()
                        } else {
                            u.second_factors.iter().map(|f| match f {
                                FactorKind::Passkey => "passkey",
                                FactorKind::Totp => "authenticator app",
                                FactorKind::RecoveryCode => "recovery codes",
                            }).collect::<Vec<_>>().join(" + ")
                        };
                        let has_factor = !u.second_factors.is_empty();
                        let hidden = {
                            let u = u.clone();
                            move || query.with(|q| !matches(&u, q))
                        };
                        let (u1, u2, u3, u4) = (username.clone(), username.clone(), username.clone(), username.clone());
                        let u5 = username.clone();
                        view! {
                            <tr data-testid=format!("user-{}", u.username) hidden=hidden>
                                <td>
                                    <strong>{u.full_name.clone()}</strong><br/>
                                    {u.username.clone()}
                                    {u.badge_number.clone().map(|b| format!(" · badge {b}"))}
                                </td>
                                <td>{roles}
                                    <Confirm label="Save roles" yes="Yes, save" testid="save-roles"
                                        class="secondary" disabled=unchanged question=roles_question
                                        on_confirm=Callback::new(move |()| {
                                            change.dispatch((Change::Roles(id, draft.get_untracked()), u1.clone()));
                                        })/>
                                </td>
                                <td>{state}{u.must_change_password.then_some(" (must change password)")}
                                    <br/><span class="hint">{factors}</span></td>
                                <td class="row-actions">
                                    {u.locked.then(|| view! {
                                        <button type="button" class="secondary" disabled=move || !ready.get()
                                            on:click=move |_| { change.dispatch((Change::Unlock(id), u2.clone())); }>"Unlock"</button>
                                    })}
                                    <Confirm label=if active { "Disable" } else { "Enable" }
                                        yes=if active { "Yes, disable" } else { "Yes, enable" }
                                        testid="toggle-active" class="secondary"
                                        disabled=Signal::derive(move || !ready.get()) question=disable_question
                                        on_confirm=Callback::new(move |()| {
                                            change.dispatch((Change::Active(id, !active), u3.clone()));
                                        })/>
                                    <Confirm label="Reset password" yes="Yes, reset it" testid="reset-password" class="secondary"
                                        disabled=Signal::derive(move || !ready.get()) question=reset_question
                                        on_confirm=Callback::new(move |()| {
                                            change.dispatch((Change::Reset(id, u4.clone()), u4.clone()));
                                        })/>
                                    // The temporary password, in the row that was reset
                                    // (issue #37, finding 13: it was a banner far above).
                                    {let shown_for = username.clone(); move || change.value().get()
                                        .and_then(Result::ok)
                                        .and_then(|s| s.password)
                                        .filter(|(name, _)| *name == shown_for)
                                        .map(|(username, password)| view! {
                                            <div class="notice warn" role="status" data-testid="temporary-password">
                                                "Temporary password for " <strong>{username}</strong> ": "
                                                <code>{password}</code>
                                                " — give it to the user in person; they must change it when they sign in. It is not shown again."
                                            </div>
                                        })}
                                    {has_factor.then(|| view! {
                                        <Confirm label="Reset second factor" yes="Yes, reset the second factor" testid="reset-second-factor"
                                            class="secondary" disabled=Signal::derive(move || !ready.get()) question=factor_question
                                            on_confirm=Callback::new(move |()| {
                                                change.dispatch((Change::ResetSecondFactor(id), u5.clone()));
                                            })/>
                                    })}
                                </td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </ScrollTable>
    }
}

#[component]
fn NewUserForm(created: RwSignal<u32>) -> impl IntoView {
    let username = RwSignal::new(String::new());
    let full_name = RwSignal::new(String::new());
    let badge = RwSignal::new(String::new());
    let password = RwSignal::new(String::new());
    let roles = RwSignal::new(vec![Role::Officer]);
    let ready = hydrated();
    let create = Action::new(move |_: &()| {
        let badge = badge.get_untracked();
        let user = NewUser {
            username: username.get_untracked(),
            full_name: full_name.get_untracked(),
            badge_number: (!badge.trim().is_empty()).then_some(badge),
            roles: roles.get_untracked(),
            password: password.get_untracked(),
        };
        async move { create_user(user).await }
    });
    Effect::new(move |_| {
        if let Some(Ok(_)) = create.value().get() {
            username.set(String::new());
            full_name.set(String::new());
            badge.set(String::new());
            password.set(String::new());
            created.update(|n| *n += 1);
        }
    });
    let error = Signal::derive(move || create.value().get().and_then(Result::err));
    view! {
        <section class="panel">
            <h2>"New account"</h2>
            <ErrorSummary error/>
            {move || create.value().get().and_then(Result::ok).map(|u| view! {
                <div class="notice ok" role="status">"Created " {u.username} "."</div>
            })}
            <form method="post" on:submit=move |ev: leptos::ev::SubmitEvent| {
                ev.prevent_default();
                create.dispatch(());
            }>
                <div class="grid-2">
                    <TextField name="username" label="Username" value=username error required=true autocomplete="off"/>
                    <TextField name="full_name" label="Full name" value=full_name error required=true autocomplete="off"/>
                    <TextField name="badge_number" label="Badge number" value=badge error hint="Required for officers"/>
                    <TextField name="password" label="Initial password" value=password error kind="password"
                        autocomplete="new-password" required=true hint="At least 12 characters"/>
                </div>
                <fieldset>
                    <legend>"Roles"</legend>
                    <div class="choices">
                        <RoleChoices name="roles" roles/>
                    </div>
                    {move || error.get().and_then(|e| e.for_field("roles").map(str::to_owned))
                        .map(|m| view! { <p class="error-text">{m}</p> })}
                </fieldset>
                <div class="actions">
                    <button type="submit" disabled=move || !ready.get() || create.pending().get()>"Create account"</button>
                </div>
            </form>
        </section>
    }
}
