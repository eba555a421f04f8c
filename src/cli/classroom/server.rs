//! The class's server: the built page and its models as static files (with the headers that
//! give the page its second thread), and `/classroom/ws`, where each connection's messages go
//! to the one [`Classroom`] and what it answers goes out to whom it names.

use attnscope::classroom::messages::normal_code;
use attnscope::classroom::{Classroom, ClientId, FromRoom, ToRoom, MAX_MESSAGE_BYTES};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use base64::Engine as _;
use std::collections::HashMap;
use std::future::Future;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;

/// What one server allows.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Open WebSocket connections at most (a room of phones, and their reconnections).
    pub connections: usize,
    /// Messages a second a connection may send on average, and at once.
    pub per_second: f64,
    pub burst: f64,
    /// Messages waiting to go to one connection: a connection that falls this far behind is
    /// closed (it comes back and gets the current state).
    pub backlog: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self { connections: 300, per_second: 30.0, burst: 60.0, backlog: 256 }
    }
}

struct Hub {
    inner: Mutex<Inner>,
    next: AtomicU64,
    open: AtomicUsize,
    limits: Limits,
    /// The page's address as a phone reaches it.
    url: String,
}

struct Inner {
    room: Classroom,
    outboxes: HashMap<ClientId, mpsc::Sender<String>>,
}

impl Hub {
    /// A message heard: its deliveries go out; a refusal goes back to its sender alone.
    fn hear(&self, from: ClientId, message: ToRoom) -> Result<(), String> {
        let mut inner = self.inner.lock().expect("the hub's lock");
        let out = inner.room.hear(from, message, fresh_secret).map_err(|r| r.0)?;
        inner.deliver(out);
        Ok(())
    }

    fn leave(&self, client: ClientId) {
        let mut inner = self.inner.lock().expect("the hub's lock");
        inner.outboxes.remove(&client);
        let out = inner.room.leave(client);
        inner.deliver(out);
    }
}

impl Inner {
    fn deliver(&mut self, out: Vec<(ClientId, FromRoom)>) {
        for (to, message) in out {
            let Some(outbox) = self.outboxes.get(&to) else { continue };
            // A connection too far behind loses its outbox, which ends it.
            if outbox.try_send(message.to_json()).is_err() {
                self.outboxes.remove(&to);
            }
        }
    }
}

/// 32 random bytes from the system, in base64url: a class's secret.
fn fresh_secret() -> String {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).expect("the system's random numbers");
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// Serves `dist` and the class on `listener` until `stop` completes; `url` is the page's
/// address as printed (the join links and codes are made from it).
pub async fn serve(
    listener: tokio::net::TcpListener,
    dist: PathBuf,
    url: String,
    limits: Limits,
    stop: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let hub = Arc::new(Hub {
        inner: Mutex::new(Inner { room: Classroom::new(), outboxes: HashMap::new() }),
        next: AtomicU64::new(1),
        open: AtomicUsize::new(0),
        limits,
        url,
    });
    // The page's files only: no listing of a folder (`ServeDir` answers 404 for one without
    // index.html), nothing outside `dist` (it refuses `..`, encoded or not), GET and HEAD only.
    let files = ServeDir::new(dist).append_index_html_on_directories(true);
    let app = Router::new()
        .route("/classroom/ws", get(connect))
        .route("/classroom/info", get(info))
        .route("/classroom/qr.svg", get(qr_svg))
        .with_state(hub)
        .fallback_service(files)
        // Cross-origin isolation: without it browsers withhold SharedArrayBuffer and the page
        // computes on one thread.
        .layer(SetResponseHeaderLayer::overriding(
            header::HeaderName::from_static("cross-origin-opener-policy"),
            HeaderValue::from_static("same-origin"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::HeaderName::from_static("cross-origin-embedder-policy"),
            HeaderValue::from_static("require-corp"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ));
    axum::serve(listener, app).with_graceful_shutdown(stop).await
}

/// Tells the page that a class can be held here, and the address phones join at.
async fn info(State(hub): State<Arc<Hub>>) -> Response {
    let body = serde_json::json!({ "classroom": 1, "url": hub.url });
    let headers = [(header::CACHE_CONTROL, "no-store"), (header::CONTENT_TYPE, "application/json")];
    (headers, body.to_string()).into_response()
}

/// The join link of a class as a QR code, for the teacher's screen.
async fn qr_svg(
    State(hub): State<Arc<Hub>>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let Some(code) = query.get("code").and_then(|c| normal_code(c)) else {
        return (StatusCode::BAD_REQUEST, "not a class's code").into_response();
    };
    let link = join_link(&hub.url, &code);
    let Ok(qr) = qrcode::QrCode::new(link.as_bytes()) else {
        return (StatusCode::INTERNAL_SERVER_ERROR, "no QR code for this address").into_response();
    };
    let svg =
        qr.render::<qrcode::render::svg::Color>().min_dimensions(240, 240).quiet_zone(true).build();
    ([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response()
}

/// Where a student goes: the page, with the class's code.
pub fn join_link(url: &str, code: &str) -> String {
    format!("{url}?class={code}")
}

/// The page's address as a QR code in the terminal (two rows of modules a line).
pub fn terminal_qr(url: &str) -> String {
    match qrcode::QrCode::new(url.as_bytes()) {
        Ok(qr) => qr
            .render::<qrcode::render::unicode::Dense1x2>()
            .dark_color(qrcode::render::unicode::Dense1x2::Light)
            .light_color(qrcode::render::unicode::Dense1x2::Dark)
            .build(),
        Err(_) => String::new(),
    }
}

async fn connect(ws: WebSocketUpgrade, State(hub): State<Arc<Hub>>) -> Response {
    // Counted here, before the upgrade, so a flood of connections is refused at once.
    if hub.open.fetch_add(1, Ordering::SeqCst) >= hub.limits.connections {
        hub.open.fetch_sub(1, Ordering::SeqCst);
        return (StatusCode::SERVICE_UNAVAILABLE, "this class is full").into_response();
    }
    ws.max_message_size(MAX_MESSAGE_BYTES)
        .max_frame_size(MAX_MESSAGE_BYTES)
        .on_failed_upgrade({
            let hub = hub.clone();
            move |_| {
                hub.open.fetch_sub(1, Ordering::SeqCst);
            }
        })
        .on_upgrade(move |socket| async move {
            let socket = connection(socket, &hub).await;
            hub.open.fetch_sub(1, Ordering::SeqCst);
            closing(socket).await;
        })
}

/// One page's connection: its messages in, its deliveries out, until either side ends it;
/// then the refusal (if any) and a Close are sent, and the socket is returned for [`closing`].
async fn connection(mut socket: WebSocket, hub: &Hub) -> WebSocket {
    let id = hub.next.fetch_add(1, Ordering::SeqCst);
    let (outbox, mut deliveries) = mpsc::channel::<String>(hub.limits.backlog);
    hub.inner.lock().expect("the hub's lock").outboxes.insert(id, outbox);
    let mut bucket = Bucket::new(hub.limits);
    // A phone that sleeps leaves its connection open; pings find it gone.
    let mut ping = tokio::time::interval(Duration::from_secs(20));
    let refusal = loop {
        tokio::select! {
            incoming = socket.recv() => {
                let text = match incoming {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Binary(_))) => break Some("a class speaks JSON text".into()),
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_)) | Err(_)) | None => break None,
                };
                if !bucket.take() {
                    break Some("too many messages: slow down".into());
                }
                let heard = ToRoom::parse(text.as_str()).and_then(|m| hub.hear(id, m));
                if let Err(reason) = heard {
                    break Some(reason);
                }
            }
            delivery = deliveries.recv() => match delivery {
                Some(json) => {
                    if socket.send(Message::Text(json.into())).await.is_err() {
                        break None;
                    }
                }
                // Dropped for falling behind.
                None => break None,
            },
            _ = ping.tick() => {
                if socket.send(Message::Ping(Vec::new().into())).await.is_err() {
                    break None;
                }
            }
        }
    };
    hub.leave(id);
    if let Some(reason) = refusal {
        let _ = socket.send(Message::Text(FromRoom::Refused { reason }.to_json().into())).await;
    }
    let _ = socket.send(Message::Close(None)).await;
    socket
}

/// The closing handshake, outside the connection count: read (and drop) what the page still
/// sends until its Close, for at most [`CLOSING`]. A socket closed with unread bytes is reset,
/// and a reset can discard the refusal before the page reads it (a flooding page has many
/// messages in flight).
async fn closing(mut socket: WebSocket) {
    let _ = tokio::time::timeout(CLOSING, async {
        while let Some(Ok(message)) = socket.recv().await {
            if matches!(message, Message::Close(_)) {
                break;
            }
        }
    })
    .await;
}

/// How long a closed connection waits for the page's Close.
const CLOSING: Duration = Duration::from_secs(2);

/// A token bucket: `per_second` messages a second on average, `burst` at once.
struct Bucket {
    tokens: f64,
    last: Instant,
    limits: Limits,
}

impl Bucket {
    fn new(limits: Limits) -> Self {
        Self { tokens: limits.burst, last: Instant::now(), limits }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() * self.limits.per_second;
        self.tokens = (self.tokens + refill).min(self.limits.burst);
        self.last = now;
        if self.tokens < 1.0 {
            return false;
        }
        self.tokens -= 1.0;
        true
    }
}
