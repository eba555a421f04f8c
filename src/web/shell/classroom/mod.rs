//! A class, from the page: when `attnscope classroom` serves the page, "Start a class" makes
//! this page the teacher's, whose state (its address, without its screen's look) goes to the
//! server as it changes; a page opened from the join link (`?class=CODE`) follows it, each
//! computing on its own device, until the student explores on their own. The messages and
//! their rules are `attnscope::classroom`'s.
//!
//! What survives a reload is in the tab's session storage: the teacher's secret, or the
//! student's class and their page's anonymous name. A connection lost (a sleeping phone, a
//! restarted server) is made again every two seconds with the same hello.

use super::page_state;
use crate::state::{Appearance, Selection, Writing};
use crate::url_state::UrlState;
use attnscope::classroom::messages::normal_code;
use attnscope::classroom::{FromRoom, Question, ToRoom};
use leptos::prelude::*;

mod controls;
mod questions;

pub use controls::{ClassControls, FollowBanner, JoinCode};
pub use questions::QuestionCard;
use std::time::Duration;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{CloseEvent, MessageEvent, WebSocket};

const SECRET_KEY: &str = "attnscope-class-secret";
const CODE_KEY: &str = "attnscope-class-code";
const NAME_KEY: &str = "attnscope-class-name";
/// A teacher's changes go out at most this often (a slider dragged sends its last value).
const SEND_EVERY: Duration = Duration::from_millis(100);
const RECONNECT_AFTER: Duration = Duration::from_secs(2);

#[derive(Clone, Debug, PartialEq)]
pub enum Role {
    None,
    /// Leading; the code is known once the server has answered.
    Teacher {
        code: Option<String>,
    },
    Student {
        code: String,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub enum Link {
    Closed,
    Connecting,
    Open,
    /// A student whose class is not open (yet, or again).
    Waiting,
    Lost,
    Refused(String),
}

/// The class as this page takes part in it, by context.
#[derive(Clone, Copy)]
pub struct Class {
    /// The address phones join at, when `attnscope classroom` serves the page.
    pub served: RwSignal<Option<String>>,
    /// Whether the page has asked its server (only when a class is wanted: a static host
    /// answers 404, which is not worth a console error on every visit).
    pub asked: RwSignal<bool>,
    pub role: RwSignal<Role>,
    pub link: RwSignal<Link>,
    pub followers: RwSignal<usize>,
    /// A student's page follows the teacher (else the student explores on their own).
    pub following: RwSignal<bool>,
    /// The teacher's latest state (a student's page).
    pub latest: RwSignal<Option<String>>,
    /// The join code shown large (the teacher's page).
    pub show_code: RwSignal<bool>,
    /// The question open now: asked of this student's page, or asked by this teacher's.
    pub question: RwSignal<Option<(u32, Question)>>,
    /// This student's answer to it.
    pub mine: RwSignal<Option<u32>>,
    /// The teacher's tally: a count per option, and how many answered.
    pub answers: RwSignal<Option<(Vec<u32>, u32)>>,
    /// The right choice of a ready question the teacher asked (never sent).
    pub key: RwSignal<Option<usize>>,
    socket: StoredValue<Option<Connection>, LocalStorage>,
    /// The teacher's state waiting to go out, and whether a send is scheduled.
    outgoing: StoredValue<(Option<String>, bool)>,
    page: StoredValue<(Selection, Appearance, Writing)>,
}

struct Connection {
    socket: WebSocket,
    _on_open: Closure<dyn FnMut()>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_close: Closure<dyn FnMut(CloseEvent)>,
}

impl Class {
    /// Provides the class and finds whether this page is served for one.
    pub fn provide(sel: Selection, app: Appearance, writing: Writing) -> Self {
        let class = Self {
            served: RwSignal::new(None),
            asked: RwSignal::new(false),
            role: RwSignal::new(Role::None),
            link: RwSignal::new(Link::Closed),
            followers: RwSignal::new(0),
            following: RwSignal::new(true),
            latest: RwSignal::new(None),
            show_code: RwSignal::new(false),
            question: RwSignal::new(None),
            mine: RwSignal::new(None),
            answers: RwSignal::new(None),
            key: RwSignal::new(None),
            socket: StoredValue::new_local(None),
            outgoing: StoredValue::new((None, false)),
            page: StoredValue::new((sel, app, writing)),
        };
        provide_context(class);
        // The join link's code is kept for reloads, and leaves the address.
        if let Some(code) = join_code().and_then(|c| normal_code(&c)) {
            store(CODE_KEY, Some(&code));
        }
        if stored(SECRET_KEY).is_some() || stored(CODE_KEY).is_some() {
            leptos::task::spawn_local(async move {
                if !class.ask().await {
                    return;
                }
                if stored(SECRET_KEY).is_some() {
                    class.role.set(Role::Teacher { code: None });
                    class.connect();
                } else if let Some(code) = stored(CODE_KEY) {
                    class.role.set(Role::Student { code });
                    class.connect();
                }
            });
        }
        // The teacher's state goes out as it changes. Only a teacher's page reads it: every
        // other page's keystrokes make no query string (it tracks the role alone until it leads).
        Effect::new(move |_| {
            if !matches!(class.role.get(), Role::Teacher { .. }) {
                return;
            }
            let state = page_state::shared(page_state::current(sel, app, writing, false), writing);
            class.send_state(state.to_query());
        });
        // A page that does not follow a teacher writes nothing of theirs.
        Effect::new(move |_| {
            if !class.following.get() || !matches!(class.role.get(), Role::Student { .. }) {
                writing.following.set(None);
            }
        });
        class
    }

    /// Asks the page's server whether it holds classes; says whether it does.
    pub async fn ask(&self) -> bool {
        let served = served_here().await;
        self.served.set(served.clone());
        self.asked.set(true);
        served.is_some()
    }

    /// "Start a class": this page leads a new one.
    pub fn start(&self) {
        self.role.set(Role::Teacher { code: None });
        self.connect();
    }

    /// Leaves the class (the teacher's page ends leading it; the students' pages wait).
    pub fn end(&self) {
        store(SECRET_KEY, None);
        store(CODE_KEY, None);
        self.role.set(Role::None);
        self.show_code.set(false);
        self.link.set(Link::Closed);
        if let Some(c) = self.socket.try_update_value(Option::take).flatten() {
            let _ = c.socket.close();
        }
    }

    /// "Back to the teacher": follow again, from the teacher's state now.
    pub fn rejoin(&self) {
        self.following.set(true);
        if let Some(state) = self.latest.get_untracked() {
            self.take(&state);
        }
    }

    /// The teacher asks the room (the question's number comes back with the first tally).
    pub fn ask_room(&self, question: Question) {
        self.answers.set(Some((vec![0; question.options()], 0)));
        self.question.set(Some((0, question.clone())));
        self.send(&ToRoom::Ask { question });
    }

    /// The teacher ends the question; the tally stays on the teacher's screen until the next.
    pub fn end_question(&self) {
        self.question.set(None);
        self.send(&ToRoom::EndQuestion {});
    }

    /// A student answers the open question.
    pub fn answer(&self, choice: u32) {
        let Some((id, _)) = self.question.get_untracked() else { return };
        self.mine.set(Some(choice));
        self.send(&ToRoom::Answer { question: id, choice });
    }

    /// The hello that (re)joins: start, lead with the secret, or follow a code.
    fn hello(&self) -> Option<ToRoom> {
        match self.role.get_untracked() {
            Role::None => None,
            Role::Teacher { .. } => Some(match stored(SECRET_KEY) {
                Some(secret) => ToRoom::Teach { secret },
                None => ToRoom::Start {},
            }),
            Role::Student { code } => Some(ToRoom::Join { code, student: student_name() }),
        }
    }

    fn connect(&self) {
        let Some(hello) = self.hello() else { return };
        let Some(url) = address("classroom/ws", true) else { return };
        let Ok(socket) = WebSocket::new(&url) else {
            self.link.set(Link::Lost);
            return;
        };
        self.link.set(Link::Connecting);
        let class = *self;
        let on_open = Closure::<dyn FnMut()>::new({
            let socket = socket.clone();
            move || {
                let _ = socket.send_with_str(&hello.to_json());
            }
        });
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            if let Some(message) = e.data().as_string().and_then(|t| FromRoom::parse(&t).ok()) {
                class.hear(message);
            }
        });
        let on_close = Closure::<dyn FnMut(CloseEvent)>::new({
            let socket = socket.clone();
            move |_: CloseEvent| class.closed(&socket)
        });
        socket.set_onopen(Some(on_open.as_ref().unchecked_ref()));
        socket.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        socket.set_onclose(Some(on_close.as_ref().unchecked_ref()));
        let connection =
            Connection { socket, _on_open: on_open, _on_message: on_message, _on_close: on_close };
        if let Some(old) = self.socket.try_update_value(|s| s.replace(connection)).flatten() {
            old.socket.set_onclose(None);
            let _ = old.socket.close();
        }
    }

    /// The connection closed: made again after a pause, unless the page left the class.
    fn closed(&self, socket: &WebSocket) {
        let current = self.socket.with_value(|c| c.as_ref().map(|c| c.socket.clone()));
        if current.as_ref() != Some(socket) || self.role.get_untracked() == Role::None {
            return;
        }
        if !matches!(self.link.get_untracked(), Link::Refused(_)) {
            self.link.set(Link::Lost);
        }
        let class = *self;
        set_timeout(move || class.connect(), RECONNECT_AFTER);
    }

    fn hear(&self, message: FromRoom) {
        match message {
            FromRoom::Started { code, secret } => {
                store(SECRET_KEY, Some(&secret));
                self.led(code);
            }
            FromRoom::Teaching { code } => self.led(code),
            FromRoom::Joined { code } => {
                self.role.set(Role::Student { code });
                self.link.set(Link::Open);
            }
            FromRoom::Waiting { .. } => self.link.set(Link::Waiting),
            FromRoom::State { state } => {
                self.latest.set(Some(state.clone()));
                if self.following.get_untracked() {
                    self.take(&state);
                }
            }
            FromRoom::Followers { count } => self.followers.set(count),
            FromRoom::Refused { reason } => self.link.set(Link::Refused(reason)),
            FromRoom::Asked { id, question, mine } => {
                self.question.set(Some((id, question)));
                self.mine.set(mine);
            }
            FromRoom::QuestionEnded { .. } => {
                self.question.set(None);
                self.mine.set(None);
            }
            FromRoom::Answers { id, counts, answered } => {
                // The teacher's question has its number now.
                self.question.update(|q| {
                    if let Some((n, _)) = q {
                        *n = id;
                    }
                });
                self.answers.set(Some((counts, answered)));
            }
        }
    }

    /// Leading the class of `code`: the page's state goes out at once.
    fn led(&self, code: String) {
        self.role.set(Role::Teacher { code: Some(code) });
        self.link.set(Link::Open);
        let (sel, app, writing) = self.page.get_value();
        let state =
            untrack(|| page_state::shared(page_state::current(sel, app, writing, false), writing));
        self.send_state(state.to_query());
    }

    /// The teacher's state, sent at most every [`SEND_EVERY`] (the latest one wins).
    fn send_state(&self, query: String) {
        let scheduled = self
            .outgoing
            .try_update_value(|(waiting, scheduled)| {
                *waiting = Some(query);
                std::mem::replace(scheduled, true)
            })
            .unwrap_or(true);
        if scheduled {
            return;
        }
        let class = *self;
        let flush = move || {
            let Some((Some(state), _)) = class.outgoing.try_update_value(std::mem::take) else {
                return;
            };
            class.send(&ToRoom::State { state });
        };
        set_timeout(flush, SEND_EVERY);
    }

    fn send(&self, message: &ToRoom) {
        if self.link.get_untracked() != Link::Open {
            return;
        }
        self.socket.with_value(|c| {
            if let Some(c) = c {
                let _ = c.socket.send_with_str(&message.to_json());
            }
        });
    }

    /// A student's page takes the teacher's state, keeping its own look; the teacher's writing
    /// it writes again itself (`views::write::follow`).
    fn take(&self, state: &str) {
        let (sel, app, writing) = self.page.get_value();
        let state = UrlState::parse(state);
        crate::views::write::follow::expect(&state, writing);
        page_state::apply(state, sel, app, writing, false);
    }
}

/// Whether `attnscope classroom` serves this page: its address for phones if so.
async fn served_here() -> Option<String> {
    let window = web_sys::window()?;
    let response = JsFuture::from(window.fetch_with_str(&address("classroom/info", false)?))
        .await
        .ok()?
        .dyn_into::<web_sys::Response>()
        .ok()?;
    if !response.ok() {
        return None;
    }
    let text = JsFuture::from(response.text().ok()?).await.ok()?.as_string()?;
    #[derive(serde::Deserialize)]
    struct Info {
        classroom: u32,
        url: String,
    }
    let info: Info = serde_json::from_str(&text).ok()?;
    (info.classroom == 1).then_some(info.url)
}

/// The class of the join link the page was opened from (`?class=CODE`).
fn join_code() -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    web_sys::UrlSearchParams::new_with_str(&search).ok()?.get("class")
}

/// `path` beside the page, as an absolute address (`ws:`/`wss:` for a socket).
fn address(path: &str, socket: bool) -> Option<String> {
    let href = web_sys::window()?.location().href().ok()?;
    let url = web_sys::Url::new_with_base(path, &href).ok()?;
    url.set_search("");
    if socket {
        url.set_protocol(if url.protocol() == "https:" { "wss:" } else { "ws:" });
    }
    Some(url.href())
}

fn session_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok().flatten()
}

fn stored(key: &str) -> Option<String> {
    session_storage()?.get_item(key).ok().flatten()
}

fn store(key: &str, value: Option<&str>) {
    if let Some(s) = session_storage() {
        let _ = match value {
            Some(v) => s.set_item(key, v),
            None => s.remove_item(key),
        };
    }
}

/// The student page's anonymous name: random, made once per tab.
fn student_name() -> String {
    if let Some(name) = stored(NAME_KEY) {
        return name;
    }
    let mut bytes = [0u8; 16];
    let random = web_sys::window().and_then(|w| w.crypto().ok());
    if random.and_then(|c| c.get_random_values_with_u8_array(&mut bytes).ok()).is_none() {
        // No Web Crypto: the name only keeps one student's answers apart.
        bytes.iter_mut().for_each(|b| *b = (js_sys::Math::random() * 256.0) as u8);
    }
    let name: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    store(NAME_KEY, Some(&name));
    name
}
