//! `attnscope classroom` end to end, over real sockets: the binary serves a folder (only it,
//! with the isolation headers, GET and HEAD only) and relays a class over WebSocket, where
//! only the teacher leads and a malformed, oversized or too frequent message closes its own
//! connection and nothing else.

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The server on a free port, serving a folder made for the test beside a file it must not
/// give away; stopped when dropped.
struct Server {
    child: Child,
    address: String,
    _dir: PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn server(name: &str, extra: &[&str]) -> Server {
    let dir =
        std::env::temp_dir().join(format!("attnscope-classroom-{name}-{}", std::process::id()));
    let dist = dir.join("dist");
    std::fs::create_dir_all(dist.join("models/tiny")).unwrap();
    std::fs::write(dist.join("index.html"), "<!doctype html><title>page</title>").unwrap();
    std::fs::write(dist.join("models/tiny/weights.bin"), [1u8, 2, 3]).unwrap();
    std::fs::write(dir.join("secret.txt"), "NOT FOR THE ROOM").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_attnscope"))
        .args(["classroom", "--port", "0", "--dist"])
        .arg(&dist)
        .args(extra)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    // The rest of what it prints is read and dropped.
    std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
    let address =
        line.split("http://").nth(1).expect("the address printed").trim_end_matches(['/', '\n']);
    Server { child, address: address.to_string(), _dir: dir }
}

/// A request as written, byte for byte (no client tidies the path): status line and body.
fn request(server: &Server, method: &str, path: &str) -> (u16, String) {
    let mut tcp = TcpStream::connect(&server.address).unwrap();
    tcp.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(tcp, "{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
    let mut response = String::new();
    tcp.read_to_string(&mut response).unwrap();
    let status = response.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, response)
}

#[test]
fn serves_the_page_and_nothing_else() {
    let server = server("files", &[]);
    let (status, response) = request(&server, "GET", "/");
    assert_eq!(status, 200);
    let lower = response.to_lowercase();
    assert!(lower.contains("cross-origin-opener-policy: same-origin"), "{response}");
    assert!(lower.contains("cross-origin-embedder-policy: require-corp"), "{response}");
    assert_eq!(request(&server, "GET", "/models/tiny/weights.bin").0, 200);
    assert_eq!(request(&server, "HEAD", "/index.html").0, 200);

    for path in [
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/%2E%2E%2Fsecret.txt",
        "/models/..%2f..%2f..%2fsecret.txt",
        "/models/tiny/../../../secret.txt",
        "/..%5csecret.txt",
        "/%252e%252e/secret.txt",
        "//etc/passwd",
        "/models/",
        "/models/tiny/",
    ] {
        let (status, response) = request(&server, "GET", path);
        assert!(status == 404 || status == 400 || status == 403, "{path}: {status}");
        assert!(
            !response.contains("NOT FOR THE ROOM") && !response.contains("weights.bin"),
            "{path}"
        );
    }
    // A folder without the slash is sent to the folder, which is not listed either.
    let (status, response) = request(&server, "GET", "/models/tiny");
    assert!(status == 307 && response.contains("location: /models/tiny/"), "{response}");
    for method in ["POST", "PUT", "DELETE", "PATCH"] {
        assert_eq!(request(&server, method, "/index.html").0, 405, "{method}");
    }
    let (status, response) = request(&server, "GET", "/classroom/info");
    assert_eq!(status, 200);
    let body: Value = serde_json::from_str(response.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    assert_eq!(body["url"], format!("http://{}/", server.address));
    assert_eq!(request(&server, "GET", "/classroom/qr.svg?code=../../x").0, 400);
    let (status, response) = request(&server, "GET", "/classroom/qr.svg?code=0123456789");
    assert!(status == 200 && response.contains("<svg"), "{status}");
}

async fn open(server: &Server) -> Socket {
    let url = format!("ws://{}/classroom/ws", server.address);
    tokio_tungstenite::connect_async(url).await.unwrap().0
}

async fn say(socket: &mut Socket, message: Value) {
    socket.send(Message::text(message.to_string())).await.unwrap();
}

/// The next message, as JSON; None once the server closed the connection.
async fn next(socket: &mut Socket) -> Option<Value> {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(10), socket.next()).await.ok()??;
        match message.ok()? {
            Message::Text(text) => return serde_json::from_str(text.as_str()).ok(),
            Message::Close(_) => return None,
            _ => continue,
        }
    }
}

/// The next message of `kind` (its fields), skipping others.
async fn next_of(socket: &mut Socket, kind: &str) -> Value {
    loop {
        let message = next(socket).await.unwrap_or_else(|| panic!("closed before a {kind}"));
        if let Some(fields) = message.get(kind) {
            return fields.clone();
        }
    }
}

/// Waits until the teacher hears that `count` students follow.
async fn followers(teacher: &mut Socket, count: usize) {
    while next_of(teacher, "followers").await["count"] != count {}
}

async fn closed(socket: &mut Socket) -> bool {
    while let Some(message) = next(socket).await {
        if message.get("refused").is_some() {
            continue;
        }
    }
    true
}

fn run<F: std::future::Future<Output = ()>>(future: F) {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(future)
}

#[test]
fn the_teacher_leads_and_students_follow_and_cannot_lead() {
    let server = server("class", &[]);
    run(async {
        let mut teacher = open(&server).await;
        say(&mut teacher, json!({"start": {}})).await;
        let started = next_of(&mut teacher, "started").await;
        let code = started["code"].as_str().unwrap().to_string();
        say(&mut teacher, json!({"state": {"state": "?text=one&view=grid"}})).await;

        let mut student = open(&server).await;
        let name = "a-students-page-name";
        say(&mut student, json!({"join": {"code": code.to_lowercase(), "student": name}})).await;
        assert_eq!(next_of(&mut student, "joined").await["code"], code.as_str());
        assert_eq!(next_of(&mut student, "state").await["state"], "?text=one&view=grid");
        followers(&mut teacher, 1).await;

        // A student who tries to drive is refused and let go; the class goes on.
        say(&mut student, json!({"state": {"state": "?text=mine"}})).await;
        let refused = next_of(&mut student, "refused").await;
        assert_eq!(refused["reason"], "only the teacher leads the class");
        assert!(closed(&mut student).await);
        followers(&mut teacher, 0).await;

        let mut other = open(&server).await;
        say(&mut other, json!({"join": {"code": code, "student": "another-students-name"}})).await;
        assert_eq!(next_of(&mut other, "state").await["state"], "?text=one&view=grid");
        say(&mut teacher, json!({"state": {"state": "?text=two"}})).await;
        assert_eq!(next_of(&mut other, "state").await["state"], "?text=two");

        // A second connection with the secret (the teacher's page reloaded) leads too.
        let mut again = open(&server).await;
        say(&mut again, json!({"teach": {"secret": started["secret"]}})).await;
        assert_eq!(next_of(&mut again, "teaching").await["code"], code.as_str());
        say(&mut again, json!({"state": {"state": "?text=three"}})).await;
        assert_eq!(next_of(&mut other, "state").await["state"], "?text=three");
    });
}

#[test]
fn bad_messages_close_their_own_connection_only() {
    let server = server("limits", &["--max-connections", "4"]);
    run(async {
        let mut teacher = open(&server).await;
        say(&mut teacher, json!({"start": {}})).await;
        let code = next_of(&mut teacher, "started").await["code"].as_str().unwrap().to_string();

        let mut malformed = open(&server).await;
        malformed.send(Message::text("{\"join\":{\"code\":")).await.unwrap();
        assert!(next_of(&mut malformed, "refused").await["reason"]
            .as_str()
            .unwrap()
            .contains("not a message"));
        assert!(closed(&mut malformed).await);

        let mut binary = open(&server).await;
        binary.send(Message::binary(vec![0u8; 16])).await.unwrap();
        assert!(closed(&mut binary).await);

        // Longer than any message may be: the connection ends (the frame is refused unread).
        let mut huge = open(&server).await;
        let state = "x".repeat(70 * 1024);
        let _ = huge.send(Message::text(json!({"state": {"state": state}}).to_string())).await;
        assert!(closed(&mut huge).await);

        // Faster than the limit: refused.
        let mut flood = open(&server).await;
        say(&mut flood, json!({"join": {"code": code, "student": "a-flooding-student"}})).await;
        for _ in 0..200 {
            if flood.send(Message::text(r#"{"answer":{"question":1,"choice":0}}"#)).await.is_err() {
                break;
            }
        }
        let reason = next_of(&mut flood, "refused").await;
        assert_eq!(reason["reason"], "too many messages: slow down");
        drop(flood);

        // Through all of it, the teacher's connection stayed.
        say(&mut teacher, json!({"state": {"state": "?text=still"}})).await;
        let mut student = open(&server).await;
        say(&mut student, json!({"join": {"code": code, "student": "a-patient-student"}})).await;
        assert_eq!(next_of(&mut student, "state").await["state"], "?text=still");

        // At most four connections: a fifth is turned away before it opens.
        let mut more = vec![open(&server).await, open(&server).await];
        tokio::time::sleep(Duration::from_millis(200)).await;
        let url = format!("ws://{}/classroom/ws", server.address);
        let refused = tokio_tungstenite::connect_async(url).await;
        assert!(refused.is_err(), "a fifth connection opened");
        more.clear();
    });
}

/// What a load run measured.
struct LoadReport {
    students: usize,
    states: usize,
    delivered: usize,
    p50_ms: f64,
    p99_ms: f64,
    max_ms: f64,
    answers: usize,
    questions: usize,
    rss_kb: Vec<u64>,
}

fn rss_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap_or("VmRSS: 0 kB");
    line.split_whitespace().nth(1).and_then(|n| n.parse().ok()).unwrap_or(0)
}

/// `students` connections follow a teacher who changes the state ten times a second and asks a
/// question every second, which every student answers at once (so `students` answers a
/// second), for `seconds`. Each state carries the time it was sent, so every student measures
/// its delivery; the teacher's tallies say whether an answer was lost or counted twice.
async fn load(server: &Server, pid: u32, students: usize, seconds: u64) -> LoadReport {
    use std::sync::{Arc, Mutex};
    let start = std::time::Instant::now();
    let mut teacher = open(server).await;
    say(&mut teacher, json!({"start": {}})).await;
    let code = next_of(&mut teacher, "started").await["code"].as_str().unwrap().to_string();
    let latencies = Arc::new(Mutex::new(Vec::<f64>::new()));
    let finals = Arc::new(Mutex::new(Vec::<String>::new()));
    let mut tasks = Vec::new();
    for i in 0..students {
        let mut socket = open(server).await;
        let name = format!("load-test-student-{i:04}");
        say(&mut socket, json!({"join": {"code": code, "student": name}})).await;
        let (latencies, finals) = (latencies.clone(), finals.clone());
        tasks.push(tokio::spawn(async move {
            let (mut sink, mut stream) = socket.split();
            let mut last = String::new();
            while let Some(Ok(message)) = stream.next().await {
                let Message::Text(text) = message else { continue };
                let message: Value = serde_json::from_str(text.as_str()).unwrap();
                if let Some(state) = message.get("state") {
                    last = state["state"].as_str().unwrap().to_string();
                    let sent: f64 = last.split("sent=").nth(1).unwrap().parse().unwrap();
                    let now = start.elapsed().as_secs_f64() * 1e3;
                    latencies.lock().unwrap().push(now - sent);
                    if last.starts_with("?text=final") {
                        break;
                    }
                } else if let Some(asked) = message.get("asked") {
                    let answer = json!({"answer": {"question": asked["id"], "choice": i % 3}});
                    sink.send(Message::text(answer.to_string())).await.unwrap();
                }
            }
            finals.lock().unwrap().push(last);
        }));
    }
    followers(&mut teacher, students).await;
    let (mut to_room, mut from_room) = teacher.split();
    // The teacher's tallies: the most answers seen for each question.
    let tallies = tokio::spawn(async move {
        let mut most: std::collections::BTreeMap<u64, u64> = Default::default();
        while let Some(Ok(message)) = from_room.next().await {
            // Pings come every 20 s.
            let Message::Text(text) = message else { continue };
            let message: Value = serde_json::from_str(text.as_str()).unwrap();
            if let Some(message) = message.get("answers") {
                let counted: u64 =
                    message["counts"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).sum();
                assert_eq!(counted, message["answered"].as_u64().unwrap());
                let id = message["id"].as_u64().unwrap();
                let e = most.entry(id).or_default();
                *e = (*e).max(counted);
            }
        }
        most
    });
    let mut rss = vec![rss_kb(pid)];
    let ticks = seconds * 10;
    let mut every = tokio::time::interval(Duration::from_millis(100));
    let question = json!({"prompt": "Which?", "kind": {"choice": {"choices": ["a", "b", "c"]}}});
    for tick in 0..ticks {
        every.tick().await;
        let sent = start.elapsed().as_secs_f64() * 1e3;
        let state = format!("?text=step{tick}&sent={sent:.3}");
        to_room.send(Message::text(json!({"state": {"state": state}}).to_string())).await.unwrap();
        if tick % 10 == 0 {
            to_room
                .send(Message::text(json!({"ask": {"question": question}}).to_string()))
                .await
                .unwrap();
        }
        if tick % 50 == 49 {
            rss.push(rss_kb(pid));
        }
    }
    // The last question is answered before the final state ends the students' loops.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let sent = start.elapsed().as_secs_f64() * 1e3;
    let state = format!("?text=final&sent={sent:.3}");
    to_room.send(Message::text(json!({"state": {"state": state}}).to_string())).await.unwrap();
    for task in tasks {
        tokio::time::timeout(Duration::from_secs(20), task)
            .await
            .expect("a student got the final state")
            .unwrap();
    }
    rss.push(rss_kb(pid));
    to_room.send(Message::Close(None)).await.unwrap();
    let most = tallies.await.unwrap();
    assert_eq!(most.len() as u64, ticks.div_ceil(10), "a question's tally never came");
    let finals = finals.lock().unwrap().clone();
    assert!(finals.iter().all(|f| f.starts_with("?text=final")), "a student ended elsewhere");
    let mut l = latencies.lock().unwrap().clone();
    l.sort_by(f64::total_cmp);
    let at = |q: f64| l[((l.len() - 1) as f64 * q).round() as usize];
    LoadReport {
        students,
        states: ticks as usize + 1,
        delivered: l.len(),
        p50_ms: at(0.5),
        p99_ms: at(0.99),
        max_ms: at(1.0),
        answers: most.values().sum::<u64>() as usize,
        questions: most.len(),
        rss_kb: rss,
    }
    .check(&most)
}

impl LoadReport {
    fn check(self, most: &std::collections::BTreeMap<u64, u64>) -> Self {
        // Every question got every student's answer, once.
        for (id, &answered) in most {
            assert_eq!(answered as usize, self.students, "question {id}: {answered} answers");
        }
        assert_eq!(self.delivered, self.states * self.students, "a state was not delivered");
        self
    }
}

/// A short load run, part of the test command (`scripts/classroom_load.sh` runs the long one
/// and prints its figures): 100 students, ten states and 100 answers a second.
#[test]
fn a_hundred_students_follow_and_answer() {
    let seconds =
        std::env::var("CLASSROOM_LOAD_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(3);
    let server = server("load", &[]);
    let pid = server.child.id();
    let mut report = None;
    run(async { report = Some(load(&server, pid, 100, seconds).await) });
    let r = report.unwrap();
    println!(
        "classroom load: {} students, {} s: {} states delivered {} times, latency p50 {:.1} ms, \
         p99 {:.1} ms, max {:.1} ms; {} questions, {} answers counted; server RSS {:?} kB",
        r.students,
        seconds,
        r.states,
        r.delivered,
        r.p50_ms,
        r.p99_ms,
        r.max_ms,
        r.questions,
        r.answers,
        r.rss_kb
    );
    let first = r.rss_kb[1].max(1) as f64;
    let last = *r.rss_kb.last().unwrap() as f64;
    assert!(last <= first * 1.25 + 4096.0, "the server's memory grew: {:?} kB", r.rss_kb);
}
