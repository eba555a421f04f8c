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
                    "Hold a class…"
                </button>
            </div>
        }
        .into_any(),
        (None, _) => view! {
            <p class="class-box class-none" id="class-none">
                "No class here: classes are held where the page is served by "
                <code>"attnscope classroom --lan"</code>
                ", run on the teacher's laptop."
            </p>
        }
        .into_any(),
        (Some(_), Role::None) => view! {
            <div class="class-box">
                <button id="class-start" on:click=move |_| class.start()>
                    "Start a class"
                </button>
            </div>
        }
        .into_any(),
        (Some(_), Role::Teacher { code }) => view! {
            <div class="class-box" id="class-teacher">
                <p>
                    "Class " <strong id="class-code">{code.unwrap_or_else(|| "…".into())}</strong>
                    " · "
                    <span id="class-followers">{move || followers(class.followers.get())}</span>
                    {move || link_note(class.link.get())}
                </p>
                <button id="class-show" on:click=move |_| class.show_code.set(true)>
                    "Show the join code"
                </button>
                <button id="class-end" on:click=move |_| class.end()>
                    "End the class"
                </button>
                <super::questions::AskRoom />
            </div>
        }
        .into_any(),
        (Some(_), Role::Student { code }) => {
            view! { <p class="class-box">"Class " <strong>{code}</strong></p> }.into_any()
        }
    }
}

fn followers(n: usize) -> String {
    match n {
        1 => "1 student follows".into(),
        n => format!("{n} students follow"),
    }
}

fn link_note(link: Link) -> Option<String> {
    match link {
        Link::Connecting => Some(" · connecting…".into()),
        Link::Lost => Some(" · connection lost, trying again…".into()),
        Link::Refused(reason) => Some(format!(" · refused: {reason}")),
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
                <div class="join-code" id="join-code" role="dialog" aria-label="Join the class">
                    <img src=qr alt="QR code of the join link" width="320" height="320" />
                    <p class="join-link">{link}</p>
                    <p class="join-spaced">"Code " <strong>{spaced}</strong></p>
                    <p>{move || followers(class.followers.get())}</p>
                    <button id="join-close" on:click=move |_| class.show_code.set(false)>
                        "Close"
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
            Link::Waiting => "Waiting for the teacher to open the class…".to_string(),
            Link::Lost | Link::Connecting => "Reconnecting to the class…".into(),
            Link::Refused(reason) => format!("The class refused: {reason}"),
            Link::Open | Link::Closed if class.following.get() => "Following the teacher".into(),
            Link::Open | Link::Closed => "Exploring on your own".into(),
        };
        let button = if class.following.get() {
            view! {
                <button id="class-detach" on:click=move |_| class.following.set(false)>
                    "Explore on my own"
                </button>
            }
            .into_any()
        } else {
            view! {
                <button id="class-rejoin" on:click=move |_| class.rejoin()>
                    "Back to the teacher"
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
