//! The class's pieces of the page: the rail's box (start a class, or the one this page leads
//! or follows), the join code shown large, and a student's banner.

use super::{Class, Link, Role};
use leptos::prelude::*;

/// The class in the rail: start one, or the one this page leads or follows.
#[component]
pub fn ClassControls() -> impl IntoView {
    let class = expect_context::<Class>();
    let ask = move |_| {
        leptos::task::spawn_local(async move {
            class.ask().await;
        })
    };
    move || match (class.served.get(), class.role.get()) {
        (None, _) if !class.asked.get() => view! {
            <div class="class-box">
                <button id="class-open" on:click=ask>
                    {tr!("class-hold")}
                </button>
            </div>
        }
        .into_any(),
        (None, _) => {
            // The command sits where the language puts it: the message is cut at its place.
            let text = tr!("class-none", command = "\u{0}");
            let (before, after) = text.split_once('\u{0}').unwrap_or((text.as_str(), ""));
            let (before, after) = (before.to_string(), after.to_string());
            view! {
                <p class="class-box class-none" id="class-none">
                    {before}
                    <code>"attnscope classroom --lan"</code>
                    {after}
                </p>
            }
            .into_any()
        }
        (Some(_), Role::None) => view! {
            <div class="class-box">
                <button id="class-start" on:click=move |_| class.start()>
                    {tr!("class-start")}
                </button>
            </div>
        }
        .into_any(),
        (Some(_), Role::Teacher { code }) => view! {
            <div class="class-box" id="class-teacher">
                <p>
                    {tr!("class-name")} " "
                    <strong id="class-code">{code.unwrap_or_else(|| "…".into())}</strong> " · "
                    <span id="class-followers">{move || followers(class.followers.get())}</span>
                    {move || link_note(class.link.get())}
                </p>
                <button id="class-show" on:click=move |_| class.show_code.set(true)>
                    {tr!("class-show-code")}
                </button>
                <button id="class-end" on:click=move |_| class.end()>
                    {tr!("class-end")}
                </button>
                <super::questions::AskRoom />
            </div>
        }
        .into_any(),
        (Some(_), Role::Student { code }) => {
            view! { <p class="class-box">{tr!("class-name")} " " <strong>{code}</strong></p> }
                .into_any()
        }
    }
}

fn followers(n: usize) -> String {
    tr!("class-followers", count = n)
}

fn link_note(link: Link) -> Option<String> {
    match link {
        Link::Connecting => Some(format!(" · {}", tr!("class-connecting"))),
        Link::Lost => Some(format!(" · {}", tr!("class-connection-lost"))),
        Link::Refused(reason) => Some(format!(" · {}", tr!("class-link-refused", reason = reason))),
        Link::Open | Link::Closed | Link::Waiting => None,
    }
}

/// The join code large, over the page, for the room to scan from the projector.
#[component]
pub fn JoinCode() -> impl IntoView {
    let class = expect_context::<Class>();
    move || {
        let (Some(url), Role::Teacher { code: Some(code) }) =
            (class.served.get(), class.role.get())
        else {
            return None;
        };
        class.show_code.get().then(|| {
            let link = format!("{url}?class={code}");
            let qr = format!("classroom/qr.svg?code={code}");
            let spaced = format!("{}-{}", &code[..5], &code[5..]);
            view! {
                <div
                    class="join-code"
                    id="join-code"
                    role="dialog"
                    aria-label=tr!("class-join-label")
                >
                    <img src=qr alt=tr!("class-qr-alt") width="320" height="320" />
                    <p class="join-link">{link}</p>
                    <p class="join-spaced">{tr!("class-code")} " " <strong>{spaced}</strong></p>
                    <p>{move || followers(class.followers.get())}</p>
                    <button id="join-close" on:click=move |_| class.show_code.set(false)>
                        {tr!("class-close")}
                    </button>
                </div>
            }
        })
    }
}

/// A student's page: whom it follows, and the way out and back.
#[component]
pub fn FollowBanner() -> impl IntoView {
    let class = expect_context::<Class>();
    move || {
        let Role::Student { .. } = class.role.get() else { return None };
        let status = match class.link.get() {
            Link::Waiting => tr!("class-waiting"),
            Link::Lost | Link::Connecting => tr!("class-reconnecting"),
            Link::Refused(reason) => tr!("class-refused", reason = reason),
            Link::Open | Link::Closed if class.following.get() => tr!("class-following"),
            Link::Open | Link::Closed => tr!("class-exploring"),
        };
        let button = if class.following.get() {
            view! {
                <button id="class-detach" on:click=move |_| class.following.set(false)>
                    {tr!("class-detach")}
                </button>
            }
            .into_any()
        } else {
            view! {
                <button id="class-rejoin" on:click=move |_| class.rejoin()>
                    {tr!("class-rejoin")}
                </button>
            }
            .into_any()
        };
        Some(view! {
            <div class="follow-banner" id="class-banner" role="status">
                <span id="class-status">{status}</span>
                {button}
            </div>
        })
    }
}
